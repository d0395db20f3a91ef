"""Smart-home devices: homes and rooms, devices with live state and capabilities, sensor and energy
history, lock codes, and groups, scenes and automations that act on several devices at once, with
the log of what automations did."""
