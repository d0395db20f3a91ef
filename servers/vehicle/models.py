"""The connected car's tables: owners, their vehicles (one row holds a vehicle's whole live state), the
places a navigation system knows with the postal codes they lie in, and the places owners have saved.

Values are stored in the units of a US car (miles, mph, degrees Fahrenheit, psi) and fuel in litres; each
vehicle's display shows them in its own unit system (imperial or metric), and the tools read them out that way.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class Owner(Base):
    __tablename__ = "owners"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "OWN-0003"
    name: Mapped[str] = mapped_column(index=True)
    email: Mapped[str] = mapped_column(index=True)
    phone: Mapped[str]
    city: Mapped[str]

    vehicles: Mapped[list[Vehicle]] = relationship(order_by="Vehicle.id", viewonly=True)
    saved_places: Mapped[list[SavedPlace]] = relationship(order_by="(SavedPlace.label, SavedPlace.id)",
                                                          viewonly=True)


class Vehicle(Base):
    __tablename__ = "vehicles"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "VEH-0007"
    owner_id: Mapped[str] = mapped_column(ForeignKey("owners.id"), index=True)
    make: Mapped[str]
    model: Mapped[str]
    year: Mapped[int]
    color: Mapped[str]
    nickname: Mapped[str | None]
    plate: Mapped[str]
    powertrain: Mapped[str]  # electric | gasoline
    # the state machine
    ignition: Mapped[str]  # off | accessory | on
    gear: Mapped[str]  # P | R | N | D
    speed_mph: Mapped[float]  # a cruise speed set in km/h steps is not a whole number of mph
    brake_pressed: Mapped[bool] = mapped_column(default=False)  # the brake pedal held down
    parking_brake: Mapped[bool] = mapped_column(default=False)  # engaged
    cruise_on: Mapped[bool] = mapped_column(default=False)  # cruise control holds speed_mph
    following_distance: Mapped[str] = mapped_column(default="medium")  # short | medium | long
    display_units: Mapped[str] = mapped_column(default="imperial")  # imperial | metric
    odometer_miles: Mapped[int]
    # body
    locked: Mapped[bool]
    open_door: Mapped[str | None]  # a door left ajar: 'driver', 'passenger', 'rear left', 'rear right'
    trunk_open: Mapped[bool]
    windows: Mapped[str]  # closed | vent | open
    headlights: Mapped[str]  # off | auto | low | high
    # climate
    climate_on: Mapped[bool]
    target_temp_f: Mapped[int]
    fan_speed: Mapped[int]  # 1 to 7 while the climate runs
    inside_temp_f: Mapped[int]
    outside_temp_f: Mapped[int]
    driver_seat_heat: Mapped[int]  # 0 to 3
    passenger_seat_heat: Mapped[int]
    rear_seat_heat: Mapped[int]
    wheel_heat: Mapped[int]
    has_heated_wheel: Mapped[bool]
    defrost_front: Mapped[bool]
    defrost_rear: Mapped[bool]
    # energy
    energy_percent: Mapped[int]  # battery charge or fuel level
    full_range_miles: Mapped[int]
    tank_litres: Mapped[float | None] = mapped_column(default=None)  # gasoline only: the tank's capacity
    fuel_litres: Mapped[float | None] = mapped_column(default=None)  # gasoline only: what is in the tank
    charge_port_open: Mapped[bool]
    plugged_in: Mapped[bool]
    charging: Mapped[bool]
    charge_limit: Mapped[int]
    # tyres
    tyre_front_left: Mapped[float]
    tyre_front_right: Mapped[float]
    tyre_rear_left: Mapped[float]
    tyre_rear_right: Mapped[float]
    tyre_recommended: Mapped[int]
    # driving and media
    drive_mode: Mapped[str]
    drive_modes: Mapped[str]  # comma-separated modes the vehicle offers
    media_source: Mapped[str]  # off | radio | bluetooth | usb
    radio_station: Mapped[str | None]
    paired_phone: Mapped[str | None]
    # where it is and where it is going
    city: Mapped[str]
    lat: Mapped[float]
    lon: Mapped[float]
    nav_place_id: Mapped[str | None] = mapped_column(ForeignKey("places.id"), default=None)
    nav_postal_code: Mapped[str | None] = mapped_column(ForeignKey("postal_codes.code"), default=None)
    nav_distance_miles: Mapped[float | None] = mapped_column(default=None)
    nav_minutes: Mapped[int | None] = mapped_column(default=None)
    nav_stops: Mapped[str | None] = mapped_column(default=None)  # comma-separated place ids
    nav_started_at: Mapped[dt.datetime | None] = mapped_column(default=None)


class Place(Base):
    """A place the navigation system can route to: a business, a charging or fuel station, a home."""

    __tablename__ = "places"
    __table_args__ = (Index("ix_places_category", "category"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "PLC-0042"
    name: Mapped[str]
    category: Mapped[str]
    address: Mapped[str]
    city: Mapped[str] = mapped_column(index=True)
    postal_code: Mapped[str] = mapped_column(ForeignKey("postal_codes.code"), index=True)
    lat: Mapped[float]
    lon: Mapped[float]


class PostalCode(Base):
    """A postal code area: navigation to a postal code alone routes to its centre."""

    __tablename__ = "postal_codes"

    code: Mapped[str] = mapped_column(String, primary_key=True)  # "94110"
    city: Mapped[str]
    lat: Mapped[float]
    lon: Mapped[float]


class SavedPlace(Base):
    """A place an owner saved under a label of their own ('Home', 'Work', 'Gym')."""

    __tablename__ = "saved_places"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "SAV-0012"
    owner_id: Mapped[str] = mapped_column(ForeignKey("owners.id"), index=True)
    place_id: Mapped[str] = mapped_column(ForeignKey("places.id"))
    label: Mapped[str]
    note: Mapped[str | None]
    saved_at: Mapped[dt.datetime]
