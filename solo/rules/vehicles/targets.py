"""Vehicles as targets and as firing platforms (C2 31.8-31.10): who may be fired at, from where a
man in a seat may fire, and the terms every vehicle shot shares.

* the shot's strike (:class:`Ordnance`, :class:`Strike`, :func:`strike_of`) and the house
  tables of vehicle fire (``ASPECT_MODIFIER``, ``TARGET_SPEED_MODIFIER``, ``CALIBRE_MM``,
  ``SMALL_ARMS_PENETRATION``, ``HEAT_FRAG``...);
* speed, Commander and position: :func:`speed_order`, :func:`speed_fire_modifier`,
  :func:`target_speed`, :func:`direct_firing`, :func:`commander_ldr`, :func:`out_of_position`
  (31.1, 31.9.4, 31.10.9, 31.11.2);
* targets: :func:`is_individual_target` (31.10.31: open-hatch AFV crew and other exposed
  occupants as small-arms targets), :func:`crew_fire_cell` (the Hatch line),
  :func:`is_vehicle_target` (31.10: which vehicles a firer may shoot at), :func:`target_vehicle`
  and :func:`target_name` (option keys ``"vehicle:<id>"``);
* firing from a seat: :func:`seat_fire_block`, :func:`seat_may_fire`, :func:`seat_fire_modifiers`
  (31.9.1-31.9.4 a).

The shots themselves are in :mod:`~solo.rules.vehicles.small_arms`,
:mod:`~solo.rules.vehicles.main_gun`, :mod:`~solo.rules.vehicles.machine_guns` and
:mod:`~solo.rules.vehicles.light_at`; their hits in :mod:`~solo.rules.vehicles.hits`.
``HOUSE_RULES`` names the readings taken where the rule text is silent (listed in the README).

May import: :mod:`~solo.rules.spotting`, :mod:`~solo.rules.morale` and the rules below them, and
the rooms below rules.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs

from solo.core.hexes import Arc, Hex, wedge_directions
from solo.data.orders import Order, OrderFlag
from solo.data.tables import MoraleState
from solo.data.vehicle_types import (
    VehicleKind,
    VehicleType,
)
from solo.data.weapons import AmmoKind, Weapon, WeaponKind
from solo.rules.state import Character, Side
from solo.rules.vehicles.state import CREW_ORDER, Vehicle, vehicle_of, vehicles_of

if TYPE_CHECKING:
    from solo.rules.context import GameContext

# ---------------------------------------------------------------------------
# Constants

VEHICLE_TARGET = "vehicle:"
"""Prefix of a fire target that is a vehicle (``"vehicle:panzer"``) in fire solutions and decisions."""
HEX_TARGET = "hex:"
"""Prefix of a fire target that is a hex (``"hex:20.11"``) in decisions."""

ASPECT_MODIFIER: dict[Arc, int] = {Arc.FRONT: 1, Arc.SIDE: 2, Arc.REAR: 1}
"""C2 31.9.4 d i: +2 at the side of a vehicle, +1 at its front or rear; also Light AT (C2 32
example of play: "+2 for firing at the side of a Vehicle")."""
TARGET_SPEED_MODIFIER: dict[str | None, int] = {
    None: 1,
    "emergency_stop": 1,
    "crawl": 0,
    "reverse": 0,
    "ahead_slow": -1,
    "forward": -2,
    "fast": -3,
}
"""To hit a vehicle, by its Driver's speed order (None: standing still or immobilized).
Emergency Stop +1 [rulebook C2 32 example: "+1 for the Vehicle's Emergency Halt order"]; the
other values [house]. Used for main guns, Light AT and small arms at vehicles (31.10 "the
modifiers in 31.9.3")."""
DIRECT_FIRING = 1
"""C2 31.9.4 d, 31.11.2: +1 to all fire from an AFV whose Commander has Direct Firing."""
OUT_OF_POSITION = -2
"""C2 31.11.2 Relocate: a crewman out of his own position, -2 to every TQC except spotting
(also to his TQ used as a WS [house]); a Co-driver driving has no penalty."""
GUNNER_SIGHT = -4
"""C2 31.10.8 Gunner's Sight: -4 to the Gunner's spotting and to-hit rolls."""
LDR_ON_VEHICLE_TO_HIT = False
"""[house] The Commander's LDR is added to the Gunner's TQC to fire (C2 example of play) and to HE
at a hex (31.9.4 d ii lists it) but not to the to-hit roll at a vehicle (31.9.4 d i does not)."""
COMMANDER_OWN_LDR = False
"""[house] The Commander does not add his own LDR to his own Morale Checks (31.10.9 "the
Leadership Value of the Commander" modifies the crew's)."""
HIDDEN_ORDERS = ("hide", "rally")
"""C2 31.8: a crewman with an open hatch is out of it unless he has Hide or Rally."""
SPEED_ORDERS = ("crawl", "ahead_slow", "forward", "fast", "reverse", "emergency_stop")
"""The Driver's speed orders (C2 31.11.2)."""
CALIBRE_MM: dict[str, int] = {"m4_75mm": 75, "pziv_75mm": 75}
"""[house] Main gun calibres in mm for the 31.10.8 calibre rules (the weapons chart has none);
an unlisted main gun counts as 75mm."""
DEFAULT_CALIBRE = 75
SMALL_ARMS_PENETRATION: dict[WeaponKind, str] = {
    WeaponKind.MG: "1d3",
    WeaponKind.RIFLE: "1d3-1",
    WeaponKind.SMG: "1d3-1",
    WeaponKind.PISTOL: "1d3-1",
    WeaponKind.KNIFE: "1d3-1",
}
"""[house] Penetration of small arms at Half-Track armor (31.10.2, 31.10.4) when the weapons chart
gives the weapon no ``small_arms`` penetration (the .50 cal has 2+1d3)."""
HALF_TRACK_RANGE = 4
"""C2 31.10: Enemies fire at a Friendly Half-Track only within 4 hexes ..."""
HALF_TRACK_RANGE_MG = 8
"""... or 8 hexes for a Machine Gunner."""
SOFT_TARGET_TERRAIN = (
    "building",
    "fortified_building",
    "rubble",
    "rocks",
    "abbey_exterior",
    "abbey_interior",
    "fountain",
)
"""C2 32.2: terrain ids where a Light AT weapon may fire at characters (Building, Rubble, Rocks,
Abbey, Fountain)."""
HEAT_FRAG: dict[str, tuple[int, int, int, int]] = {
    "bazooka": (2, 3, 1, 2),
    "panzerfaust_60": (3, 3, 1, 2),
    "panzerfaust_100": (3, 3, 1, 2),
}
"""[house] C2 32.2 Frag data "left/right of the slash" (near dice, near frag, far dice, far frag)
when the weapons chart gives the weapon no ``grenade`` block."""
DEFAULT_HEAT_FRAG = (2, 3, 1, 2)
BAZOOKA_ROCKETS = 3
"""C2 32.1: each Bazooka receives a 3-Ammo Marker."""
PANZERFAUST_DEFAULT_LEVEL = 0
"""C2 32.3: the Panzerfaust Level when the scenario gives none."""
PANZERFAUST_DEFAULT_TYPE = "panzerfaust_60"
FRIENDLY_PANZERFAUST = -2
"""C2 32.3: a Friendly firing a picked-up Panzerfaust: -2 to his TQ for the shot."""
OFFICER_MIN_LDR = 2
"""[house] An "Officer" for 32.3 is an Enemy with LDR 2 or more (NCOs have LDR 1)."""
MAX_REROLLS = 20
"""Re-rolls of a hit location on a destroyed hatch or periscope before giving up (31.10.8)."""
FIRE_STARTED = "vehicle_fire_started"
"""``state.flags`` key: ``{vehicle id: turn}`` the vehicle caught fire (31.10.8)."""
CREW_HOME = "crew_home"
"""``state.flags`` key (kept by :mod:`solo.rules.vehicles.crew`): each crewman's own position."""
LIGHT_AT = "light_at"
"""``state.flags`` key: Bazooka state by operator id (32.1)."""
PANZERFAUST = "panzerfaust"
"""``state.flags`` key: ``{"level": int, "type": weapon id}`` (32.3)."""
HATCH_GRENADES = "hatch_grenades"
"""``state.flags`` key: grenades dropped into hatches this turn (31.10.7)."""
MOUNT_KEY = "vehicle_weapon"
"""``ch.acted`` key (written by :mod:`solo.enemy.vom_orders` from the VOM cell): the mount fired."""
HATCH_GRENADE_WOUNDS = 3
"""C2 31.10.7: each crew member draws 3 wound cards."""

HOUSE_RULES: dict[str, str] = {
    "target_speed": "To hit a vehicle: Emergency Stop or standing +1, Crawl/Reverse 0, Ahead Slow -1, "
    "Forward -2, Fast -3 (only Emergency Stop +1 is printed, C2 32 example).",
    "ldr_to_hit": "The Commander's LDR adds to the Gunner's TQC to fire and to HE at a hex, not to the "
    "to-hit roll at a vehicle (31.9.4 d i does not list it).",
    "commander_own_ldr": "The Commander does not add his own LDR to his own MCs.",
    "out_of_position_ws": "The -2 out of position also applies to a crewman's TQ used as a WS.",
    "calibres": "Main gun calibres (75mm) for the 31.10.8 calibre rules are a module table.",
    "small_arms_pen": "Small arms without a chart penetration: MGs 1d3, others 1d3-1, at Half-Track armor.",
    "non_penetrating_mc": "A hit on a location without armor (track, suspension, turret ring...) is "
    "non-penetrating fire: its MCs are ignored by crew with closed hatches (31.10.6); a hit that fails "
    "its penetration roll has no effect at all (31.10.4).",
    "crew_as_passengers": "Jeep, Truck and Half-Track Drivers and Co-drivers sit in row 0 of the "
    "passenger grid (Driver left, Co-driver right) for 31.10.8 Passenger X and 31.10.11.",
    "driver_reaction": "A Driver who fails an MC or is wounded takes Emergency Stop (31.2) in every kind "
    "of vehicle; other Jeep/Truck/Half-Track crew Duck Back, passengers and the cupola Panic.",
    "wmc_skips_mc": "A man who took a WMC in an attack makes no further MC from that attack.",
    "catastrophic_passengers": "A catastrophic hit (destroyed) kills every occupant.",
    "cupola_other": "A cupola hit by AP >37mm or HEAT kills its occupant; by HE <75mm: 3 wound cards.",
    "suspension_heat": "HEAT immobilizes on a Suspension hit like AP >=50mm.",
    "ap_at_infantry": "A main gun loaded with AP does not fire at a hex of characters.",
    "he_hex_occupants": "HE at a hex hits the characters there, not vehicles or their occupants; "
    "occupants of vehicles take no blast MC.",
    "he_scatter": "A main gun HE round that scatters hits the new hex as a successful roll (31.9.4 d ii); "
    "a Light AT round that scatters rolls again (32.2).",
    "heat_soft_no_mc": "HEAT at a soft target causes no blast MC (32.2 names only Frag rolls).",
    "mg_assistant": "A coaxial MG is assisted by the Loader (14.3 applies); bow and pintle MGs have no "
    "assistant (-3, Low Ammo on a single 9, 31.9.4 b). A mounted MG's ammo is the firer's ammo state.",
    "soft_vehicle_fire": "Small arms at a vehicle: the firer's usual modifiers plus the target's speed; "
    "no fire chart cell and no aspect modifier; a Suppressive hit is an MC for exposed occupants.",
    "enemy_vehicle_last": "Enemy infantry fire at a vehicle only when they have no character target.",
    "officer": "An Officer (32.3) is an Enemy with LDR 2 or more.",
    "rockets_on_carrier": "Bazooka rockets lie with their carrier (the assistant, else the operator), "
    "dead or alive: loading needs the carrier's hex to be the operator's.",
    "friendly_pf_pickup": "A Friendly ending his activation on a dropped Panzerfaust always tries to "
    "pick it up; nobody holds two.",
    "artillery_tables": "The Indirect Fire vs AFV / vs Half-Track, Truck, Jeep tables (31.10.12) are "
    "house tables.",
    "hatch_grenades": "Grenades dropped into hatches explode in the End Phase: every crewman still in "
    "the AFV draws 3 wound cards.",
    "enemy_afv_target": "31.10 'unless the Friendly AFV has a LOS to a Friendly Crew Member with an Open "
    "Hatch' is read as: an Enemy may fire at a Friendly AFV only while he sees one of its crew at an "
    "open hatch through that position's exposure arc.",
    "ldr_snapshot": "For the crew's MCs after a hit, the Commander's morale is read when the hit lands "
    "(the example: the Gunner still gets +2 after the Commander failed his MC).",
    "he_reveals": "HE bursting in a hex reveals everyone there (dummies are removed).",
    "light_at_aspect": "Light AT shots at vehicles use the 31.9.4 d i aspect bonuses (+2 side, +1 front "
    "or rear); the example prints only the side.",
}
"""[house] Decisions this module makes where the rules are silent (listed for the README)."""


class Ordnance(enum.Enum):
    """What hit the vehicle, for the 31.10.8 rules by weapon type."""

    SMALL_ARMS = "small_arms"
    AP = "ap"
    HE = "he"
    HEAT = "heat"


@attrs.frozen
class Strike:
    """A round striking a vehicle: weapon, ordnance, calibre and penetration dice (31.10.4, 31.10.8)."""

    weapon: str
    """Weapon id (``cards/weapons.yaml``)."""
    name: str
    ordnance: Ordnance
    calibre: int | None
    """Millimetres for AP and HE; None for small arms and HEAT."""
    penetration: str | None
    """Dice expression (``"5+1d6"``); None = cannot penetrate armor."""

    @property
    def small_arms(self) -> bool:
        """Pistols, SMGs, rifles and MGs."""
        return self.ordnance is Ordnance.SMALL_ARMS


def strike_of(game: GameContext, weapon_id: str, ordnance: Ordnance | None = None) -> Strike:
    """The :class:`Strike` of ``weapon_id`` firing ``ordnance`` (None: HEAT for Light AT, else small arms).

    Penetration from the weapons chart (``ammo`` of that kind), else for small arms the house
    :data:`SMALL_ARMS_PENETRATION`. Raises :class:`KeyError` for an unknown weapon.
    """
    w = game.data.weapons.get(weapon_id)
    if ordnance is None:
        ordnance = Ordnance.HEAT if w.kind is WeaponKind.LIGHT_AT else Ordnance.SMALL_ARMS
    pen: str | None
    try:
        pen = w.ammo_of(AmmoKind(ordnance.value)).penetration.text
    except KeyError:
        pen = SMALL_ARMS_PENETRATION.get(w.kind) if ordnance is Ordnance.SMALL_ARMS else None
    calibre = None
    if ordnance in (Ordnance.AP, Ordnance.HE):
        calibre = CALIBRE_MM.get(w.id, DEFAULT_CALIBRE)
    return Strike(w.id, w.name, ordnance, calibre, pen)


# ---------------------------------------------------------------------------
# Small helpers


def _vtype(game: GameContext, vehicle: Vehicle) -> VehicleType:
    vtype: VehicleType = game.data.vehicles.get(vehicle.type)
    return vtype


def _occupant(game: GameContext, vehicle: Vehicle, position: str) -> Character | None:
    """The active (or incapacitated) character in ``position``, or None."""
    seat = vehicle.seats.get(position)
    if seat is None or seat.occupant is None:
        return None
    ch = game.state.characters.get(seat.occupant)
    return ch if ch is not None and ch.on_map else None


def _active_occupant(game: GameContext, vehicle: Vehicle, position: str) -> Character | None:
    ch = _occupant(game, vehicle, position)
    return ch if ch is not None and ch.is_active else None


def _crew(game: GameContext, vehicle: Vehicle) -> list[Character]:
    """Active crew, Commander first (31.1)."""
    out = []
    for p in CREW_ORDER:
        ch = _active_occupant(game, vehicle, p)
        if ch is not None:
            out.append(ch)
    return out


def _passengers(game: GameContext, vehicle: Vehicle) -> list[Character]:
    """Active passengers and the cupola occupant, by position."""
    out = []
    for p in vehicle.seats:
        if p in CREW_ORDER:
            continue
        ch = _active_occupant(game, vehicle, p)
        if ch is not None:
            out.append(ch)
    return out


def _occupants(game: GameContext, vehicle: Vehicle) -> list[Character]:
    return [*_crew(game, vehicle), *_passengers(game, vehicle)]


def _rel_wedges(game: GameContext, unit: Hex, facing: int, target: Hex) -> tuple[int, ...]:
    """Relative wedges 0-5 of ``target`` around ``unit`` facing ``facing`` (two on a hexspine)."""
    return tuple((d - facing) % 6 for d in wedge_directions(unit, target, game.board.map.stagger))


def _in_wedges(
    game: GameContext, unit: Hex, facing: int, target: Hex, wedges: Iterable[int], *, strict: bool
) -> bool:
    """Whether ``target`` lies in ``wedges``; on a hexspine ``strict`` needs both sides, else either."""
    if target == unit:
        return True
    allowed = set(wedges)
    rel = _rel_wedges(game, unit, facing, target)
    return all(w in allowed for w in rel) if strict else any(w in allowed for w in rel)


def _is_afv(vt: VehicleType) -> bool:
    return vt.kind is VehicleKind.AFV


def _hatch_open(vehicle: Vehicle, position: str) -> bool:
    seat = vehicle.seats.get(position)
    return seat is not None and seat.hatch.is_open


def _buttoned(game: GameContext, vehicle: Vehicle, ch: Character) -> bool:
    """Inside the armor: an AFV crewman with a closed hatch, or without one (a tank Gunner)."""
    vt = _vtype(game, vehicle)
    if not _is_afv(vt) or ch.seat is None:
        return False
    return not _hatch_open(vehicle, ch.seat)


def _hidden(ch: Character) -> bool:
    return ch.order is not None and ch.order.order in HIDDEN_ORDERS


def _here(game: GameContext) -> tuple[int, int]:
    flow = game.state.flow
    return (flow.turn, flow.impulse)


def _order_of(game: GameContext, order: Order | str | None) -> Order | None:
    if order is None or isinstance(order, Order):
        return order
    found: Order | None = game.data.orders.get(order)
    return found


def _terms_text(terms: list[tuple[str, int]]) -> str:
    head, *rest = terms
    return f"{head[0]} {head[1]}" + "".join(f" {v:+d} {k}" for k, v in rest if v or k == "range")


def _vehicle_at_hex_sides(game: GameContext, h: Hex, side: Side) -> bool:
    """Active characters of ``side`` on foot in hex ``h``."""
    return any(c.side is side and c.is_active and c.vehicle is None for c in game.state.at(h))


# ---------------------------------------------------------------------------
# Speed, Commander, position (31.1, 31.9.4, 31.10.9, 31.11.2)


def speed_order(game: GameContext, vehicle: Vehicle) -> str | None:
    """The vehicle's speed order id this turn (the Driver's), or None when it has none (C2 31.11.2).

    A killed or stopped Driver leaves ``vehicle.acted["speed"]`` (Emergency Stop). An
    immobilized vehicle counts as stopped only for its targets (see :func:`target_speed`).
    """
    driver = _occupant(game, vehicle, "driver")
    if driver is not None and driver.order is not None and driver.order.order in SPEED_ORDERS:
        return driver.order.order
    return vehicle.acted.get("speed")


def speed_fire_modifier(game: GameContext, vehicle: Vehicle) -> tuple[str, int] | None:
    """The WS modifier of all fire from ``vehicle`` (its speed order's), or None: no fire (Fast).

    C2 31.11.2: Crawl -2, Ahead Slow -3, Forward -5, Fast no fire, Reverse -2, Emergency Stop -2.
    A vehicle without a speed order: ``("standing", 0)``.
    """
    sid = speed_order(game, vehicle)
    if sid is None:
        return ("standing", 0)
    o = game.data.orders.get(sid)
    if o.ws_modifier is None:
        return None
    return (f"firing vehicle {o.name}", o.ws_modifier)


def target_speed(game: GameContext, vehicle: Vehicle) -> tuple[str, int]:
    """The modifier to hit ``vehicle`` by its speed order (:data:`TARGET_SPEED_MODIFIER`)."""
    sid = None if vehicle.immobilized else speed_order(game, vehicle)
    name = "standing" if sid is None else game.data.orders.get(sid).name
    return (f"target {name}", TARGET_SPEED_MODIFIER.get(sid, 0))


def direct_firing(game: GameContext, vehicle: Vehicle) -> bool:
    """The Commander has Direct Firing this turn (``vehicle.acted["direct_firing"]`` or his order)."""
    if vehicle.acted.get("direct_firing"):
        return True
    cmd = _active_occupant(game, vehicle, "commander")
    return cmd is not None and cmd.order is not None and cmd.order.order == "direct_firing"


def commander_ldr(game: GameContext, vehicle: Vehicle, ch: Character | None = None, *, for_mc: bool) -> int:
    """The Commander's LDR added for ``ch`` (0 when it does not apply).

    ``for_mc`` (C2 31.10.9): the Commander is in the AFV, Normal or better, and the AFV is not on
    fire. Otherwise (31.9.4 d ii, the TQCs of the example of play): he is in the AFV and not in
    Rout. The Commander's own checks get none (:data:`COMMANDER_OWN_LDR`).
    """
    cmd = _active_occupant(game, vehicle, "commander")
    if cmd is None or (ch is cmd and not COMMANDER_OWN_LDR):
        return 0
    if for_mc:
        if cmd.morale.rank > MoraleState.NORMAL.rank or vehicle.on_fire:
            return 0
    elif cmd.morale is MoraleState.ROUT:
        return 0
    return cmd.ldr


def _home_seat(game: GameContext, vehicle: Vehicle, ch: Character) -> str | None:
    homes = game.state.flags.get(CREW_HOME)
    if isinstance(homes, dict) and ch.id in homes:
        home: str | None = homes[ch.id]
        return home
    prefix = f"{vehicle.id}_"
    if ch.id.startswith(prefix) and ch.id[len(prefix) :] in CREW_ORDER:
        return ch.id[len(prefix) :]
    return None


def out_of_position(game: GameContext, vehicle: Vehicle, ch: Character) -> bool:
    """A crewman not in his own position (C2 31.11.2 Relocate); a Co-driver may drive unpenalised.

    His own position: ``state.flags["crew_home"]`` (kept by :mod:`solo.rules.vehicles.crew`), else
    the position in his id (``<vehicle>_<position>``, scenario crews); a man with neither is never
    out of position.
    """
    home = _home_seat(game, vehicle, ch)
    if home not in CREW_ORDER:
        return False
    if home is None or ch.seat is None or home == ch.seat:
        return False
    return not (home == "co_driver" and ch.seat == "driver")


def _gun_terms(game: GameContext, vehicle: Vehicle, gunner: Character, *, ldr: bool) -> list[tuple[str, int]]:
    """TQ terms shared by main gun and crew MG fire (31.9.4, 31.10.8, 31.10.9, 31.11.2)."""
    terms: list[tuple[str, int]] = []
    if direct_firing(game, vehicle):
        terms.append(("Direct Firing", DIRECT_FIRING))
    spd = speed_fire_modifier(game, vehicle)
    if spd is not None:
        terms.append(spd)
    if ldr:
        terms.append(("Commander's LDR", commander_ldr(game, vehicle, gunner, for_mc=False)))
    if out_of_position(game, vehicle, gunner):
        terms.append(("out of position", OUT_OF_POSITION))
    terms.append((f"morale {gunner.morale.value}", game.data.checks.morale(gunner.morale).fire_ws))
    return terms


# ---------------------------------------------------------------------------
# Targets: occupants, vehicles, firing from seats (31.8, 31.9, 31.10)


def is_individual_target(
    game: GameContext, target: Character, firer: Character, order: Order | str | None
) -> bool:
    """Whether ``firer`` may fire at ``target`` as a man on his own (C2 31.8, 31.10.2, 31.10.31).

    A character on foot always may. An occupant of a vehicle only when his position is exposed
    (an open hatch on an AFV; a position with exposure arcs, like a Half-Track cupola), he has no
    Hide (or Rally) order, his hatch was not opened this turn (31.11.2), the firer has an Aimed
    Fire order, and the firer stands in the position's exposure arc (``Position.exposed_from``,
    relative to the hull; a hexspine counts for both sides). The fire uses the Hatch line
    (:func:`crew_fire_cell`).
    """
    if target.vehicle is None:
        return True
    vehicle = vehicle_of(game.state, target)
    if vehicle is None or vehicle.hex is None or target.seat is None or firer.hex is None:
        return vehicle is None
    o = _order_of(game, order)
    if o is None or not o.has_flag(OrderFlag.TARGET_KNOWN_AT_IMPULSE_START):
        return False
    vt = _vtype(game, vehicle)
    if not vt.has_position(target.seat):
        return False
    pos = vt.position(target.seat)
    if not pos.exposed_from or _hidden(target):
        return False
    if pos.hatch and (
        not _hatch_open(vehicle, target.seat) or target.seat in vehicle.acted.get("hatch_opened", ())
    ):
        return False
    if firer.hex == vehicle.hex:
        return False
    return _in_wedges(game, vehicle.hex, vehicle.facing, firer.hex, pos.exposed_from, strict=False)


def crew_fire_cell(game: GameContext, target: Character) -> tuple[Any, str, int]:
    """The fire chart cell for an exposed occupant: the Hatch line (C2 31.8), (cell, row, group).

    Group: his order's fire group, or G2 for crew orders (which have none) [house].
    """
    o = game.order_def(target)
    group = o.fire_group if o is not None and o.fire_group is not None else 2
    return game.data.charts.fire_cell("hatch", group), "hatch", group


def _exposed_to(game: GameContext, vehicle: Vehicle, ch: Character, firer_hex: Hex) -> bool:
    """An AFV crewman at an open hatch whom a man in ``firer_hex`` sees through his exposure arc."""
    vt = _vtype(game, vehicle)
    if ch.seat is None or not vt.has_position(ch.seat) or vehicle.hex is None:
        return False
    pos = vt.position(ch.seat)
    if not pos.exposed_from or _hidden(ch) or (pos.hatch and not _hatch_open(vehicle, ch.seat)):
        return False
    return firer_hex != vehicle.hex and _in_wedges(
        game, vehicle.hex, vehicle.facing, firer_hex, pos.exposed_from, strict=False
    )


def is_vehicle_target(game: GameContext, vehicle: Vehicle, firer: Character) -> bool:
    """Whether ``firer`` may fire at ``vehicle`` itself with small arms (C2 31.10).

    An active vehicle of the other side, on the map. A Friendly may fire at any Enemy vehicle.
    An Enemy treats a Friendly AFV as a non-target unless he has LOS to one of its crew at an
    open hatch (through the position's exposure arc), and a Friendly Half-Track unless it is
    within 4 hexes (8 for a Machine Gunner); Jeeps and Trucks are always targets.
    """
    if not vehicle.is_active or vehicle.side is firer.side or firer.hex is None or vehicle.hex is None:
        return False
    if firer.side is Side.FRIENDLY:
        return True
    vt = _vtype(game, vehicle)
    if vt.kind is VehicleKind.AFV:
        return any(_exposed_to(game, vehicle, c, firer.hex) for c in _crew(game, vehicle))
    if vt.kind is VehicleKind.HALF_TRACK:
        mg = any(
            w.weapon in game.data.weapons and game.data.weapons.get(w.weapon).kind is WeaponKind.MG
            for w in firer.weapons
        )
        limit = HALF_TRACK_RANGE_MG if mg or firer.mg_role is not None else HALF_TRACK_RANGE
        return game.distance(firer.hex, vehicle.hex) <= limit
    return True


def seat_fire_block(game: GameContext, ch: Character) -> str | None:
    """Why ``ch`` cannot fire his own weapon from his seat now, or None (C2 31.8, 31.9, 31.11.2).

    Fast: no fire from the vehicle; an AFV crewman needs an open hatch (31.9.4 a) and is not
    on Hide; a position with no fire arcs (a Truck's back) cannot fire.
    """
    vehicle = vehicle_of(game.state, ch)
    if vehicle is None or ch.seat is None:
        return None
    if speed_fire_modifier(game, vehicle) is None:
        return "the vehicle moves Fast: no fire (31.11.2)"
    vt = _vtype(game, vehicle)
    if not vt.has_position(ch.seat):
        return "no such position"
    pos = vt.position(ch.seat)
    if not pos.fire_arcs:
        return f"the {ch.seat.replace('_', ' ')} position has no arc of fire (31.9)"
    if _is_afv(vt) and not _hatch_open(vehicle, ch.seat):
        return "his hatch is closed (31.9.4 a)"
    return None


def seat_may_fire(game: GameContext, ch: Character, weapon: Weapon, target_hex: Hex) -> bool:
    """Whether ``ch`` may fire ``weapon`` from his seat at ``target_hex`` (C2 31.9.1-31.9.4 a).

    The position's weapon kinds (``fire_kinds``; empty = any) and arcs (``fire_arcs``, relative
    to the hull; on a hexspine both sides must be in the arc); Half-Track passengers never fire
    MGs (31.9.3). A character on foot always may.
    """
    vehicle = vehicle_of(game.state, ch)
    if vehicle is None or ch.seat is None or vehicle.hex is None:
        return True
    vt = _vtype(game, vehicle)
    if not vt.has_position(ch.seat):
        return False
    pos = vt.position(ch.seat)
    if pos.fire_kinds and weapon.kind not in pos.fire_kinds:
        return False
    if pos.number is not None and weapon.kind is WeaponKind.MG:
        return False
    return _in_wedges(game, vehicle.hex, vehicle.facing, target_hex, pos.fire_arcs, strict=True)


def seat_fire_modifiers(game: GameContext, ch: Character) -> list[tuple[str, int]]:
    """WS modifiers of fire from a seat: the vehicle's speed order and Direct Firing (C2 31.9, 31.11.2)."""
    vehicle = vehicle_of(game.state, ch)
    if vehicle is None:
        return []
    mods: list[tuple[str, int]] = []
    spd = speed_fire_modifier(game, vehicle)
    if spd is not None:
        mods.append(spd)
    if direct_firing(game, vehicle):
        mods.append(("Direct Firing", DIRECT_FIRING))
    return mods


def target_vehicle(game: GameContext, key: str) -> Vehicle | None:
    """The vehicle a ``"vehicle:<id>"`` target key names, or None for another key."""
    if not key.startswith(VEHICLE_TARGET):
        return None
    return vehicles_of(game.state).get(key[len(VEHICLE_TARGET) :])


def target_name(game: GameContext, key: str) -> str:
    """A readable name for a fire target key: a character, ``vehicle:<id>`` or ``hex:CC.RR``."""
    v = target_vehicle(game, key)
    if v is not None:
        return v.name
    if key.startswith(HEX_TARGET):
        return f"hex {key[len(HEX_TARGET) :]}"
    ch = game.state.characters.get(key)
    return ch.name if ch is not None else key


# ---------------------------------------------------------------------------
# Crew morale (31.10.6, 31.10.9, 31.10.10)


# ---------------------------------------------------------------------------
# Hits on vehicles (31.10.3-31.10.11)


# ---------------------------------------------------------------------------
# Observed targets (31.7.3) and the main gun (31.9.4 d)


# ---------------------------------------------------------------------------
# Vehicle machine guns (31.9.4 b, c; pintle MGs)


# ---------------------------------------------------------------------------
# Light AT weapons (32.0-32.3)


# --- Panzerfausts (32.3)


# ---------------------------------------------------------------------------
# Fire, grenades in hatches, artillery (31.10.7, 31.10.8, 31.10.12)
