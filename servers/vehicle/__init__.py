"""Vehicle: a connected-car assistant for owners and their cars: ignition and brakes, gears, speed and cruise
control, doors, trunk, windows and lights, climate, charging or refuelling, tyres and tyre shops, drive modes,
display units, media and navigation to places and postal addresses, each action gated by the car's state the way
a real car gates it."""
