"""Travel booking: travellers, flights, hotels and the itineraries that hold their bookings."""
