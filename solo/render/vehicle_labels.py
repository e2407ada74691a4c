"""The words the window prints for vehicles: counter names, Target Marker initials (C2 31.7.3),
display labels, crew and speed orders (C2 31.11.2), hatches (C2 31.8) and damage markers (C2 31.10.8),
and the tooltip line of a vehicle.

Read-only over :mod:`solo.rules.vehicles.state` and the vehicle types of :mod:`solo.data.vehicle_types`
(:func:`vehicle_type`). No drawing here: :mod:`solo.render.vehicle_counters`,
:mod:`solo.render.target_markers`, :mod:`solo.render.vehicle_displays`,
:mod:`solo.render.decision_panel` and the window's tooltip print these words.

May import: :mod:`solo.render.counter_marks` (order-marker abbreviations), ``solo.rules`` and lower
rooms; no pygame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solo.render.counter_marks import order_abbrev
from solo.rules.state import Side
from solo.rules.vehicles.state import Hatch, Vehicle

if TYPE_CHECKING:
    from solo.data.vehicle_types import VehicleType
    from solo.engine.game import Game
    from solo.rules.state import Character


VEHICLE_ABBREV: dict[str, str] = {
    "panzer_ivh": "Pz IVH",
    "m4a3_sherman": "M4A3",
    "m3a1_half_track": "M3A1",
    "opel_truck": "Opel",
    "jeep": "Jeep",
}
"""The name printed on a vehicle counter, by vehicle type (others: the start of the vehicle's name)."""

POSITION_INITIALS: dict[str, str] = {
    "commander": "C",
    "gunner": "G",
    "driver": "D",
    "loader": "L",
    "co_driver": "CD",
    "cupola": "Cu",
}
"""The owner's initial printed on a Target Marker (C2 31.7.3); passengers are ``P<n>``."""

POSITION_SHORT: dict[str, str] = {
    "commander": "Cmdr",
    "driver": "Drvr",
    "gunner": "Gnr",
    "loader": "Ldr",
    "co_driver": "CoDr",
    "cupola": "Cup",
}
"""Position labels on the vehicle display."""

CREW_ORDER_ABBREV: dict[str, str] = {
    "spot": "Spot",
    "direct_firing": "Dir Fire",
    "smoke_dischargers": "Smk Dis",
    "smoke_grenade_hatch": "Smk Gr",
    "fire_main_gun": "Fire Gun",
    "load_he": "Load HE",
    "load_ap": "Load AP",
    "button_open_up": "Btn/Open",
    "bail_out": "Bail Out",
    "panic": "Panic",
    "relocate": "Relocate",
    "mount_up": "Mount",
    "no_order": "none",
    "crawl": "Crawl",
    "ahead_slow": "Slow",
    "forward": "Fwd",
    "fast": "Fast",
    "reverse": "Rev",
    "emergency_stop": "E-Stop",
    "duck_back": "Duck Bk",
    "aimed_fire": "Aimed",
    "rapid_fire": "Rapid",
    "suppressive_fire": "Suppr",
}
"""Crew and speed orders as the display's order cell shows them (C2 31.11.2)."""

HATCH_TEXT: dict[Hatch, str] = {
    Hatch.OPEN: "Open",
    Hatch.CLOSED: "Closed",
    Hatch.JAMMED_OPEN: "Jam open",
    Hatch.JAMMED_CLOSED: "Jam shut",
    Hatch.NONE: "no hatch",
}
"""Hatch states on the display (C2 31.8, 31.10.8)."""

DAMAGE_TEXT: dict[str, str] = {
    "immobilized": "Immobilized",
    "turret_jammed": "Turret jammed",
    "main_gun_destroyed": "Main gun destroyed",
    "engine_fire": "Engine fire",
    "turret_fire": "Turret fire",
    "coaxial_mg_destroyed": "Coax MG destroyed",
    "bow_mg_destroyed": "Bow MG destroyed",
    "gunner_sight": "Gunner's sight hit",
    "headlight_left": "Left headlight",
    "headlight_right": "Right headlight",
    "cupola_destroyed": "Cupola destroyed",
}
"""Damage markers on the display (C2 31.10.8); ``periscope:<role>`` reads "Periscope (role)"."""


def vehicle_abbrev(v: Vehicle) -> str:
    """The counter's name: :data:`VEHICLE_ABBREV` for the type, else the first word(s) of the name."""
    if v.type in VEHICLE_ABBREV:
        return VEHICLE_ABBREV[v.type]
    words = v.name.split()
    return " ".join(words[:2])[:8] if words else v.id[:8]


def position_initial(position: str) -> str:
    """A Target Marker's owner initial: C, G, D, L, CD (C2 31.7.3), ``P3`` for passenger 3."""
    if position in POSITION_INITIALS:
        return POSITION_INITIALS[position]
    if position.startswith("passenger_"):
        return "P" + position.split("_", 1)[1]
    return position[:2].upper()


def position_label(position: str) -> str:
    """A position's label on the display (``"Cmdr"``, ``"P3"``)."""
    if position in POSITION_SHORT:
        return POSITION_SHORT[position]
    return position_initial(position)


def damage_labels(v: Vehicle) -> list[str]:
    """The vehicle's damage markers as words (C2 31.10.8); bookkeeping flags (``force_*``) left out."""
    out = []
    for d in v.damage:
        if d.startswith("force_"):
            continue
        if d.startswith("periscope:"):
            out.append(f"Periscope ({d.split(':', 1)[1].replace('_', '-')})")
        else:
            out.append(DAMAGE_TEXT.get(d, d.replace("_", " ").capitalize()))
    if v.mired and "immobilized" not in v.damage:
        out.append("Mired")
    if v.on_fire:
        out.append("ON FIRE")
    if v.destroyed:
        out.append("DESTROYED")
    if v.abandoned:
        out.append("ABANDONED")
    return out


def crew_order_text(game: Game, ch: Character) -> str:
    """The order cell of a crewman: ``"Fwd 1/2"``, ``"Spot"``, ``"—"`` without an order."""
    if ch.order is None:
        return "—"
    oid = ch.order.order
    if oid in CREW_ORDER_ABBREV:
        text = CREW_ORDER_ABBREV[oid]
    else:
        text = order_abbrev(game, oid)
    if ch.order.directions:
        text += f" {ch.order.directions}"
    return text


def vehicle_type(game: Game, v: Vehicle) -> VehicleType | None:
    """The vehicle's type, or None when the data do not know it (drawn generically)."""
    types = getattr(game.data, "vehicles", None)
    if types is None:
        return None
    try:
        return types.get(v.type)
    except Exception:  # an unknown type id: draw what the state says
        return None


def vehicle_line(game: Game, v: Vehicle) -> str:
    """A one-line description of a vehicle for tooltips."""
    vt = vehicle_type(game, v)
    bits = [v.name + (f" ({vt.name})" if vt is not None and vt.name != v.name else "")]
    bits.append("Friendly" if v.side is Side.FRIENDLY else "Enemy")
    if v.hex is not None:
        where = f"in {v.hex}, hull facing {v.facing}"
        if v.turret is not None:
            where += f", turret {v.turret}"
        bits.append(where)
    if v.loaded is not None:
        bits.append(f"Loaded {v.loaded.name}")
    if v.rounds:
        bits.append(", ".join(f"{k.upper()} {n}" for k, n in v.rounds.items()) + " rounds")
    dmg = damage_labels(v)
    if dmg:
        bits.append("damage: " + ", ".join(dmg))
    marks = [f"{position_initial(p)} on {h}" for p, h in v.markers()]
    if marks:
        bits.append("Target Markers: " + ", ".join(marks))
    return " · ".join(bits)
