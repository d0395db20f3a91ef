"""Vehicle: a connected-car assistant for owners and their cars: ignition, gears and speed, doors, trunk, windows
and lights, climate, charging or fuel, tyres, drive modes, media and navigation, each action gated by the car's
state the way a real car gates it."""
