"""Vehicle fire and damage, and the light anti-tank weapons (C2 31.8-31.10, 32.0-32.3).

Public API (every function takes the :class:`~solo.engine.game.Game` first):

* targets: :func:`is_individual_target` (31.10.31: open-hatch AFV crew and other exposed
  occupants as small-arms targets), :func:`crew_fire_cell` (the Hatch line), :func:`is_vehicle_target`
  (31.10: which vehicles a firer may shoot at), :func:`vehicle_fire_solutions` and
  :func:`resolve_fire_at_vehicle` (small arms and MGs at a vehicle, 31.10.1-31.10.3),
  :func:`occupant_hit` (a fire hit on an exposed occupant), and the rules for men firing from a
  seat: :func:`seat_fire_block`, :func:`seat_may_fire`, :func:`seat_fire_modifiers` (31.9.1-31.9.4 a);
* the crews' own weapons: :func:`fire_main_gun` (31.9.4 d: AP/HE at vehicles, HE at a hex) and
  :func:`fire_vehicle_mg` (31.9.4 b/c and pintle MGs), both generators the crew module enters
  with ``yield from``;
* hits on vehicles: :func:`strike_of`, :func:`hit_vehicle` (hit location by aspect, penetration,
  glancing blows, damage, every 31.10.8 location, crew KIA, crew and passenger morale),
  :func:`crew_morale_check`, :func:`fire_morale_check`, :func:`crew_reaction`;
* HE bursts: :func:`he_at_hex` (31.9.4 d ii: Frag dice at the Blast number, scatter, blast MCs);
* light AT (32): :func:`light_at_step` (the F steps of Load Light AT and Fire Light AT, routed
  here by :func:`solo.rules.combat.fire_step`), :func:`bazooka_state`, :func:`light_at_order_placed`
  (a loaded bazooka moving faster than Sneak), :func:`enemy_panzerfaust_check` (32.3
  placement), :func:`panzerfaust_order` (32.3 orders), :func:`panzerfaust_pickup`;
* the rest of 31.10: :func:`end_phase_vehicle_fires` (31.10.8 Turret/Engine Fire),
  :func:`drop_grenade_in_hatch` and :func:`hatch_grenades_explode` (31.10.7),
  :func:`artillery_hits_vehicle` (31.10.12).

Every shot emits ONE summary event (``main_gun_fire``; ``fire`` for vehicle MGs at characters;
``vehicle_fire``, ``light_at_fire``) whose ``data`` holds the whole breakdown: the TQ/WS terms,
the roll, the hit location row, armor and penetration, the damage row, the men killed, the
notes and the Morale Checks. The checks, wound draws and kills emit their own events as usual.

State kept here (documented for the other modules):

* ``vehicle.acted["speed"]``: a speed order id standing in for the Driver's order once the
  Driver is killed or stopped by this module (``"emergency_stop"``, 31.11.2);
* ``vehicle.acted["direct_firing"]``: True when the Commander has Direct Firing (read; the order
  itself also counts); ``vehicle.acted["turret_turned"]``: the Impulse the turret turned
  (no main gun or coaxial fire then, 31.6); ``vehicle.acted["loaded_impulse"]``: the Impulse
  the gun was loaded (it was not loaded at that Impulse's start); ``vehicle.acted["hatch_opened"]``:
  positions whose hatch was opened this turn (not exposed to small arms until next turn, 31.11.2);
* ``vehicle.damage`` strings: ``immobilized``, ``turret_jammed``, ``main_gun_destroyed``,
  ``engine_fire``, ``turret_fire``, ``coaxial_mg_destroyed``, ``bow_mg_destroyed``,
  ``gunner_sight``, ``periscope:<role>``, ``headlight_left``/``headlight_right``,
  ``cupola_destroyed``;
* ``vehicle.damage`` flags read (and removed) by :mod:`solo.enemy.crews` at the next order
  assignment: ``force_bail_out:crew`` (a failed Track TQC), ``force_bail_out:driver`` and
  ``force_bail_out:passengers`` (Track on a Half-Track, Wheel hits on Enemy vehicles),
  ``force_button_up:<position>`` (an Enemy periscope hit);
* ``game.state.flags[LIGHT_AT]``: ``{operator id: {"loaded": bool, "rockets": int,
  "assistant": id | None, "carrier": id, "loaded_at": [turn, impulse] | None,
  "fired_at": [turn, impulse] | None}}`` (32.1; starts unloaded with 3 rockets);
* ``game.state.flags[PANZERFAUST]``: ``{"level": int, "type": weapon id}`` (32.3), first read from
  ``game.scenario.panzerfaust`` (``{level: N, type: panzerfaust_60|panzerfaust_100}``) when the
  scenario has that field, else :data:`PANZERFAUST_DEFAULT_LEVEL`. A Panzerfaust held is a
  :class:`~solo.rules.state.CarriedWeapon` in ``ch.weapons``; a dead holder's stays on his hex.

Other modules' hooks, used only if present: ``solo.enemy.crews.observed_targets(game, vehicle,
seat)`` (else the seat's Target Marker hex and the hexes around it), ``driver_emergency_stop(game,
driver, reason, rule)`` (else the order is set here) and ``clear_marker`` (else the seat's marker
is cleared here).
"""

from __future__ import annotations

import enum
from collections.abc import Generator, Iterable
from typing import TYPE_CHECKING, Any

import attrs

from solo.core.hexes import Arc, Hex, arc_of, wedge_directions
from solo.data.cards import WoundStamp
from solo.data.tables import (
    AmmoKind,
    CheckKind,
    MoraleState,
    Order,
    OrderFlag,
    TrackStep,
    Weapon,
    WeaponFlag,
    WeaponKind,
    roll_result,
)
from solo.data.vehicle_types import (
    CrewCheck,
    DamageEffect,
    HitLocation,
    Location,
    MountId,
    Role,
    VehicleKind,
    VehicleType,
    VehicleWeapon,
    hit_location,
)
from solo.data.vehicle_types import armor as armor_value
from solo.data.vehicle_types import damage as damage_row
from solo.rules import combat, morale, skills, spotting, wounds
from solo.rules.state import AmmoState, CarriedWeapon, Character, Side, Status
from solo.rules.vehicles import emergency_stop
from solo.rules.vehicles.state import CREW_ORDER, Hatch, Vehicle, vehicle_of, vehicles_of

if TYPE_CHECKING:
    from solo.core.decisions import Decision
    from solo.rules.context import GameContext
    from solo.rules.los import Sight

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
"""``ch.acted`` key (written by :mod:`solo.enemy.crews` from the VOM cell): the mount a fire order uses."""
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
    return game.data.vehicles.get(vehicle.type)


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
    return game.data.orders.get(order)


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
        return homes[ch.id]
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


def vehicle_fire_solutions(
    game: GameContext,
    ch: Character,
    order: Order,
    weapons: list[CarriedWeapon],
    firer_mods: list[tuple[str, int]],
) -> list[combat.FireSolution]:
    """Fire solutions of ``ch``'s small arms at vehicles (C2 31.10, 31.10.1-31.10.3).

    One per (weapon, target vehicle) that :func:`is_vehicle_target` allows, in LOS and range,
    in a hex holding no man of the firer's side on foot; ``target`` is ``"vehicle:<id>"``.
    Modifiers: range, the firer's (``firer_mods``), smoke and Abbey on the line, night and
    weather as :func:`solo.rules.combat.fire_solution`, belt-fed MG without assistant, scope, and the
    target's speed (:func:`target_speed`) [house]. Weapons in roster order, vehicles in scenario order.
    """
    if ch.hex is None:
        return []
    out: list[combat.FireSolution] = []
    for vehicle in vehicles_of(game.state).values():
        if not is_vehicle_target(game, vehicle, ch):
            continue
        assert vehicle.hex is not None
        if _vehicle_at_hex_sides(game, vehicle.hex, ch.side):
            continue
        sight = game.sight(ch, vehicle.hex)
        if not sight.clear:
            continue
        for cw in weapons:
            w = game.data.weapons.get(cw.weapon)
            if not seat_may_fire(game, ch, w, vehicle.hex):
                continue
            sol = _small_arms_solution(game, ch, vehicle, cw, order, sight, firer_mods)
            if sol is not None:
                out.append(sol)
    return out


def _small_arms_solution(
    game: GameContext,
    ch: Character,
    vehicle: Vehicle,
    cw: CarriedWeapon,
    order: Order,
    sight: Sight,
    firer_mods: list[tuple[str, int]],
    *,
    assisted: bool | None = None,
) -> combat.FireSolution | None:
    assert ch.hex is not None and vehicle.hex is not None
    w = game.data.weapons.get(cw.weapon)
    rng = game.distance(ch.hex, vehicle.hex)
    band = w.band_modifier(rng)
    rof = w.rof_at(rng)
    if band is None or rof is None:
        return None
    mods: list[tuple[str, int]] = [
        ("range", band),
        *firer_mods,
        ("smoke", sight.smoke),
        ("abbey", sight.abbey),
    ]
    mods.extend(_night_weather(game, ch.hex, vehicle.hex, rng))
    if w.has_flag(WeaponFlag.BELT):
        has_mate = combat._assistant_present(game, ch) if assisted is None else assisted
        if not has_mate:
            mods.append(("no MG assistant", combat.BELT_WITHOUT_ASSISTANT))
    if order.has_flag(OrderFlag.TARGET_KNOWN_AT_IMPULSE_START):
        mods.append(("scope", w.aimed_modifier(rng)))
    mods.append(target_speed(game, vehicle))
    kept = tuple((k, v) for k, v in mods if v or k == "range")
    ws = ch.tq if w.ws_from_tq else cw.ws
    return combat.FireSolution(
        firer=ch.id,
        target=VEHICLE_TARGET + vehicle.id,
        weapon=w.id,
        range=rng,
        ws=ws,
        modifiers=kept,
        rof=rof,
        cell=None,
        chart_row=None,
        group=0,
        total=ws + sum(v for _, v in kept),
    )


def _night_weather(game: GameContext, frm: Hex, to: Hex, rng: int) -> list[tuple[str, int]]:
    """Night (§15) and weather (C2 28.1) fire modifiers beyond 2 hexes, as :mod:`solo.rules.combat`."""
    mods: list[tuple[str, int]] = []
    if rng > combat.CLOSE_RANGE:
        if game.scenario.night and not combat._lit(game, to):
            both_in = combat._is_building(game, frm) and combat._is_building(game, to)
            mods.append(("night", 0 if both_in else combat.NIGHT_FIRE))
        weather = combat.WEATHER_FIRE.get(game.state.weather, 0)
        if weather and not combat.same_building(game, frm, to):
            mods.append((f"weather {game.state.weather}", weather))
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


def _roll_hits(
    game: GameContext,
    firer: Character,
    weapon: Weapon,
    sol: combat.FireSolution,
    order: Order,
    on_hit: Any,
    *,
    assisted: bool | None,
    stop: Any,
) -> tuple[list[dict[str, Any]], AmmoState]:
    """The ROF rolls of one fire action (base-rules §10 as :func:`solo.rules.combat.resolve_fire`)."""
    ws = sol.total
    belt = weapon.has_flag(WeaponFlag.BELT)
    has_mate = (combat._assistant_present(game, firer) if assisted is None else assisted) if belt else False
    nines_needed = 2 if belt and has_mate else 1
    loses_ammo = not combat._never_loses_ammo(weapon)
    before = firer.ammo
    nines = 0
    rolls: list[dict[str, Any]] = []
    target = target_name(game, sol.target)
    for n in range(sol.rof):
        purpose = f"fire {n + 1}/{sol.rof}: {firer.name} -> {target} ({weapon.name}, modified WS {ws}) (13.0)"
        entry, hit, nines = combat.attack_roll(
            game,
            firer,
            ws,
            purpose,
            loses_ammo=loses_ammo,
            nines=nines,
            nines_needed=nines_needed,
            record_tqc=False,
        )
        rolls.append(entry)
        if hit:
            entry["effect"] = on_hit(entry["roll"])
            if entry["roll"] == 0:  # a natural-0 hit: +1 morale (base-rules §10)
                morale.change_morale(
                    game, firer, 1, combat.NATURAL_0_FIRE_CAP, "natural-0 hit", "base-rules §7"
                )
        if stop() or (loses_ammo and firer.ammo is AmmoState.NO):
            break
    return rolls, before


def resolve_fire_at_vehicle(
    game: GameContext,
    firer: Character,
    vehicle: Vehicle,
    sol: combat.FireSolution,
    order: Order,
    *,
    assisted: bool | None = None,
) -> None:
    """One small-arms fire action at a vehicle (C2 31.10.1-31.10.3; base-rules §10 rolls).

    Each ROF hit rolls a hit location on the aspect facing the firer and is resolved by
    :func:`hit_vehicle` (penetration for Half-Tracks and AFV armor, the Jeep/Truck tables, hatch
    and periscope hits...). A Suppressive Fire hit is an MC for each exposed occupant [house].
    Ammo as base-rules §10 (``assisted``: override the 14.3 assistant test). Alerts within 10
    hexes (alert 1). Emits one ``vehicle_fire`` event with the breakdown and every hit's report.
    """
    weapon = game.data.weapons.get(sol.weapon)
    strike = strike_of(game, weapon.id, Ordnance.SMALL_ARMS)
    spotting.reveal(game, firer, reason="fired", rule="base-rules §9.8")
    spotting.alert_around(game, firer.hex, 10, f"{firer.name} fired", "base-rules §5.6 alert 1")
    reports: list[dict[str, Any]] = []

    def on_hit(_roll: int) -> dict[str, Any]:
        if order.has_flag(OrderFlag.HITS_MORALE_ONLY):
            rep: dict[str, Any] = {"suppressive": True, "mcs": []}
            for c in _occupants(game, vehicle):
                if _buttoned(game, vehicle, c):
                    continue
                rep["mcs"].append(
                    crew_morale_check(
                        game, vehicle, c, f"Suppressive Fire at {vehicle.name}", "base-rules §10"
                    )
                )
        else:
            assert firer.hex is not None
            rep = hit_vehicle(game, vehicle, strike, from_hex=firer.hex, firer=firer)
        reports.append(rep)
        return rep

    rolls, ammo_before = _roll_hits(
        game, firer, weapon, sol, order, on_hit, assisted=assisted, stop=lambda: not vehicle.is_active
    )
    firer.acted.setdefault("fired", []).append(game.state.flow.impulse)
    shown = ", ".join(f"{r['roll']} {r['result']}" for r in rolls)
    text = (
        f"{firer.name} ({order.name}) fires the {weapon.name} at {vehicle.name} in {vehicle.hex} "
        f"({sol.range} hexes): {sol.breakdown()}; ROF {sol.rof}: {shown}."
    )
    for rep in reports:
        text += " " + report_text(rep)
    if firer.ammo is not ammo_before:
        text += f" Ammo {ammo_before.value} → {firer.ammo.value}."
    game.emit(
        "vehicle_fire",
        text,
        rule="C2 31.10, 31.10.1-31.10.3; base-rules §10",
        actor=firer.id,
        data={
            "firer": firer.id,
            "vehicle": vehicle.id,
            "weapon": weapon.id,
            "order": order.id,
            "range": sol.range,
            "ws": sol.ws,
            "modifiers": [[k, v] for k, v in sol.modifiers],
            "modified_ws": sol.total,
            "rof": sol.rof,
            "rolls": rolls,
            "hits": reports,
            "ammo_before": ammo_before.value,
            "ammo_after": firer.ammo.value,
        },
    )


def occupant_hit(
    game: GameContext, firer: Character, target: Character, *, morale_only: bool, why: str
) -> None:
    """A fire hit on an exposed occupant (C2 31.8, 31.10.31; base-rules §10).

    MC only (Suppressive, (M) cell) or a wound draw; a wounded or failing crewman with a closed
    hatch Panics, an exposed one Ducks Back, a Driver stops (31.2, 31.10.9); a crewman killed
    makes every other crewman take an MC (31.10.9), a passenger killed his neighbours (31.10.11).
    """
    vehicle = vehicle_of(game.state, target)
    if vehicle is None:
        return
    reason = f"hit by {firer.name}"
    if morale_only:
        crew_morale_check(game, vehicle, target, f"{reason}, {why}: MC only", "base-rules §10; C2 31.10.9")
        return
    ctx = _Hit(game, vehicle, strike_of(game, _first_weapon(game, firer), Ordnance.SMALL_ARMS), {}, firer)
    ctx.penetrated = True
    _wound_occupant(ctx, target, 1, reason)
    _run_checks(ctx)


def _first_weapon(game: GameContext, ch: Character) -> str:
    for cw in ch.weapons:
        if cw.weapon in game.data.weapons:
            return cw.weapon
    return "m1_garand"


# ---------------------------------------------------------------------------
# Crew morale (31.10.6, 31.10.9, 31.10.10)


def crew_reaction(game: GameContext, vehicle: Vehicle, ch: Character, reason: str, rule: str) -> str:
    """What a crewman or passenger does after failing an MC or being wounded (C2 31.2, 31.10.9).

    The Driver: Emergency Stop (``solo.enemy.crews.driver_emergency_stop`` when offered). An AFV
    crewman at an open hatch: Duck Back; inside the armor: Panic (his Target Marker removed).
    Passengers and the cupola: Panic. Other Jeep/Truck/Half-Track crew: Duck Back. Returns the
    order given.
    """
    vt = _vtype(game, vehicle)
    seat = ch.seat or ""
    if seat == "driver":
        _driver_stop(game, vehicle, ch, reason, rule)
        return "emergency_stop"
    if seat not in CREW_ORDER:
        return _panic(game, vehicle, ch, reason, rule)
    if _is_afv(vt) and not _hatch_open(vehicle, seat):
        return _panic(game, vehicle, ch, reason, rule)
    if ch.order is None or ch.order.order != "duck_back":
        game.set_order(ch, "duck_back", source=f"{reason} ({rule})")
        game.emit(
            "duck_back",
            f"{ch.name} ({vehicle.name}, {seat.replace('_', ' ')}) ducks back ({reason}).",
            rule=f"{rule}; C2 31.10.9",
            actor=ch.id,
            data={"character": ch.id, "vehicle": vehicle.id, "reason": reason},
        )
    return "duck_back"


def _panic(game: GameContext, vehicle: Vehicle, ch: Character, reason: str, rule: str) -> str:
    if ch.order is None or ch.order.order != "panic":
        game.set_order(ch, "panic", source=f"{reason} ({rule})")
        game.emit(
            "panic",
            f"{ch.name} ({vehicle.name}, {(ch.seat or '').replace('_', ' ')}) panics ({reason}).",
            rule=f"{rule}; C2 31.10.9, 31.11.2",
            actor=ch.id,
            data={"character": ch.id, "vehicle": vehicle.id, "reason": reason},
        )
    _clear_marker(game, vehicle, ch.seat, "Panic (31.7.4)")
    return "panic"


def _clear_marker(game: GameContext, vehicle: Vehicle, position: str | None, why: str) -> None:
    """Remove a seat's Target Marker (31.7.4): ``game.enemy.clear_marker`` for its occupant."""
    seat = vehicle.seats.get(position or "")
    if seat is None or seat.marker is None:
        return
    ch = game.state.characters.get(seat.occupant or "")
    if ch is not None:
        game.enemy.clear_marker(game, ch, why, "C2 31.7.4")
        return
    old = seat.marker
    seat.marker = None
    seat.marker_priority = None
    game.emit(
        "target_marker_removed",
        f"{vehicle.name}: the {(position or '').replace('_', ' ')} Target Marker on {old} is removed "
        f"({why}).",
        rule="C2 31.7.4",
        actor=seat.occupant,
        data={"vehicle": vehicle.id, "position": position, "hex": str(old), "reason": why},
    )


def _driver_stop(game: GameContext, vehicle: Vehicle, driver: Character, reason: str, rule: str) -> None:
    """The Driver takes Emergency Stop (C2 31.2 (2)-(3)).

    Through :func:`solo.rules.vehicles.emergency_stop.emergency_stop` (it also applies the 31.11.2 crew
    order retention).
    """
    vehicle.acted["speed"] = "emergency_stop"
    if driver.order is not None and driver.order.order == "emergency_stop":
        return

    emergency_stop.emergency_stop(game, vehicle, driver, reason=reason, rule=rule)


def crew_morale_check(
    game: GameContext,
    vehicle: Vehicle,
    ch: Character,
    reason: str,
    rule: str,
    *,
    penetrated: bool = True,
    ldr: int | None = None,
) -> dict[str, Any]:
    """An MC for a crewman or passenger (C2 31.10.6, 31.10.9); returns its record.

    A crewman inside the armor ignores MCs from non-penetrating fire. The target is his
    effective TQ + the Commander's LDR (``ldr``; None: :func:`commander_ldr` now, ``for_mc``);
    failing (his morale drops) gives :func:`crew_reaction`.
    """
    rec: dict[str, Any] = {"character": ch.id, "name": ch.name, "check": "mc"}
    if not penetrated and _buttoned(game, vehicle, ch):
        rec["ignored"] = "closed hatch, non-penetrating fire (31.10.6)"
        game.emit(
            "check_ignored",
            f"{ch.name} ({vehicle.name}) ignores the MC: his hatch is closed and the fire did not "
            f"penetrate ({reason}).",
            rule="C2 31.10.6",
            actor=ch.id,
            data={"character": ch.id, "reason": reason},
        )
        return rec
    if ldr is None:
        ldr = commander_ldr(game, vehicle, ch, for_mc=True)
    out = morale.check(game, ch, CheckKind.MC, modifier=ldr, purpose=f"{reason} (C2 31.10.9)")
    rec.update(
        roll=out.roll,
        target=out.target,
        ldr=ldr,
        result=out.result.value,
        morale=ch.morale.value,
        passed=out.morale_steps >= 0,
    )
    if out.morale_steps < 0:
        rec["reaction"] = crew_reaction(game, vehicle, ch, f"failed MC: {reason}", rule)
    return rec


def fire_morale_check(game: GameContext, vehicle: Vehicle, ch: Character, reason: str) -> dict[str, Any]:
    """A Fire Morale Check (C2 31.10.10), read like a WMC: 0 none, <= TQ -1, > TQ -2, natural 9 -3.

    No LDR (the vehicle is on fire, 31.10.9 iii). A loss gives :func:`crew_reaction`.
    """
    before = ch.morale
    out = morale.check(game, ch, CheckKind.WMC, purpose=f"Fire Morale Check: {reason} (C2 31.10.10)")
    rec: dict[str, Any] = {
        "character": ch.id,
        "name": ch.name,
        "check": "fmc",
        "roll": out.roll,
        "target": out.target,
        "result": out.result.value,
        "morale": ch.morale.value,
    }
    if ch.morale.rank > before.rank:
        rec["reaction"] = crew_reaction(game, vehicle, ch, f"Fire Morale Check: {reason}", "C2 31.10.10")
    return rec


# ---------------------------------------------------------------------------
# Hits on vehicles (31.10.3-31.10.11)


class _Hit:
    """The working record of one hit: who is killed, wounded and must check, and the report."""

    def __init__(
        self,
        game: GameContext,
        vehicle: Vehicle,
        strike: Strike,
        report: dict[str, Any],
        firer: Character | None,
    ) -> None:
        self.game = game
        self.vehicle = vehicle
        self.vt = _vtype(game, vehicle)
        self.strike = strike
        self.report = report
        self.firer = firer
        self.penetrated = False
        self.killed: list[str] = []
        self.wmc: set[str] = set()
        self.checks: list[tuple[str, str, str]] = []
        """(character id, "mc" | "fmc", reason) in order."""
        cmd = _active_occupant(game, vehicle, "commander")
        self.ldr_ok = cmd is not None and cmd.morale.rank <= MoraleState.NORMAL.rank
        """The Commander's morale allowed his LDR when the hit landed (C2 example of play: the
        Gunner "still receives +2" after the Commander failed his MC in the same hit)."""
        report.setdefault("notes", [])
        report.setdefault("kia", [])
        report.setdefault("wounded", [])
        report.setdefault("mcs", [])

    def note(self, text: str) -> None:
        self.report["notes"].append(text)

    @property
    def what(self) -> str:
        return f"{self.strike.name} ({self.strike.ordnance.value})"


def _grid(position: str) -> tuple[int, int] | None:
    """Row and side of a Jeep/Truck/Half-Track position (31.10.8 Passenger X, 31.10.11) [house row 0]."""
    if position == "driver":
        return (0, 0)
    if position == "co_driver":
        return (0, 1)
    if position.startswith("passenger_"):
        n = int(position.split("_")[1])
        return ((n + 1) // 2, 0 if n % 2 else 1)
    return None


def _opposite(vehicle: Vehicle, position: str) -> str | None:
    g = _grid(position)
    if g is None:
        return None
    for p in vehicle.seats:
        h = _grid(p)
        if h is not None and h[0] == g[0] and h[1] != g[1]:
            return p
    return None


def _adjacent(vehicle: Vehicle, position: str) -> list[str]:
    """Positions orthogonally or diagonally adjacent (C2 31.10.11: 5 → 3, 4, 6, 7, 8)."""
    g = _grid(position)
    if g is None:
        return []
    out = []
    for p in vehicle.seats:
        h = _grid(p)
        if h is not None and p != position and abs(h[0] - g[0]) <= 1 and abs(h[1] - g[1]) <= 1:
            out.append(p)
    return out


def _kill(ctx: _Hit, ch: Character, why: str) -> None:
    if not ch.on_map or ch.status is Status.DEAD:
        return
    wounds.kill(ctx.game, ch, reason=f"{why} ({ctx.vehicle.name})", rule="C2 31.10.8")
    _unseat_dead(ctx.game, ctx.vehicle, ch)
    ctx.killed.append(ch.id)
    ctx.report["kia"].append(ch.id)


def _unseat_dead(game: GameContext, vehicle: Vehicle, ch: Character) -> None:
    """A dead man's seat: a KIA marker, no occupant, no Target Marker; a dead Driver stops the vehicle."""
    seat = vehicle.seats.get(ch.seat or "")
    if seat is None or seat.occupant != ch.id:
        return
    seat.occupant = None
    seat.kia = True
    seat.marker = None
    seat.marker_priority = None
    if ch.seat == "driver":
        vehicle.acted["speed"] = "emergency_stop"
        game.emit(
            "emergency_stop",
            f"{vehicle.name}: the Driver is killed; the vehicle makes an Emergency Stop.",
            rule="C2 31.11.2 Emergency Stop",
            data={"vehicle": vehicle.id},
        )


def _after_wound(game: GameContext, vehicle: Vehicle, ch: Character, reason: str) -> None:
    """Seat bookkeeping and the crew's reaction after :func:`solo.rules.wounds.apply_wound` (31.10.9)."""
    if ch.status is Status.DEAD:
        _unseat_dead(game, vehicle, ch)
        return
    if not ch.is_active:
        return
    if ch.order is not None and ch.order.order == "duck_back":
        seat = ch.seat or ""
        vt = _vtype(game, vehicle)
        if seat == "driver" or seat not in CREW_ORDER or (_is_afv(vt) and not _hatch_open(vehicle, seat)):
            crew_reaction(game, vehicle, ch, reason, "C2 31.10.9")


def _wound_occupant(ctx: _Hit, ch: Character, draws: int, why: str) -> None:
    game = ctx.game
    for _ in range(draws):
        if not ch.is_active:
            break
        stamp = wounds.wound_draw(game, ch, firer=ctx.firer)
        wounds.apply_wound(game, ch, stamp, reason=f"{why} ({ctx.vehicle.name})")
        ctx.report["wounded"].append({"character": ch.id, "stamp": stamp.value})
        if stamp in (WoundStamp.LIGHT, WoundStamp.BAD):
            ctx.wmc.add(ch.id)
        _after_wound(game, ctx.vehicle, ch, why)
        if ch.status is Status.DEAD:
            ctx.killed.append(ch.id)
            ctx.report["kia"].append(ch.id)


def _queue(ctx: _Hit, checks: Iterable[CrewCheck], kind: str, reason: str) -> None:
    for c in checks:
        if c is CrewCheck.ALL:
            people = _crew(ctx.game, ctx.vehicle)
        elif c is CrewCheck.PASSENGERS:
            people = _passengers(ctx.game, ctx.vehicle)
        else:
            one = _active_occupant(ctx.game, ctx.vehicle, c.value)
            people = [one] if one is not None else []
        for ch in people:
            ctx.checks.append((ch.id, kind, reason))


def _run_checks(ctx: _Hit) -> None:
    """The MCs and FMCs of the hit, each man once per kind; deaths add MCs (31.10.9, 31.10.11)."""
    game, vehicle = ctx.game, ctx.vehicle
    crew_ids = {c.id for c in _crew(game, vehicle)}
    dead_crew = [cid for cid in ctx.killed if game.char(cid).seat in CREW_ORDER]
    if dead_crew:
        names = ", ".join(game.char(c).name for c in dead_crew)
        for c in _crew(game, vehicle):
            ctx.checks.append((c.id, "mc_death", f"{names} killed (31.10.9)"))
    if not _is_afv(ctx.vt):
        for cid in ctx.killed:
            dead = game.char(cid)
            for p in _adjacent(vehicle, dead.seat or ""):
                n = _active_occupant(game, vehicle, p)
                if n is not None and n.id not in crew_ids:
                    ctx.checks.append((n.id, "mc_death", f"{dead.name} killed beside him (31.10.11)"))
    done: set[tuple[str, str]] = set()
    for cid, kind, reason in ctx.checks:
        ch = game.char(cid)
        if not ch.is_active or ch.vehicle != vehicle.id:
            continue
        base = "fmc" if kind == "fmc" else "mc"
        if (cid, base) in done:
            continue
        done.add((cid, base))
        if base == "fmc":
            ctx.report["mcs"].append(fire_morale_check(game, vehicle, ch, reason))
            continue
        if cid in ctx.wmc:
            ctx.report["mcs"].append(
                {"character": cid, "name": ch.name, "check": "mc", "ignored": "took a WMC in this attack"}
            )
            continue
        penetrated = ctx.penetrated or kind == "mc_death"
        ctx.report["mcs"].append(
            crew_morale_check(
                game,
                vehicle,
                ch,
                f"{ctx.what} hit {vehicle.name}: {reason}",
                "C2 31.10.6",
                penetrated=penetrated,
                ldr=_ldr_for(ctx, ch),
            )
        )


def _ldr_for(ctx: _Hit, ch: Character) -> int:
    """The Commander's LDR for ``ch``'s MC in this hit (31.10.9, morale read when the hit landed)."""
    cmd = _active_occupant(ctx.game, ctx.vehicle, "commander")
    if not ctx.ldr_ok or cmd is None or ctx.vehicle.on_fire or (ch is cmd and not COMMANDER_OWN_LDR):
        return 0
    return cmd.ldr


def _destroyed_location(vehicle: Vehicle, row: HitLocation) -> bool:
    """A hatch or periscope already destroyed: re-roll the hit location (31.10.8)."""
    if row.crew is None:
        return False
    if row.location is Location.HATCH:
        seat = vehicle.seats.get(row.crew.value)
        return seat is not None and seat.hatch.is_jammed
    if row.location is Location.PERISCOPE:
        return f"periscope:{row.crew.value}" in vehicle.damage
    return False


def hit_vehicle(
    game: GameContext,
    vehicle: Vehicle,
    strike: Strike,
    *,
    from_hex: Hex | None,
    firer: Character | None = None,
    aspect: Arc | None = None,
) -> dict[str, Any]:
    """Resolve one hit on ``vehicle`` (C2 31.10.1-31.10.11); returns the report (no summary event).

    1. %D on the hit location table of the aspect facing ``from_hex`` (``arc_of`` of the hull;
       ``aspect`` overrides; the vehicle's own hex: Side [house]); a destroyed hatch or
       periscope is re-rolled (31.10.8).
    2. A row naming armor: the penetration roll (31.10.4) must EXCEED the zone's armor, its
       Glancing Blow value when the row says so (31.10.5); else no effect.
    3. A damage column: d10 → crew KIA, effects (catastrophic, engine/turret fire, immobilized,
       turret jammed, main gun destroyed), special location, re-roll on another column; else
       the 31.10.8 special location by weapon type and calibre.
    4. Morale: the row's MCs/FMCs, every crewman when a crewman dies (31.10.9), neighbours of
       a dead passenger (31.10.11); closed hatches ignore MCs from non-penetrating fire (31.10.6).

    Report keys: vehicle, weapon, ordnance, aspect, percent, location, row, armor_zone, armor,
    glancing, penetration {dice, faces, total}, penetrated, damage [{column, d10, ...}], effects,
    kia, wounded, mcs, notes.
    """
    vt = _vtype(game, vehicle)
    stagger = game.board.map.stagger
    if aspect is None:
        if from_hex is None or vehicle.hex is None or from_hex == vehicle.hex:
            aspect = Arc.SIDE
        else:
            aspect = arc_of(vehicle.hex, vehicle.facing, from_hex, stagger)
    report: dict[str, Any] = {
        "vehicle": vehicle.id,
        "weapon": strike.weapon,
        "ordnance": strike.ordnance.value,
        "aspect": aspect.value,
        "effects": [],
        "damage": [],
    }
    ctx = _Hit(game, vehicle, strike, report, firer)
    for _ in range(MAX_REROLLS):
        pct = game.dice.percent(
            f"hit location: {strike.name} -> {vehicle.name}, {aspect.value} (C2 31.10.3)"
        ).total
        row = hit_location(vt, aspect, pct)
        if not _destroyed_location(vehicle, row):
            break
        ctx.note(f"%D {pct:02d}: {row} already destroyed, re-rolled (31.10.8)")
    report["percent"] = pct
    report["location"] = str(row)
    report["row"] = {
        "rolls": row.rolls.format(2),
        "location": row.location.value,
        "crew": row.crew.value if row.crew else None,
        "passengers": list(row.passengers),
        "armor": row.armor.value if row.armor else None,
        "glancing": row.glancing,
        "damage": row.damage,
        "mc": [c.value for c in row.mc],
        "fmc": [c.value for c in row.fmc],
        "note": row.note,
    }
    if row.armor is not None and vt.kind.is_armored:
        if not _penetrate(ctx, row):
            _run_checks(ctx)
            return report
    else:
        ctx.penetrated = not vt.kind.is_armored
    _queue(ctx, row.mc, "mc", str(row))
    _queue(ctx, row.fmc, "fmc", str(row))
    if row.damage is not None:
        _damage(ctx, row.damage, 0)
    else:
        _special(ctx, row.location, row.crew, row.passengers)
    _run_checks(ctx)
    return report


def _penetrate(ctx: _Hit, row: HitLocation) -> bool:
    """31.10.4-31.10.5: the Penetration Number must exceed the armor (glancing value if so)."""
    assert row.armor is not None
    game, strike = ctx.game, ctx.strike
    value = armor_value(ctx.vt, row.armor, row.glancing)
    ctx.report["armor_zone"] = row.armor.value
    ctx.report["glancing"] = row.glancing
    ctx.report["armor"] = value
    if strike.penetration is None:
        ctx.report["penetrated"] = False
        ctx.note(f"the {strike.name} cannot penetrate armor: no effect (31.10.4)")
        return False
    roll = game.dice.roll(
        strike.penetration,
        f"penetration: {strike.name} vs {ctx.vehicle.name} {row.armor.value.replace('_', ' ')} "
        f"{'glancing ' if row.glancing else ''}armor {value} (C2 31.10.4)",
    )
    ok = roll.total > value
    ctx.penetrated = ok
    ctx.report["penetration"] = {"dice": strike.penetration, "faces": list(roll.faces), "total": roll.total}
    ctx.report["penetrated"] = ok
    if not ok:
        ctx.note("no effect (31.10.4)")
    return ok


def _damage(ctx: _Hit, column: str, depth: int) -> None:
    """A d10 on a damage column (31.10.8): KIA, effects, special location, re-roll."""
    game, vehicle = ctx.game, ctx.vehicle
    d10 = game.dice.d10(f"damage: {vehicle.name}, {column.replace('_', ' ')} column (C2 31.10.8)").total
    row = damage_row(ctx.vt, column, d10)
    ctx.report["damage"].append(
        {
            "column": column,
            "d10": d10,
            "rows": row.rolls.format(),
            "kia": [r.value for r in row.kia],
            "mc": [c.value for c in row.mc],
            "fmc": [c.value for c in row.fmc],
            "effects": [e.value for e in row.effects],
            "location": row.location.value if row.location else None,
            "reroll": row.reroll,
            "note": row.note,
        }
    )
    for role in row.kia:
        ch = _occupant(game, vehicle, role.value)
        if ch is not None:
            _kill(ctx, ch, f"{column.replace('_', ' ')} hit, d10 {d10}")
    _queue(ctx, row.mc, "mc", f"{column.replace('_', ' ')} d10 {d10}")
    _queue(ctx, row.fmc, "fmc", f"{column.replace('_', ' ')} d10 {d10}")
    for effect in row.effects:
        _effect(ctx, effect)
    if row.location is not None:
        _special(ctx, row.location, None, ())
    if row.reroll is not None and depth < 3:
        ctx.note(f"re-roll on the {row.reroll.replace('_', ' ')} column")
        _damage(ctx, row.reroll, depth + 1)


def _effect(ctx: _Hit, effect: DamageEffect) -> None:
    game, vehicle = ctx.game, ctx.vehicle
    ctx.report["effects"].append(effect.value)
    if effect is DamageEffect.DESTROYED:
        _destroy(ctx, "catastrophic hit")
    elif effect in (DamageEffect.ENGINE_FIRE, DamageEffect.TURRET_FIRE):
        _catch_fire(ctx, effect.value)
    elif effect is DamageEffect.IMMOBILIZED:
        _immobilize(ctx, "damage table")
    elif effect is DamageEffect.TURRET_JAMMED:
        _mark(vehicle, "turret_jammed")
        ctx.note("turret jammed: it may not turn for the rest of the game")
    elif effect is DamageEffect.MAIN_GUN_DESTROYED:
        _mark(vehicle, "main_gun_destroyed")
        vehicle.loaded = None
        ctx.note("main gun destroyed")
    game.emit(
        "vehicle_damage",
        f"{vehicle.name}: {effect.value.replace('_', ' ')}.",
        rule="C2 31.10.8",
        data={"vehicle": vehicle.id, "effect": effect.value},
    )


def _mark(vehicle: Vehicle, marker: str) -> None:
    if marker not in vehicle.damage:
        vehicle.damage.append(marker)


def _destroy(ctx: _Hit, why: str) -> None:
    """The vehicle is destroyed; every occupant still in it is killed [house for passengers]."""
    ctx.vehicle.destroyed = True
    ctx.vehicle.on_fire = False
    for p in list(ctx.vehicle.seats):
        ch = _occupant(ctx.game, ctx.vehicle, p)
        if ch is not None:
            _kill(ctx, ch, why)
    ctx.note(f"{ctx.vehicle.name} is destroyed ({why})")


def _catch_fire(ctx: _Hit, what: str) -> None:
    """Turret/Engine Fire (31.10.8): a Fire marker, an FMC for every crewman and passenger [house]."""
    vehicle = ctx.vehicle
    _mark(vehicle, what)
    if vehicle.on_fire:
        return
    vehicle.on_fire = True
    ctx.game.state.flags.setdefault(FIRE_STARTED, {})[vehicle.id] = ctx.game.state.flow.turn
    ctx.note(f"{what.replace('_', ' ')}: the vehicle burns; every occupant makes a Fire Morale Check")
    for ch in _occupants(ctx.game, vehicle):
        ctx.checks.append((ch.id, "fmc", what.replace("_", " ")))


def _immobilize(ctx: _Hit, why: str) -> None:
    """Immobilized: a damage marker; the Driver switches to Emergency Stop (31.2 (3))."""
    vehicle = ctx.vehicle
    if "immobilized" not in vehicle.damage:
        vehicle.damage.append("immobilized")
        ctx.note(f"immobilized ({why})")
    driver = _active_occupant(ctx.game, vehicle, "driver")
    if driver is not None:
        _driver_stop(ctx.game, vehicle, driver, f"{vehicle.name} immobilized", "C2 31.2 (3)")
    else:
        vehicle.acted["speed"] = "emergency_stop"


def _force(ctx: _Hit, flag: str, why: str) -> None:
    """A next-turn order for :mod:`solo.enemy.crews` (31.10.8): a ``force_*`` flag in ``vehicle.damage``.

    ``flag``: ``bail_out:crew``, ``bail_out:driver``, ``bail_out:passengers``, ``button_up:<position>``.
    """
    _mark(ctx.vehicle, f"force_{flag}")
    ctx.note(f"next turn: {flag.replace('_', ' ').replace(':', ' for the ')} ({why})")


def _special(ctx: _Hit, loc: Location, role: Role | None, passengers: tuple[int, ...]) -> None:
    """The 31.10.8 special locations, by weapon type (small arms, AP, HEAT, HE) and calibre."""
    s, game, vehicle = ctx.strike, ctx.game, ctx.vehicle
    o = s.ordnance
    cal = s.calibre or 0
    if loc is Location.HATCH and role is not None:
        _hatch_hit(ctx, role.value)
    elif loc is Location.PERISCOPE and role is not None:
        _mark(vehicle, f"periscope:{role.value}")
        ctx.note(f"{role.value.replace('_', ' ')}'s periscope destroyed: no spotting with the hatch closed")
        if role is Role.CO_DRIVER:
            _clear_marker(game, vehicle, "co_driver", "periscope destroyed (31.10.8)")
        if vehicle.side is Side.ENEMY:
            _force(ctx, f"button_up:{role.value}", "periscope destroyed (31.10.8)")
    elif loc is Location.GUNNER_SIGHT:
        _mark(vehicle, "gunner_sight")
        ctx.note(f"Gunner's sight destroyed: {GUNNER_SIGHT} to his spotting and to-hit rolls")
    elif loc is Location.TURRET_RING:
        if s.small_arms or (o is Ordnance.HE and cal <= 37):
            ctx.note("turret ring: no effect")
        else:
            d10 = game.dice.d10(f"turret ring hit on {vehicle.name} (C2 31.10.8)").total
            ctx.report["turret_ring"] = d10
            if d10 <= 4:
                ctx.note(f"turret ring d10 {d10}: turret blown off, all crew killed")
                for ch in _crew(game, vehicle):
                    _kill(ctx, ch, "turret blown off")
                _destroy(ctx, "turret blown off")
            elif d10 <= 8:
                _mark(vehicle, "turret_jammed")
                ctx.note(f"turret ring d10 {d10}: turret jammed")
            else:
                ctx.note(f"turret ring d10 {d10}: bounces off")
    elif loc is Location.GUN_BARREL:
        if s.small_arms:
            ctx.note("gun barrel: no effect")
        else:
            _mark(vehicle, "main_gun_destroyed")
            vehicle.loaded = None
            ctx.note("gun barrel hit: main gun destroyed")
    elif loc in (Location.COAXIAL_MG, Location.BOW_MG):
        if s.small_arms:
            ctx.note(f"{loc.value.replace('_', ' ')}: no effect")
        else:
            _mark(vehicle, f"{loc.value}_destroyed")
            ctx.note(f"{loc.value.replace('_', ' ')} destroyed")
    elif loc is Location.VISION_SLOT and role is not None:
        victims = ["driver", "co_driver"] if o is Ordnance.HE else [role.value]
        for p in victims:
            ch = _occupant(game, vehicle, p)
            if ch is not None:
                _kill(ctx, ch, f"shot through the {role.value.replace('_', ' ')}'s vision slot")
        _queue(ctx, (CrewCheck.ALL,), "mc", "vision slot")
    elif loc is Location.SUSPENSION:
        if s.small_arms:
            ctx.note("suspension: no effect")
        elif o is Ordnance.HEAT or (o is Ordnance.AP and cal >= 50) or (o is Ordnance.HE and cal >= 75):
            _immobilize(ctx, "suspension")
        else:
            d10 = game.dice.d10(f"suspension hit on {vehicle.name}, small calibre (C2 31.10.8)").total
            if d10 <= 4:
                _immobilize(ctx, f"suspension, d10 {d10}")
            else:
                ctx.note(f"suspension d10 {d10}: no effect")
    elif loc is Location.TRACK:
        _track_hit(ctx)
    elif loc is Location.WHEEL:
        _wheel_hit(ctx, "wheel")
    elif loc in (Location.HEADLIGHT_LEFT, Location.HEADLIGHT_RIGHT):
        _mark(vehicle, loc.value)
        ctx.note(f"{loc.value.replace('_', ' ')} out")
        if not (s.small_arms or (o is Ordnance.AP and cal <= 37)):
            _wheel_hit(ctx, "headlight and wheel")
    elif loc is Location.CUPOLA:
        _cupola_hit(ctx)
    elif loc is Location.PASSENGER and passengers:
        _seat_hit(ctx, f"passenger_{passengers[0]}")
    elif loc is Location.CREW and role is not None:
        _seat_hit(ctx, role.value)
    elif loc is Location.BETWEEN_PASSENGERS and len(passengers) == 2:
        _between_hit(ctx, f"passenger_{passengers[0]}", f"passenger_{passengers[1]}")
    else:
        ctx.note(f"{loc.value.replace('_', ' ')}: no effect")


def _hatch_hit(ctx: _Hit, position: str) -> None:
    """31.10.8 Hatches: open (a man out of it is hit) or closed (jammed by AP, HEAT, HE)."""
    game, vehicle, o = ctx.game, ctx.vehicle, ctx.strike.ordnance
    seat = vehicle.seats.get(position)
    if seat is None:
        return
    who = _active_occupant(game, vehicle, position)
    where = f"{position.replace('_', ' ')}'s hatch"
    if seat.hatch.is_open:
        if o is Ordnance.SMALL_ARMS:
            if who is not None and not _hidden(who):
                ctx.note(f"{where} (open): {who.name} is hit")
                _wound_occupant(ctx, who, 1, f"hit at the {where}")
            else:
                ctx.note(f"{where} (open): no one exposed")
        elif who is not None and (o is Ordnance.HE or not _hidden(who)):
            ctx.note(f"{where} (open): {who.name} is killed")
            _kill(ctx, who, f"hit at the {where}")
        else:
            seat.hatch = Hatch.JAMMED_OPEN
            ctx.note(f"{where} (open) destroyed: it can never be closed")
    elif o is Ordnance.SMALL_ARMS:
        ctx.note(f"{where} (closed): no effect")
    else:
        seat.hatch = Hatch.JAMMED_CLOSED
        ctx.note(f"{where} destroyed and jammed closed: it can never be opened")


def _track_hit(ctx: _Hit) -> None:
    """31.10.8 Track: immobilized by AP >=37mm, HEAT, any HE; the crew may have to bail out."""
    game, vehicle, s = ctx.game, ctx.vehicle, ctx.strike
    if s.small_arms or (s.ordnance is Ordnance.AP and (s.calibre or 0) < 37):
        ctx.note("track: no effect")
        return
    _immobilize(ctx, "track")
    if ctx.vt.kind is VehicleKind.HALF_TRACK:
        _force(ctx, "bail_out:driver", "track hit (31.10.8)")
        _force(ctx, "bail_out:passengers", "track hit (31.10.8)")
        return
    cmd = _active_occupant(game, vehicle, "commander")
    if cmd is None:
        return
    out = morale.check(game, cmd, CheckKind.TQC, purpose="track hit: does the crew stay? (C2 31.10.8)")
    ctx.report["track_tqc"] = {"roll": out.roll, "target": out.target, "passed": out.passed}
    if out.passed:
        ctx.note(f"track: Commander's TQC {out.roll} vs {out.target} passed: orders as normal next turn")
    else:
        _force(ctx, "bail_out:crew", "track hit, Commander's TQC failed (31.10.8)")


def _wheel_hit(ctx: _Hit, what: str) -> None:
    """31.10.8 Wheel: immobilized; next turn Enemy Drivers and passengers Bail Out."""
    _immobilize(ctx, what)
    if ctx.vehicle.side is Side.ENEMY:
        _force(ctx, "bail_out:driver", f"{what} hit (31.10.8)")
        _force(ctx, "bail_out:passengers", f"{what} hit (31.10.8)")


def _cupola_hit(ctx: _Hit) -> None:
    """31.10.8 Cupola [Half-Tracks]."""
    s, game, vehicle = ctx.strike, ctx.game, ctx.vehicle
    who = _active_occupant(game, vehicle, "cupola")
    cal = s.calibre or 0
    if s.small_arms:
        ctx.note("cupola: no effect (fire at its occupant individually)")
    elif s.ordnance is Ordnance.HE and cal >= 75:
        _mark(vehicle, "cupola_destroyed")
        ctx.note("cupola destroyed")
        if who is not None:
            _kill(ctx, who, "cupola destroyed")
    elif (s.ordnance is Ordnance.AP and cal <= 37) or s.ordnance is Ordnance.HE:
        if who is not None:
            _wound_occupant(ctx, who, 3, "cupola hit")
    elif who is not None:
        _kill(ctx, who, "cupola hit")


def _seat_hit(ctx: _Hit, position: str) -> None:
    """31.10.8 Passenger X (and Jeep/Truck/Half-Track crew, [house])."""
    game, vehicle, o = ctx.game, ctx.vehicle, ctx.strike.ordnance
    who = _active_occupant(game, vehicle, position)
    opp = _opposite(vehicle, position)
    other = _active_occupant(game, vehicle, opp) if opp else None
    label = position.replace("_", " ")
    if o is Ordnance.SMALL_ARMS:
        victim = who or other
        if victim is None:
            ctx.note(f"{label} and the position opposite are empty: no effect")
        else:
            _wound_occupant(ctx, victim, 1, f"hit in the {label} position")
    elif o is Ordnance.AP:
        if who is not None:
            _kill(ctx, who, f"AP round in the {label} position")
        if other is not None:
            _wound_occupant(ctx, other, 1, f"AP round in the {label} position")
        for p in _adjacent(vehicle, position):
            n = _active_occupant(game, vehicle, p)
            if n is not None and p != opp:
                ctx.checks.append((n.id, "mc", f"AP round in the {label} position"))
    else:
        if who is not None:
            _kill(ctx, who, f"{o.value.upper()} round in the {label} position")
        for p in _adjacent(vehicle, position):
            n = _active_occupant(game, vehicle, p)
            if n is not None:
                _wound_occupant(ctx, n, 1, f"{o.value.upper()} round beside him")


def _between_hit(ctx: _Hit, x: str, y: str) -> None:
    """31.10.8 Between Passengers X and Y."""
    game, vehicle, o = ctx.game, ctx.vehicle, ctx.strike.ordnance
    a, b = _active_occupant(game, vehicle, x), _active_occupant(game, vehicle, y)
    label = f"between {x.replace('_', ' ')} and {y.replace('_', ' ')}"
    if o is Ordnance.SMALL_ARMS:
        for ch in (a, b):
            if ch is not None:
                ctx.checks.append((ch.id, "mc", f"round {label}"))
    elif o is Ordnance.AP:
        positions = [x, y, *(p for p in (_opposite(vehicle, x), _opposite(vehicle, y)) if p)]
        for p in dict.fromkeys(positions):
            ch = _active_occupant(game, vehicle, p)
            if ch is not None:
                _wound_occupant(ctx, ch, 1, f"AP round {label}")
    else:
        for ch in (a, b):
            if ch is not None:
                _kill(ctx, ch, f"{o.value.upper()} round {label}")
        near = [p for p in dict.fromkeys([*_adjacent(vehicle, x), *_adjacent(vehicle, y)]) if p not in (x, y)]
        for p in near:
            ch = _active_occupant(game, vehicle, p)
            if ch is not None:
                _wound_occupant(ctx, ch, 1, f"{o.value.upper()} round {label}")


def report_text(report: dict[str, Any]) -> str:
    """Plain words for a :func:`hit_vehicle` report (for the summary event)."""
    if report.get("suppressive"):
        return "Suppressive hit: MCs for the exposed occupants."
    parts = [f"%D {report.get('percent', 0):02d} ({report.get('aspect')}): {report.get('location')}."]
    if "armor" in report:
        pen = report.get("penetration")
        glancing = "glancing " if report.get("glancing") else ""
        zone = str(report.get("armor_zone", "")).replace("_", " ")
        if pen is not None:
            verdict = "penetrates" if report.get("penetrated") else "does not penetrate"
            parts.append(
                f"Penetration {pen['dice']} = {pen['total']} vs {zone} {glancing}armor "
                f"{report['armor']}: {verdict}."
            )
    for d in report.get("damage", ()):
        bits = [f"Damage d10 {d['d10']} on the {d['column'].replace('_', ' ')} column"]
        if d["kia"]:
            bits.append("KIA " + ", ".join(d["kia"]))
        if d["effects"]:
            bits.append(", ".join(e.replace("_", " ") for e in d["effects"]))
        if d["mc"]:
            bits.append("MC " + "/".join(d["mc"]))
        if d["note"]:
            bits.append(d["note"])
        parts.append("; ".join(bits) + ".")
    for n in report.get("notes", ()):
        parts.append(n[0].upper() + n[1:] + ".")
    mcs = []
    for m in report.get("mcs", ()):
        if "ignored" in m:
            mcs.append(f"{m['name']} ignores it ({m['ignored']})")
        else:
            verdict = "passes" if m.get("passed", True) and "reaction" not in m else "fails"
            extra = f", {m['reaction'].replace('_', ' ')}" if "reaction" in m else ""
            mcs.append(f"{m['name']} {m['check'].upper()} {m['roll']} vs {m['target']} {verdict}{extra}")
    if mcs:
        parts.append("Checks: " + "; ".join(mcs) + ".")
    return " ".join(parts)


# ---------------------------------------------------------------------------
# Observed targets (31.7.3) and the main gun (31.9.4 d)


def _observed(game: GameContext, vehicle: Vehicle, position: str) -> tuple[list[Character], list[Vehicle]]:
    """The Observed Targets of ``position`` (31.7.3): characters and vehicles.

    Through ``game.enemy.observed_targets(game, vehicle, seat)`` (characters, vehicles or their
    ids).
    """
    chars: list[Character] = []
    vehs: list[Vehicle] = []
    for item in game.enemy.observed_targets(game, vehicle, position) or ():
        if isinstance(item, Vehicle):
            vehs.append(item)
        elif isinstance(item, Character):
            chars.append(item)
        elif isinstance(item, str) and item in vehicles_of(game.state):
            vehs.append(vehicles_of(game.state)[item])
        elif isinstance(item, str) and item in game.state.characters:
            chars.append(game.state.characters[item])
    return chars, vehs


def _loaded_at_start(game: GameContext, vehicle: Vehicle) -> bool:
    """The main gun was loaded at the START of this Impulse (31.11.2): ``solo.rules.vehicles.crew``'s record
    ``vehicle.acted["impulse_start"] = (turn, impulse, round)`` when it has one, else not loaded
    during it (``vehicle.acted["loaded_impulse"]``)."""
    flow = game.state.flow
    rec = vehicle.acted.get("impulse_start")
    if isinstance(rec, tuple | list) and len(rec) == 3 and (rec[0], rec[1]) == (flow.turn, flow.impulse):
        return rec[2] is not None and vehicle.loaded is not None
    return vehicle.loaded is not None and vehicle.acted.get("loaded_impulse") != flow.impulse


@attrs.frozen
class GunShot:
    """A main gun or Light AT shot: at a vehicle or a hex, with the terms of its modified number."""

    key: str
    """``"vehicle:<id>"`` or ``"hex:CC.RR"``."""
    hex: Hex
    range: int
    terms: tuple[tuple[str, int], ...]
    """(name, value), the first being the base TQ."""
    aspect: Arc | None
    """The aspect hit (vehicle targets)."""
    targets: int
    """Characters in the hex (hex targets)."""

    @property
    def total(self) -> int:
        """The modified TQ to roll under."""
        return sum(v for _, v in self.terms)

    def breakdown(self) -> str:
        """``TQ 5 +2 side -1 range = 6``."""
        return f"{_terms_text(list(self.terms))} = {self.total}"


def _main_gun_shots(game: GameContext, vehicle: Vehicle, gunner: Character) -> list[GunShot]:
    """The Gunner's legal shots (31.9.4 d): Observed Targets in LOS, range and the turret's front arc."""
    vt = _vtype(game, vehicle)
    mg = vt.main_gun
    if mg is None or vehicle.hex is None or vehicle.loaded is None:
        return []
    weapon = game.data.weapons.get(mg.weapon)
    stagger = game.board.map.stagger
    turret = vehicle.turret if vehicle.turret is not None else vehicle.facing
    chars, vehs = _observed(game, vehicle, "gunner")
    base = _gun_terms(game, vehicle, gunner, ldr=False)
    if "gunner_sight" in vehicle.damage:
        base.append(("Gunner's sight", GUNNER_SIGHT))
    shots: list[GunShot] = []
    for v in vehs:
        if not v.is_active or v.hex is None or v.hex == vehicle.hex:
            continue
        if arc_of(vehicle.hex, turret, v.hex, stagger) is not Arc.FRONT:
            continue
        sight = game.sight(gunner, v.hex)
        rng = game.distance(vehicle.hex, v.hex)
        band = weapon.band_modifier(rng)
        if not sight.clear or band is None:
            continue
        aspect = arc_of(v.hex, v.facing, vehicle.hex, stagger)
        terms = [("Gunner's TQ", gunner.effective_tq), (f"{aspect.value} aspect", ASPECT_MODIFIER[aspect])]
        terms += base
        if LDR_ON_VEHICLE_TO_HIT:
            terms.append(("Commander's LDR", commander_ldr(game, vehicle, gunner, for_mc=False)))
        terms += [target_speed(game, v), ("range", band), ("smoke", sight.smoke)]
        terms += _night_weather(game, vehicle.hex, v.hex, rng)
        kept = tuple((k, n) for k, n in terms if n or k in ("range", "Gunner's TQ"))
        shots.append(GunShot(VEHICLE_TARGET + v.id, v.hex, rng, kept, aspect, 0))
    if vehicle.loaded.value != "he":
        return shots
    hexes: dict[Hex, int] = {}
    for c in chars:
        if c.hex is None or c.vehicle is not None or c.hex == vehicle.hex:
            continue
        hexes[c.hex] = hexes.get(c.hex, 0) + 1
    hex_terms = [("Gunner's TQ", gunner.effective_tq), *_gun_terms(game, vehicle, gunner, ldr=True)]
    if "gunner_sight" in vehicle.damage:
        hex_terms.append(("Gunner's sight", GUNNER_SIGHT))
    for h, n in hexes.items():
        if arc_of(vehicle.hex, turret, h, stagger) is not Arc.FRONT:
            continue
        rng = game.distance(vehicle.hex, h)
        if not game.sight(gunner, h).clear or weapon.band_modifier(rng) is None:
            continue
        kept = tuple((k, v) for k, v in hex_terms if v or k == "Gunner's TQ")
        shots.append(GunShot(HEX_TARGET + str(h), h, rng, kept, None, n))
    return shots


def _enemy_gun_pick(
    game: GameContext, who: Character, shots: list[GunShot], marker: Hex | None, why: str
) -> GunShot:
    """Enemy crews: a vehicle first (31.7.4 priority 1), the best modified TQ, then nearest; else the
    hex with most characters, the Target Marker's hex, nearest; then a logged random pick [house]."""
    vehs = [s for s in shots if s.key.startswith(VEHICLE_TARGET)]
    if vehs:
        best = max(s.total for s in vehs)
        pool = [s for s in vehs if s.total == best]
    else:
        most = max(s.targets for s in shots)
        pool = [s for s in shots if s.targets == most]
        if marker is not None and any(s.hex == marker for s in pool):
            pool = [s for s in pool if s.hex == marker]
    near = min(s.range for s in pool)
    pool = [s for s in pool if s.range == near]
    if len(pool) == 1:
        return pool[0]
    pick = game.dice.choice([target_name(game, s.key) for s in pool], f"{who.name}: {why} among equals")
    return pool[pick.index]


def fire_main_gun(game: GameContext, vehicle: Vehicle, gunner: Character) -> Generator[Decision, str, None]:
    """The Gunner's Fire Main Gun action this Impulse (C2 31.6, 31.9.4 d, 31.11.2).

    Impulses 2-4 only. Needs a main gun that is not destroyed, loaded at the START of the
    Impulse (``vehicle.acted["loaded_impulse"]``), a turret that did not turn this Impulse, a
    speed other than Fast, and an Observed Target (31.7.3) in LOS, range and the turret's
    front arc (``arc_of(vehicle.hex, vehicle.turret, hex) is FRONT``). A Friendly Gunner picks
    the target or holds (``FIRE_TARGET``: ``vehicle:<id>``, ``hex:CC.RR``, ``hold``); an Enemy
    one by :func:`_enemy_gun_pick`. On Impulses 2-3 a TQC (TQ + Commander's LDR - 2 out of
    position) is needed to fire (failure: no penalty); on Impulse 4 he fires automatically.
    AP/HE at a vehicle: d10 <= TQ + aspect (+2 side, +1 front/rear) + Direct Firing + own speed
    + target speed + range band (+ smoke, night, weather, Gunner's sight, morale) hits → :func:`hit_vehicle`.
    HE at a hex: :func:`he_at_hex` with TQ + Direct Firing + speed + Commander's LDR.
    The gun is then unloaded (``vehicle.loaded = None``). Emits one ``main_gun_fire`` event.
    """
    imp = game.state.flow.impulse
    rule = "C2 31.9.4 d, 31.11.2"

    def no(why: str) -> None:
        game.emit(
            "main_gun_fire",
            f"{gunner.name} ({vehicle.name}) does not fire the main gun: {why}.",
            rule=rule,
            actor=gunner.id,
            data={"vehicle": vehicle.id, "fired": False, "reason": why},
        )

    if imp not in (2, 3, 4) or not gunner.is_active or not vehicle.is_active:
        return
    vt = _vtype(game, vehicle)
    if vt.main_gun is None:
        return no("the vehicle has no main gun")
    if "main_gun_destroyed" in vehicle.damage:
        return no("the main gun is destroyed")
    if not _loaded_at_start(game, vehicle):
        return no("the gun was not loaded at the start of the Impulse")
    if vehicle.acted.get("turret_turned") == imp:
        return no("the turret turned this Impulse (31.6)")
    if speed_fire_modifier(game, vehicle) is None:
        return no("the vehicle moves Fast: no fire (31.11.2)")
    shots = _main_gun_shots(game, vehicle, gunner)
    if not shots:
        return no("no Observed Target in LOS and range in the turret's front arc")
    seat = vehicle.seats.get("gunner")
    if gunner.side is Side.FRIENDLY:
        from solo.core.decisions import DecisionKind

        options = [(s.key, f"{target_name(game, s.key)} ({s.range} hexes, {s.breakdown()})") for s in shots]
        key = yield game.decision(
            DecisionKind.FIRE_TARGET,
            f"{gunner.name} ({vehicle.name}, {vehicle.loaded.value.upper() if vehicle.loaded else ''}): "
            "fire at",
            [*options, ("hold", "Hold fire")],
            actor=gunner.id,
        )
        if key == "hold":
            return no("the player holds fire")
        shot = next(s for s in shots if s.key == key)
    else:
        shot = _enemy_gun_pick(game, gunner, shots, seat.marker if seat else None, "main gun target")
    if imp in (2, 3):
        mod = commander_ldr(game, vehicle, gunner, for_mc=False)
        if out_of_position(game, vehicle, gunner):
            mod += OUT_OF_POSITION
        tqc = morale.check(
            game, gunner, CheckKind.TQC, modifier=mod, purpose="fire the main gun? (C2 31.11.2)"
        )
        if not tqc.passed:
            return no(f"TQC {tqc.roll} vs {tqc.target} failed (no penalty)")
    assert vehicle.loaded is not None
    ammo = Ordnance(vehicle.loaded.value)
    strike = strike_of(game, vt.main_gun.weapon, ammo)
    assert vehicle.hex is not None
    data: dict[str, Any] = {
        "vehicle": vehicle.id,
        "fired": True,
        "gunner": gunner.id,
        "ammo": ammo.value,
        "target": shot.key,
        "range": shot.range,
        "terms": [list(t) for t in shot.terms],
        "modified_tq": shot.total,
        "automatic": imp == 4,
    }
    v = target_vehicle(game, shot.key)
    if v is not None:
        roll = game.dice.d10(
            f"main gun: {gunner.name} ({vehicle.name}) -> {v.name}, {ammo.value.upper()} "
            f"(modified TQ {shot.total}) (C2 31.9.4 d i)"
        ).total
        hit = roll_result(roll, shot.total).passed
        data.update(roll=roll, hit=hit)
        text = (
            f"{gunner.name} ({vehicle.name}) fires {ammo.value.upper()} at {v.name} in {v.hex} "
            f"({shot.range} hexes, {shot.aspect.value if shot.aspect else ''}): {shot.breakdown()}; "
            f"d10 {roll} → {'hit' if hit else 'miss'}."
        )
        if hit:
            rep = hit_vehicle(game, v, strike, from_hex=vehicle.hex, firer=gunner, aspect=shot.aspect)
            data["hit_report"] = rep
            text += " " + report_text(rep)
    else:
        rep = he_at_hex(game, gunner, shot.hex, shot.total, strike, vehicle_hex=vehicle.hex)
        data["he"] = rep
        text = (
            f"{gunner.name} ({vehicle.name}) fires HE at {shot.hex} ({shot.range} hexes): "
            f"{shot.breakdown()}; {rep['text']}"
        )
    vehicle.loaded = None
    vehicle.acted["fired_impulse"] = imp
    spotting.alert_around(
        game, vehicle.hex, 10, f"{vehicle.name} fired its main gun", "base-rules §5.6 alert 1"
    )
    game.emit("main_gun_fire", text, rule=rule + ", 31.10", actor=gunner.id, data=data)


def he_at_hex(
    game: GameContext,
    firer: Character,
    target_hex: Hex,
    modified_tq: int,
    strike: Strike,
    *,
    vehicle_hex: Hex | None = None,
) -> dict[str, Any]:
    """An HE round fired at a hex (C2 31.9.4 d ii); returns the report (``text`` + details).

    d10 against ``modified_tq``: 9 → scatter 1d6 hexes' direction; characters in the new hex are
    hit as for a successful roll. 0..TQ → a hit: the characters in the hex in a random order
    (logged picks), the first rolling as many d10 as the weapon's Frag rating, each further one
    one die fewer (C2 example of play: Frag 4 dice, then 3); each die hits on <= the Blast rating +
    the target's fire-chart cell (terrain/order); each hit is a wound draw. Over the TQ: the
    round lands in the hex and hits nobody. Either way everyone on foot in or adjacent to the
    landing hex takes an MC (Duck Back if it fails, 31.9.4 IMPORTANT). Alerts within 3 hexes.
    """
    w = game.data.weapons.get(strike.weapon)
    try:
        he = w.ammo_of(AmmoKind.HE)
        blast, frag = he.blast or 0, he.frag or 0
    except KeyError:
        blast, frag = 0, 0
    roll = game.dice.d10(
        f"HE at {target_hex}: {firer.name} (modified TQ {modified_tq}) (C2 31.9.4 d ii)"
    ).total
    rep: dict[str, Any] = {"hex": str(target_hex), "roll": roll, "blast": blast, "frag": frag, "targets": []}
    landing: Hex | None = target_hex
    hit = False
    if roll == 9:
        d = game.dice.d6(f"HE scatter from {target_hex} (C2 31.9.4 d ii)").total
        landing = game.board.neighbour_hex(target_hex, d)
        rep["scatter"] = d
        rep["landed"] = str(landing) if landing else None
        occupied = landing is not None and any(
            c.vehicle is None and not c.dummy for c in game.state.at(landing)
        )
        hit = occupied
        words = (
            f"d10 9: scatters in direction {d} to {landing}"
            + (", which holds characters: hit as a successful roll" if occupied else "")
            if landing is not None
            else f"d10 9: scatters in direction {d} off the map"
        )
    elif roll_result(roll, modified_tq).passed:
        hit = True
        words = f"d10 {roll} → a hit on {target_hex}"
    else:
        words = f"d10 {roll} → lands in {target_hex} but hits nobody"
    rep["hit"] = hit
    if hit and landing is not None:
        rep["targets"] = _blast_dice(game, firer, landing, frag, blast, f"HE on {landing}")
        for t in rep["targets"]:
            words += f"; {t['name']} {t['dice']} dice at {t['target']}: {t['faces']} → {t['hits']} hit(s)"
    rep["mcs"] = []
    if landing is not None:
        for x in [landing, *(n for _d, n in _around(game, landing))]:
            for c in game.state.at(x):
                if not c.is_active or c.dummy or c.vehicle is not None:
                    continue
                out = morale.morale_check(game, c, f"HE explodes on {landing}", "C2 31.9.4 d ii")
                rep["mcs"].append(
                    {"character": c.id, "roll": out.roll, "target": out.target, "result": out.result.value}
                )
        spotting.alert_around(game, landing, 3, f"HE explodes on {landing}", "base-rules §5.6 alert 3")
    rep["text"] = words + (f"; {len(rep['mcs'])} blast MC(s)." if rep["mcs"] else ".")
    return rep


def _around(game: GameContext, h: Hex) -> list[tuple[int, Hex]]:
    out = []
    for d in range(1, 7):
        n = game.board.neighbour_hex(h, d)
        if n is not None:
            out.append((d, n))
    return out


def _blast_dice(
    game: GameContext, firer: Character, h: Hex, dice: int, blast: int, what: str
) -> list[dict[str, Any]]:
    """C2 31.9.4 d ii and the example of play: targets in random order, Frag dice less one each."""
    people = [c for c in game.state.at(h) if c.vehicle is None]
    for c in list(people):
        spotting.reveal(game, c, reason=f"{what}", rule="C2 31.9.4 d ii")
    people = [c for c in game.state.at(h) if c.vehicle is None and not c.dummy]
    out: list[dict[str, Any]] = []
    k = 0
    while people:
        pick = game.dice.choice(
            [c.name for c in people], f"{what}: target {k + 1} at random (C2 31.9.4 d ii)"
        )
        t = people.pop(pick.index)
        n = max(0, dice - k)
        k += 1
        cell, row, group = combat.fire_cell(game, firer, t)
        target = blast + cell.modifier
        faces = [game.dice.d10(f"{what}: die {i + 1}/{n} for {t.name} (<= {target})").total for i in range(n)]
        hits = sum(1 for f in faces if roll_result(f, target).passed)
        rec = {
            "character": t.id,
            "name": t.name,
            "dice": n,
            "target": target,
            "cell": cell.modifier,
            "row": row,
            "group": group,
            "faces": faces,
            "hits": hits,
        }
        out.append(rec)
        for _ in range(hits):
            if not t.on_map or not t.is_active:
                break
            stamp = wounds.wound_draw(game, t, firer=firer)
            wounds.apply_wound(game, t, stamp, reason=what)
    return out


# ---------------------------------------------------------------------------
# Vehicle machine guns (31.9.4 b, c; pintle MGs)


def _mount_for(
    game: GameContext, vehicle: Vehicle, ch: Character, wanted: str | None
) -> VehicleWeapon | None:
    vt = _vtype(game, vehicle)
    for w in vt.weapons:
        if w.id is MountId.MAIN_GUN or ch.seat not in w.fired_by:
            continue
        if wanted is None or w.id.value == wanted:
            return w
    return None


def fire_vehicle_mg(
    game: GameContext, vehicle: Vehicle, ch: Character, order: Order | str, mount: str | None = None
) -> Generator[Decision, str, None]:
    """A crewman fires a vehicle MG under a fire order (C2 31.9.4 b, c; pintle MGs 31.9.1, 31.9.3).

    The mount is ``mount`` (``"bow_mg"``...), else ``ch.acted["vehicle_weapon"]`` (the VOM cell's
    weapon), else the order's ``target`` if it names a mount, else the first MG the seat fires.
    Only on the order's F steps; not when moving Fast, nor a coaxial MG when the turret turned
    this Impulse (31.6), nor a destroyed MG. WS = the firer's TQ (31.9.4 b/c) + speed + Direct
    Firing - 2 out of position (- 4 for the coaxial with a destroyed Gunner's sight) + the usual modifiers of
    :func:`solo.rules.combat.fire_solution`. Bow and pintle MGs have no assistant (-3, a single 9 for
    Low Ammo); the coaxial is assisted by the Loader [house]. Targets: AFV crews fire only at
    Observed Targets (31.7.3) of their own Target Marker; others at any Known/Spotted opponent in
    LOS; all inside the mount's arc (turret mounts turn with the turret). Vehicles that
    :func:`is_vehicle_target` allows may be targets. Friendly: ``FIRE_TARGET`` decision.
    """
    o = _order_of(game, order)
    imp = game.state.flow.impulse
    if o is None or o.ws_modifier is None or not ch.is_active or vehicle.hex is None:
        return
    if o.track(imp) is not TrackStep.FIRE:
        return
    if mount is None:
        mount = ch.acted.get(MOUNT_KEY)
    if mount is None and ch.order is not None and ch.order.target in MountId._value2member_map_:
        mount = ch.order.target
    vw = _mount_for(game, vehicle, ch, mount)

    def no(why: str) -> None:
        game.emit(
            "no_fire",
            f"{ch.name} ({vehicle.name}) does not fire the MG: {why}.",
            rule="C2 31.9.4",
            actor=ch.id,
            data={"vehicle": vehicle.id, "reason": why},
        )

    if vw is None:
        return no("his position has no MG")
    if f"{vw.id.value}_destroyed" in vehicle.damage:
        return no(f"the {vw.id.value.replace('_', ' ')} is destroyed")
    if speed_fire_modifier(game, vehicle) is None:
        return no("the vehicle moves Fast (31.11.2)")
    if vw.mount.value == "turret" and vehicle.acted.get("turret_turned") == imp:
        return no("the turret turned this Impulse (31.6)")
    vt = _vtype(game, vehicle)
    if vw.id is MountId.PINTLE_MG and _is_afv(vt) and not _hatch_open(vehicle, ch.seat or ""):
        return no("a pintle MG needs an open hatch")
    if ch.ammo is AmmoState.NO:
        return no("no ammunition")
    assisted = vw.id is MountId.COAXIAL_MG and _active_occupant(game, vehicle, "loader") is not None
    extra: list[tuple[str, int]] = _gun_terms(game, vehicle, ch, ldr=False)
    if vw.id is MountId.COAXIAL_MG and "gunner_sight" in vehicle.damage:
        extra.append(("Gunner's sight", GUNNER_SIGHT))
    carried = CarriedWeapon(vw.weapon, ch.tq)
    weapon = game.data.weapons.get(vw.weapon)
    frame = vehicle.turret if (vw.mount.value == "turret" and vehicle.turret is not None) else vehicle.facing
    if _is_afv(vt):
        chars, vehs = _observed(game, vehicle, ch.seat or "")
    else:
        chars = [c for c in game.opponents(ch) if c.revealed and not c.dummy]
        vehs = [v for v in vehicles_of(game.state).values() if v.side is not vehicle.side and v.is_active]
    sols: list[combat.FireSolution] = []
    firer_mods = [
        (f"order {o.name}", o.ws_modifier),
        ("wounds", ch.wound_penalty),
        ("cards", combat._card_ws(game, ch)),
    ]
    for t in chars:
        if t.hex is None or not t.is_active or t.hex == vehicle.hex:
            continue
        if t.vehicle is not None and not is_individual_target(game, t, ch, o):
            continue
        if not _in_wedges(game, vehicle.hex, frame, t.hex, vw.arcs, strict=True):
            continue
        if combat.is_melee_hex(game, t.hex):
            continue
        sight = game.sight(ch, t.hex, target=t)
        sol = combat._solution(game, ch, t, carried, o, sight, [*firer_mods, *extra])
        if sol is None:
            continue
        sols.append(_fix_belt(sol, weapon, assisted))
    for v in vehs:
        if v.hex is None or v.hex == vehicle.hex or not is_vehicle_target(game, v, ch):
            continue
        if not _in_wedges(game, vehicle.hex, frame, v.hex, vw.arcs, strict=True):
            continue
        sight = game.sight(ch, v.hex)
        if not sight.clear:
            continue
        sol = _small_arms_solution(game, ch, v, carried, o, sight, [*firer_mods, *extra], assisted=assisted)
        if sol is not None:
            sols.append(sol)
    if not sols:
        return no("no target in the MG's arc" + (" among his Observed Targets" if _is_afv(vt) else ""))
    if ch.side is Side.FRIENDLY:
        from solo.core.decisions import DecisionKind

        key = yield game.decision(
            DecisionKind.FIRE_TARGET,
            f"{ch.name} ({vehicle.name} {vw.id.value.replace('_', ' ')}, {o.name}): fire at",
            [
                *(
                    (s.target, f"{target_name(game, s.target)} ({s.range} hexes, modified WS {s.total})")
                    for s in sols
                ),
                ("hold", "Hold fire"),
            ],
            actor=ch.id,
        )
        if key == "hold":
            return no("the player holds fire")
        sol = next(s for s in sols if s.target == key)
    else:
        best = max(s.total for s in sols)
        pool = [s for s in sols if s.total == best]
        near = min(s.range for s in pool)
        pool = [s for s in pool if s.range == near]
        sol = pool[0]
        if len(pool) > 1:
            pick = game.dice.choice(
                [target_name(game, s.target) for s in pool], f"{ch.name}: MG target (C2 23.2)"
            )
            sol = pool[pick.index]
    v = target_vehicle(game, sol.target)
    if v is not None:
        resolve_fire_at_vehicle(game, ch, v, sol, o, assisted=assisted)
    else:
        combat.resolve_fire(game, ch, game.char(sol.target), sol, o, assisted=assisted)


def _fix_belt(sol: combat.FireSolution, weapon: Weapon, assisted: bool) -> combat.FireSolution:
    """Replace combat's assistant test (other crew share the hex) with the mount's (31.9.4 b)."""
    mods = [(k, v) for k, v in sol.modifiers if k != "no MG assistant"]
    if weapon.has_flag(WeaponFlag.BELT) and not assisted:
        mods.append(("no MG assistant", combat.BELT_WITHOUT_ASSISTANT))
    return attrs.evolve(sol, modifiers=tuple(mods), total=sol.ws + sum(v for _, v in mods))


# ---------------------------------------------------------------------------
# Light AT weapons (32.0-32.3)


def _light_at_weapons(game: GameContext, ch: Character) -> list[Weapon]:
    out = []
    for cw in ch.weapons:
        if cw.weapon in game.data.weapons:
            w = game.data.weapons.get(cw.weapon)
            if w.kind is WeaponKind.LIGHT_AT:
                out.append(w)
    return out


def _bazooka(game: GameContext, ch: Character) -> Weapon | None:
    return next((w for w in _light_at_weapons(game, ch) if not w.has_flag(WeaponFlag.ONE_SHOT)), None)


def _panzerfaust_held(game: GameContext, ch: Character) -> Weapon | None:
    return next((w for w in _light_at_weapons(game, ch) if w.has_flag(WeaponFlag.ONE_SHOT)), None)


def bazooka_state(game: GameContext, operator: Character) -> dict[str, Any]:
    """The Bazooka of ``operator`` in ``state.flags[LIGHT_AT]`` (C2 32.1), created on first use.

    ``{"loaded": False, "rockets": 3, "assistant": id | None, "carrier": id, "loaded_at": None,
    "fired_at": None}``: unloaded with a 3-Ammo Marker; the assistant is the first other man of
    his team in his hex (roster order), who carries the rockets; else the operator carries them.
    """
    table = game.state.flags.setdefault(LIGHT_AT, {})
    st = table.get(operator.id)
    if st is None:
        mate = None
        if operator.hex is not None:
            for c in game.state.at(operator.hex):
                if c is not operator and c.side is operator.side and c.team == operator.team and c.is_active:
                    mate = c.id
                    break
        st = {
            "loaded": False,
            "rockets": BAZOOKA_ROCKETS,
            "assistant": mate,
            "carrier": mate or operator.id,
            "loaded_at": None,
            "fired_at": None,
        }
        table[operator.id] = st
    return st


def _was_loaded_at_start(game: GameContext, st: dict[str, Any]) -> bool:
    here = list(_here(game))
    if st.get("fired_at") == here:
        return True
    return bool(st["loaded"]) and st.get("loaded_at") != here


def _operator_for_loader(game: GameContext, ch: Character) -> Character | None:
    """The operator whose Bazooka ``ch`` loads: his own if alone, else the one he assists (32.1)."""
    if ch.hex is None:
        return None
    if _bazooka(game, ch) is not None:
        st = bazooka_state(game, ch)
        mate = game.state.characters.get(st["assistant"] or "")
        if mate is None or not mate.is_active or mate.hex != ch.hex:
            return ch
    for c in game.state.at(ch.hex):
        if c is ch or c.side is not ch.side or not c.is_active or _bazooka(game, c) is None:
            continue
        st = bazooka_state(game, c)
        mate = game.state.characters.get(st["assistant"] or "")
        if st["assistant"] == ch.id or mate is None or not mate.is_active or mate.hex != c.hex:
            if st["assistant"] != ch.id:
                st["assistant"] = ch.id
            return c
    return None


def light_at_step(game: GameContext, ch: Character, order: Order) -> Generator[Decision, str, None]:
    """The F step of Load Light AT or Fire Light AT (C2 32.1-32.3), from
    :func:`solo.rules.combat.fire_step`."""
    if not ch.is_active or ch.hex is None:
        return
    if order.id == "load_light_at":
        _load_light_at(game, ch)
        return
    yield from _fire_light_at(game, ch, order)


def _load_light_at(game: GameContext, ch: Character) -> None:
    """Load Light AT (32.1): unloaded at the START of I2/I3 → a TQC to load; I4 automatic; a rocket used."""
    imp = game.state.flow.impulse
    rule = "C2 32.1"
    op = _operator_for_loader(game, ch)

    def say(text: str, **data: Any) -> None:
        game.emit("light_at_load", text, rule=rule, actor=ch.id, data={"loader": ch.id, **data})

    if op is None:
        return say(f"{ch.name} has no Bazooka to load here.", loaded=False)
    st = bazooka_state(game, op)
    if _was_loaded_at_start(game, st):
        return say(
            f"{ch.name}: {op.name}'s Bazooka was loaded at the start of the Impulse.",
            operator=op.id,
            loaded=False,
        )
    carrier = game.state.characters.get(st["carrier"])
    if st["rockets"] <= 0 or carrier is None or carrier.hex != op.hex:
        return say(f"{ch.name} cannot load: no Bazooka rocket in {op.hex}.", operator=op.id, loaded=False)
    if imp in (2, 3):
        tqc = morale.check(game, ch, CheckKind.TQC, purpose=f"load {op.name}'s Bazooka (C2 32.1)")
        if not tqc.passed:
            return say(
                f"{ch.name} fails to load the Bazooka (TQC {tqc.roll} vs {tqc.target}; no penalty).",
                operator=op.id,
                loaded=False,
                roll=tqc.roll,
            )
    st["loaded"] = True
    st["rockets"] -= 1
    st["loaded_at"] = list(_here(game))
    say(
        f"{ch.name} loads {op.name}'s Bazooka ({'automatic on Impulse 4' if imp == 4 else 'TQC passed'}); "
        f"{st['rockets']} rocket(s) left.",
        operator=op.id,
        loaded=True,
        rockets=st["rockets"],
    )


def light_at_order_placed(game: GameContext, ch: Character) -> bool:
    """A loaded Bazooka's operator given an order faster than Sneak: it is unloaded, the rocket lost (32.1).

    Call when a Friendly order is placed. Returns True if the Bazooka was unloaded.
    """
    if ch.order is None or ch.order.order not in ("run_and_gun", "evade", "sprint", "charge"):
        return False
    if _bazooka(game, ch) is None:
        return False
    st = bazooka_state(game, ch)
    if not st["loaded"]:
        return False
    st["loaded"] = False
    game.emit(
        "light_at_load",
        f"{ch.name} moves faster than Sneak with a loaded Bazooka: it is unloaded and the rocket lost.",
        rule="C2 32.1",
        actor=ch.id,
        data={"operator": ch.id, "unloaded": True},
    )
    return True


def _soft_target_hex(game: GameContext, h: Hex) -> bool:
    return any(t in SOFT_TARGET_TERRAIN for t in combat._terrain_ids(game, h))


def _light_at_terms(
    game: GameContext, ch: Character, weapon: Weapon, to: Hex, sight: Sight, rng: int
) -> list[tuple[str, int]] | None:
    band = weapon.band_modifier(rng)
    if band is None or ch.hex is None:
        return None
    terms = [
        (f"{ch.name}'s TQ", ch.effective_tq),
        ("range", band),
        (f"morale {ch.morale.value}", game.data.checks.morale(ch.morale).fire_ws),
        ("smoke", sight.smoke),
        *_night_weather(game, ch.hex, to, rng),
    ]
    if ch.side is Side.FRIENDLY and weapon.has_flag(WeaponFlag.ONE_SHOT):
        terms.append(("Friendly with a Panzerfaust", FRIENDLY_PANZERFAUST))
    return terms


def light_at_shots(game: GameContext, ch: Character, weapon: Weapon, *, soft: bool = True) -> list[GunShot]:
    """Every legal Light AT shot of ``ch`` (C2 32.1-32.3): opposing vehicles in LOS and range, and
    (``soft``) hexes of Building, Rubble, Rocks, Abbey or Fountain holding revealed opponents (32.2).

    Vehicle terms: TQ + range band + aspect (+2 side, +1 front/rear) + the target's speed +
    morale + smoke, night, weather (- 2 for a Friendly with a Panzerfaust). Soft: no aspect or speed.
    """
    if ch.hex is None:
        return []
    stagger = game.board.map.stagger
    shots: list[GunShot] = []
    for v in vehicles_of(game.state).values():
        if v.side is ch.side or not v.is_active or v.hex is None or v.hex == ch.hex:
            continue
        sight = game.sight(ch, v.hex)
        if not sight.clear:
            continue
        rng = game.distance(ch.hex, v.hex)
        terms = _light_at_terms(game, ch, weapon, v.hex, sight, rng)
        if terms is None:
            continue
        aspect = arc_of(v.hex, v.facing, ch.hex, stagger)
        terms[1:1] = [(f"{aspect.value} aspect", ASPECT_MODIFIER[aspect]), target_speed(game, v)]
        kept = tuple((k, n) for k, n in terms if n or k in ("range",) or k.endswith("TQ"))
        shots.append(GunShot(VEHICLE_TARGET + v.id, v.hex, rng, kept, aspect, 0))
    if not soft:
        return shots
    hexes: dict[Hex, int] = {}
    for c in game.opponents(ch):
        if c.hex is None or c.vehicle is not None or not c.revealed or c.dummy or c.hex == ch.hex:
            continue
        if _soft_target_hex(game, c.hex):
            hexes[c.hex] = hexes.get(c.hex, 0) + 1
    for h, n in hexes.items():
        if combat.is_melee_hex(game, h):
            continue
        sight = game.sight(ch, h)
        if not sight.clear:
            continue
        rng = game.distance(ch.hex, h)
        terms = _light_at_terms(game, ch, weapon, h, sight, rng)
        if terms is None:
            continue
        kept = tuple((k, v) for k, v in terms if v or k in ("range",) or k.endswith("TQ"))
        shots.append(GunShot(HEX_TARGET + str(h), h, rng, kept, None, n))
    return shots


def _fire_light_at(game: GameContext, ch: Character, order: Order) -> Generator[Decision, str, None]:
    """Fire Light AT (32.1, 32.3): loaded at the START of I2/I3 (a Panzerfaust always is) → a TQC
    to fire, I4 automatic; to hit, then :func:`hit_vehicle` (HEAT) or the 32.2 soft-target burst."""
    imp = game.state.flow.impulse
    rule = "C2 32.1-32.3"
    bazooka = _bazooka(game, ch)
    pf = _panzerfaust_held(game, ch)
    weapon = bazooka or pf

    def no(why: str) -> None:
        game.emit(
            "light_at_fire",
            f"{ch.name} does not fire the {weapon.name if weapon else 'Light AT weapon'}: {why}.",
            rule=rule,
            actor=ch.id,
            data={"fired": False, "reason": why},
        )

    if weapon is None:
        return no("he has no Light AT weapon")
    st = bazooka_state(game, ch) if bazooka is not None else None
    if st is not None and not (st["loaded"] and _was_loaded_at_start(game, st)):
        return no("the Bazooka was not loaded at the start of the Impulse")
    shots = light_at_shots(game, ch, weapon)
    if not shots:
        return no("no target in LOS and range")
    if ch.side is Side.FRIENDLY:
        from solo.core.decisions import DecisionKind

        key = yield game.decision(
            DecisionKind.FIRE_TARGET,
            f"{ch.name} ({weapon.name}): fire at",
            [
                *((s.key, f"{target_name(game, s.key)} ({s.range} hexes, {s.breakdown()})") for s in shots),
                ("hold", "Hold fire"),
            ],
            actor=ch.id,
        )
        if key == "hold":
            return no("the player holds fire")
        shot = next(s for s in shots if s.key == key)
    else:
        vehs = [s for s in shots if s.key.startswith(VEHICLE_TARGET)]
        if not vehs and pf is not None and not any(s.total > 0 for s in shots):
            return no("no target with a chance to hit")
        shot = _enemy_gun_pick(game, ch, vehs or shots, None, "Light AT target")
    if imp in (2, 3):
        tqc = morale.check(game, ch, CheckKind.TQC, purpose=f"fire the {weapon.name}? (C2 32.1)")
        if not tqc.passed:
            return no(f"TQC {tqc.roll} vs {tqc.target} failed (no penalty)")
    spotting.reveal(game, ch, reason=f"fired the {weapon.name}", rule="base-rules §9.8")
    data: dict[str, Any] = {
        "fired": True,
        "weapon": weapon.id,
        "target": shot.key,
        "range": shot.range,
        "terms": [list(t) for t in shot.terms],
        "modified_tq": shot.total,
        "automatic": imp == 4,
    }
    v = target_vehicle(game, shot.key)
    if v is not None:
        roll = game.dice.d10(
            f"{weapon.name}: {ch.name} -> {v.name} (modified TQ {shot.total}) (C2 32.1)"
        ).total
        hit = roll_result(roll, shot.total).passed
        data.update(roll=roll, hit=hit, aspect=shot.aspect.value if shot.aspect else None)
        text = (
            f"{ch.name} fires the {weapon.name} at {v.name} in {v.hex} ({shot.range} hexes, "
            f"{shot.aspect.value if shot.aspect else ''}): {shot.breakdown()}; "
            f"d10 {roll} → {'hit' if hit else 'miss'}."
        )
        if hit:
            rep = hit_vehicle(
                game,
                v,
                strike_of(game, weapon.id, Ordnance.HEAT),
                from_hex=ch.hex,
                firer=ch,
                aspect=shot.aspect,
            )
            data["hit_report"] = rep
            text += " " + report_text(rep)
    else:
        rep = _heat_soft(game, ch, weapon, shot)
        data["soft"] = rep
        text = (
            f"{ch.name} fires the {weapon.name} at {shot.hex} ({shot.range} hexes): "
            f"{shot.breakdown()}; {rep['text']}"
        )
    spotting.alert_around(game, ch.hex, 10, f"{ch.name} fired the {weapon.name}", "base-rules §5.6 alert 1")
    if st is not None:
        st["loaded"] = False
        st["fired_at"] = list(_here(game))
        text += " The Bazooka is unloaded."
    else:
        ch.weapons = tuple(cw for cw in ch.weapons if cw.weapon != weapon.id)
        text += " The Panzerfaust is spent."
    game.emit("light_at_fire", text, rule=rule + ", 31.10", actor=ch.id, data=data)
    if pf is not None and st is None and ch.side is Side.ENEMY and ch.is_active:
        morale.duck_back(game, ch, reason="fired his Panzerfaust", rule="C2 32.3")


def _heat_frag(weapon: Weapon) -> tuple[int, int, int, int]:
    if weapon.grenade is not None:
        g = weapon.grenade
        return (g.near_dice, g.near_frag, g.far_dice, g.far_frag)
    return HEAT_FRAG.get(weapon.id, DEFAULT_HEAT_FRAG)


def _heat_soft(
    game: GameContext, ch: Character, weapon: Weapon, shot: GunShot, *, second: bool = False
) -> dict[str, Any]:
    """HEAT at a soft target (C2 32.2): 0 direct hit, <= TQ close, > TQ far, 9 scatter (a second 9 a dud).

    A direct hit kills one character picked at random (on Hide in Rocks or a Building: it lands
    close instead) and the others roll the far Frag dice; close: everyone rolls the near Frag
    dice; far: the far ones. Frag rolls ignore the target's terrain and order. Returns the report.
    """
    near_dice, near_frag, far_dice, far_frag = _heat_frag(weapon)
    h = shot.hex
    roll = game.dice.d10(f"{weapon.name} at {h}: {ch.name} (modified TQ {shot.total}) (C2 32.2)").total
    rep: dict[str, Any] = {"hex": str(h), "roll": roll, "frag": [], "second": second}
    if roll == 9:
        if second:
            rep["text"] = "d10 9 again: a dud, no effect."
            return rep
        d = game.dice.d6(f"{weapon.name} scatter from {h} (C2 32.2)").total
        new = game.board.neighbour_hex(h, d)
        rep["scatter"] = d
        if new is None or not any(c.vehicle is None and not c.dummy for c in game.state.at(new)):
            rep["text"] = (
                f"d10 9: misses, scattering in direction {d} to {new or 'off the map'}: no one there."
            )
            return rep
        inner = _heat_soft(game, ch, weapon, attrs.evolve(shot, hex=new), second=True)
        rep["scattered"] = inner
        rep["text"] = f"d10 9: misses, scattering in direction {d} to {new}, rolled again: {inner['text']}"
        return rep
    people = [c for c in game.state.at(h) if c.vehicle is None and not c.dummy and c.is_active]
    words: list[str] = []
    direct: Character | None = None
    if roll == 0 and people:
        pick = game.dice.choice([c.name for c in people], f"{weapon.name} direct hit on {h}: who? (C2 32.2)")
        direct = people[pick.index]
        cover = any(t in ("rocks", "building", "fortified_building") for t in combat._terrain_ids(game, h))
        if direct.order is not None and direct.order.order == "hide" and cover:
            words.append(f"d10 0: a direct hit on {direct.name}, who is on Hide in cover: it lands close")
            direct = None
            near = True
        else:
            wounds.kill(game, direct, reason=f"direct hit by {ch.name}'s {weapon.name}", rule="C2 32.2")
            words.append(f"d10 0: a direct hit, {direct.name} is killed")
            rep["killed"] = direct.id
            near = False
    else:
        near = roll_result(roll, shot.total).passed
        words.append(f"d10 {roll}: {'close' if near else 'far'}")
    dice, frag = (near_dice, near_frag) if near else (far_dice, far_frag)
    for c in people:
        if c is direct or not c.is_active:
            continue
        faces = [
            game.dice.d10(f"{weapon.name} fragment {i + 1}/{dice}: {c.name} (<= {frag})").total
            for i in range(dice)
        ]
        hits = sum(1 for f in faces if roll_result(f, frag).passed)
        rep["frag"].append({"character": c.id, "dice": dice, "frag": frag, "faces": faces, "hits": hits})
        words.append(f"{c.name} {dice} Frag dice at {frag}: {faces} → {hits} hit(s)")
        for _ in range(hits):
            if not c.is_active:
                break
            stamp = wounds.wound_draw(game, c, firer=ch)
            wounds.apply_wound(game, c, stamp, reason=f"{weapon.name} fragments")
    rep["near"] = near
    rep["text"] = "; ".join(words) + "."
    return rep


# --- Panzerfausts (32.3)


def panzerfaust_supply(game: GameContext) -> dict[str, Any]:
    """``{"level": int, "type": weapon id}`` of ``state.flags[PANZERFAUST]`` (C2 32.3).

    First read from ``game.scenario.panzerfaust`` (a mapping or an object with ``level`` and
    ``type``) if the scenario has it, else level :data:`PANZERFAUST_DEFAULT_LEVEL`.
    """
    flags = game.state.flags
    sup = flags.get(PANZERFAUST)
    if sup is None:
        spec = getattr(game.scenario, "panzerfaust", None)
        if isinstance(spec, dict):
            level, kind = spec.get("level", 0), spec.get("type", PANZERFAUST_DEFAULT_TYPE)
        elif spec is not None:
            level = getattr(spec, "level", 0)
            kind = getattr(spec, "type", PANZERFAUST_DEFAULT_TYPE)
        else:
            level, kind = PANZERFAUST_DEFAULT_LEVEL, PANZERFAUST_DEFAULT_TYPE
        sup = {"level": int(level), "type": str(getattr(kind, "value", kind))}
        flags[PANZERFAUST] = sup
    return sup


def _pf_barred(game: GameContext, ch: Character) -> str | None:
    """Why ``ch`` may not roll for a Panzerfaust (32.3), or None."""
    if ch.ldr >= OFFICER_MIN_LDR:
        return "an Officer"
    if ch.mg_role is not None or any(
        cw.weapon in game.data.weapons and game.data.weapons.get(cw.weapon).kind is WeaponKind.MG
        for cw in ch.weapons
    ):
        return "an MG crew member"
    if ch.has_skill(skills.SKILL_SNIPER):
        return "a Sniper"
    if _panzerfaust_held(game, ch) is not None:
        return "already holding a Panzerfaust"
    return None


def enemy_panzerfaust_check(game: GameContext, ch: Character) -> bool:
    """The 32.3 placement check when Enemy ``ch`` activates; returns True if he gets a Panzerfaust.

    With the Panzerfaust Level above 0, an Enemy on foot (not an Officer, MG crew, Sniper, or a
    man already holding one) with LOS to a Friendly vehicle whose theoretical chance to hit is 0
    or more (modified TQ >= 0, in range) makes a TQC. Passing: a Panzerfaust of the scenario's
    type is added to his weapons, the Level drops by one and he takes Fire Light AT. Emits a
    ``panzerfaust`` event when he rolls.
    """
    if ch.side is not Side.ENEMY or not ch.is_active or ch.hex is None or ch.vehicle is not None or ch.dummy:
        return False
    sup = panzerfaust_supply(game)
    if sup["level"] <= 0 or _pf_barred(game, ch) is not None:
        return False
    weapon = game.data.weapons.get(sup["type"])
    shots = [s for s in light_at_shots(game, ch, weapon, soft=False) if s.total >= 0]
    if not shots:
        return False
    best = max(shots, key=lambda s: s.total)
    tqc = morale.check(game, ch, CheckKind.TQC, purpose="Panzerfaust placement (C2 32.3)")
    data = {
        "level_before": sup["level"],
        "roll": tqc.roll,
        "target": tqc.target,
        "passed": tqc.passed,
        "vehicle": best.key,
        "chance": best.total,
    }
    if not tqc.passed:
        game.emit(
            "panzerfaust",
            f"{ch.name} sees {target_name(game, best.key)} (modified TQ {best.total}) but gets no "
            "Panzerfaust "
            f"(TQC {tqc.roll} vs {tqc.target}).",
            rule="C2 32.3",
            actor=ch.id,
            data=data,
        )
        return False
    sup["level"] -= 1
    ch.weapons = (*ch.weapons, CarriedWeapon(weapon.id, ch.tq))
    game.set_order(ch, "fire_light_at", source="Panzerfaust placement (C2 32.3)")
    game.emit(
        "panzerfaust",
        f"{ch.name} takes a {weapon.name} (TQC {tqc.roll} vs {tqc.target}; {target_name(game, best.key)} at "
        f"modified TQ {best.total}); Panzerfaust Level {sup['level']}; he takes Fire Light AT.",
        rule="C2 32.3",
        actor=ch.id,
        data={**data, "level_after": sup["level"], "weapon": weapon.id},
    )
    return True


def panzerfaust_order(game: GameContext, ch: Character) -> bool:
    """At the start of the Enemy Orders Phase, an Enemy holding a Panzerfaust takes Fire Light AT if a
    Friendly vehicle (or a Spotted Friendly in a Building, Rubble, Rocks, Abbey or Fountain hex) is
    in LOS and range with a chance to hit above 0 (C2 32.3). Returns True if the order was given."""
    if ch.side is not Side.ENEMY or not ch.is_active:
        return False
    weapon = _panzerfaust_held(game, ch)
    if weapon is None:
        return False
    shots = [s for s in light_at_shots(game, ch, weapon) if s.total > 0]
    if not shots:
        return False
    game.set_order(ch, "fire_light_at", source="holds a Panzerfaust (C2 32.3)")
    best = max(shots, key=lambda s: s.total)
    game.emit(
        "enemy_order",
        f"{ch.name} holds a {weapon.name} and sees {target_name(game, best.key)} (modified TQ {best.total}): "
        "Fire Light AT.",
        rule="C2 32.3",
        actor=ch.id,
        data={"order": "fire_light_at", "target": best.key, "chance": best.total},
    )
    return True


def panzerfaust_pickup(game: GameContext, ch: Character) -> bool:
    """A man ending his activation on a dropped Panzerfaust tries to pick it up with a TQC (32.3).

    Dropped: carried by a man on that hex who is no longer active. Not when opponents share the
    hex; Enemies: not Officers, MG crews, Snipers or holders; Friendlies: not with a Heavy or Very
    Heavy weapon, nor holding one [house]. Returns True if he picked it up.
    """
    if not ch.is_active or ch.hex is None or ch.vehicle is not None or ch.dummy:
        return False
    h = ch.hex
    if any(c.side is not ch.side and c.is_active for c in game.state.at(h)):
        return False
    if ch.side is Side.ENEMY:
        if _pf_barred(game, ch) is not None:
            return False
    else:
        heavy = any(
            cw.weapon in game.data.weapons
            and (
                game.data.weapons.get(cw.weapon).has_flag(WeaponFlag.HEAVY)
                or game.data.weapons.get(cw.weapon).has_flag(WeaponFlag.VERY_HEAVY)
            )
            for cw in ch.weapons
        )
        if heavy or _panzerfaust_held(game, ch) is not None:
            return False
    owner = next(
        (
            c
            for c in game.state.characters.values()
            if c.hex == h and not c.is_active and _panzerfaust_held(game, c) is not None
        ),
        None,
    )
    if owner is None:
        return False
    pf = _panzerfaust_held(game, owner)
    assert pf is not None
    tqc = morale.check(game, ch, CheckKind.TQC, purpose=f"pick up the {pf.name} (C2 32.3)")
    if tqc.passed:
        owner.weapons = tuple(cw for cw in owner.weapons if cw.weapon != pf.id)
        ch.weapons = (*ch.weapons, CarriedWeapon(pf.id, ch.tq))
    game.emit(
        "panzerfaust",
        f"{ch.name} {'picks up' if tqc.passed else 'fails to pick up'} the {pf.name} dropped by {owner.name} "
        f"(TQC {tqc.roll} vs {tqc.target}).",
        rule="C2 32.3",
        actor=ch.id,
        data={"pickup": tqc.passed, "from": owner.id, "weapon": pf.id, "roll": tqc.roll},
    )
    return tqc.passed


# ---------------------------------------------------------------------------
# Fire, grenades in hatches, artillery (31.10.7, 31.10.8, 31.10.12)


def end_phase_vehicle_fires(game: GameContext) -> None:
    """Turret/Engine Fire at the end of each turn after the one it started (C2 31.10.8): d10 0 out
    (crew +1 morale if below Normal), 1-7 burns on (an FMC for everyone aboard), 8-9 explodes
    (everyone aboard killed, the vehicle destroyed)."""
    started = game.state.flags.get(FIRE_STARTED, {})
    turn = game.state.flow.turn
    for v in vehicles_of(game.state).values():
        if not v.on_fire or v.destroyed or started.get(v.id, -1) >= turn:
            continue
        d10 = game.dice.d10(f"{v.name} burns: does it go out, burn on or explode? (C2 31.10.8)").total
        ctx = _Hit(game, v, Strike("fire", "fire", Ordnance.HE, None, None), {}, None)
        ctx.penetrated = True
        if d10 == 0:
            v.on_fire = False
            text = f"{v.name}: d10 0, the fire goes out."
            for c in _occupants(game, v):
                if c.morale.rank > MoraleState.NORMAL.rank:
                    morale.change_morale(game, c, 1, MoraleState.NORMAL, "the fire is out", "C2 31.10.8")
        elif d10 <= 7:
            text = f"{v.name}: d10 {d10}, the fire burns on; Fire Morale Checks for everyone aboard."
            for c in _occupants(game, v):
                ctx.checks.append((c.id, "fmc", "the vehicle burns on"))
            _run_checks(ctx)
        else:
            text = f"{v.name}: d10 {d10}, the vehicle explodes; everyone aboard is killed."
            _destroy(ctx, "the vehicle explodes")
        game.emit(
            "vehicle_fire_phase",
            text,
            rule="C2 31.10.8",
            data={"vehicle": v.id, "roll": d10, "report": ctx.report},
        )


def drop_grenade_in_hatch(game: GameContext, ch: Character, vehicle: Vehicle) -> bool:
    """Impulse 3: ``ch`` (with a Grenade order, in the AFV's hex since the turn began) tries to drop a
    grenade through a hatch (C2 31.10.7): a TQC; success puts it on a crew position without a
    jammed hatch (an Enemy picks at random; a Friendly the first open one, else the first) [house].
    It explodes in the End Phase (:func:`hatch_grenades_explode`). Returns True on success."""
    if ch.hex is None or vehicle.hex != ch.hex or not vehicle.is_active:
        return False
    vt = _vtype(game, vehicle)
    if not _is_afv(vt):
        return False
    places = [p.id for p in vt.crew if p.hatch and not vehicle.seats[p.id].hatch.is_jammed]
    if not places:
        return False
    tqc = morale.check(
        game, ch, CheckKind.TQC, purpose=f"drop a grenade into {vehicle.name}'s hatch (C2 31.10.7)"
    )
    if not tqc.passed:
        game.emit(
            "hatch_grenade",
            f"{ch.name} fails to drop a grenade into {vehicle.name}.",
            rule="C2 31.10.7",
            actor=ch.id,
            data={"vehicle": vehicle.id, "roll": tqc.roll},
        )
        return False
    if ch.side is Side.ENEMY:
        place = places[game.dice.choice(places, f"{ch.name}: which hatch? (C2 31.10.7)").index]
    else:
        opened = [p for p in places if vehicle.seats[p].hatch.is_open]
        place = (opened or places)[0]
    game.state.flags.setdefault(HATCH_GRENADES, []).append(
        {"vehicle": vehicle.id, "position": place, "thrower": ch.id, "turn": game.state.flow.turn}
    )
    game.emit(
        "hatch_grenade",
        f"{ch.name} drops a grenade through {vehicle.name}'s {place.replace('_', ' ')} hatch.",
        rule="C2 31.10.7",
        actor=ch.id,
        data={"vehicle": vehicle.id, "position": place},
    )
    return True


def hatch_grenades_explode(game: GameContext) -> None:
    """End Phase: for each grenade dropped into an AFV this turn every crewman aboard draws 3 wound
    cards (C2 31.10.7)."""
    pending = game.state.flags.pop(HATCH_GRENADES, [])
    for rec in pending:
        v = vehicles_of(game.state).get(rec["vehicle"])
        if v is None:
            continue
        thrower = game.state.characters.get(rec.get("thrower") or "")
        ctx = _Hit(game, v, Strike("hand_grenade", "grenade", Ordnance.HE, None, None), {}, thrower)
        ctx.penetrated = True
        for c in _crew(game, v):
            _wound_occupant(ctx, c, HATCH_GRENADE_WOUNDS, "a grenade inside the AFV")
        _run_checks(ctx)
        game.emit(
            "hatch_grenade",
            f"The grenade inside {v.name} explodes: every crewman draws {HATCH_GRENADE_WOUNDS} wound cards.",
            rule="C2 31.10.7",
            data={"vehicle": v.id, "report": ctx.report},
        )


ARTILLERY_VS_AFV: tuple[tuple[int, int, str], ...] = (
    (0, 0, "hit"),
    (1, 2, "track"),
    (3, 5, "exposed"),
    (6, 9, "none"),
)
"""[house] Indirect Fire vs AFV (31.10.12): d10 0 a hit on the rear deck, 1-2 tracks (75mm+
shells immobilize), 3-5 a wound card for every crewman at an open hatch, 6-9 no effect."""
ARTILLERY_VS_SOFT: tuple[tuple[int, int, str], ...] = (
    (0, 1, "hit"),
    (2, 4, "wound"),
    (5, 7, "mc"),
    (8, 9, "none"),
)
"""[house] Indirect Fire vs Half-Track / Truck / Jeep (31.10.12): d10 0-1 a hit (side aspect),
2-4 a wound card for one occupant at random, 5-7 an MC for every occupant, 8-9 no effect."""


def artillery_hits_vehicle(game: GameContext, vehicle: Vehicle, calibre: str) -> dict[str, Any]:
    """Artillery or mortar fire lands on ``vehicle``'s hex (or next to it for 105mm) (C2 31.10.12).

    d10 on the house Indirect Fire table of its kind (:data:`ARTILLERY_VS_AFV`,
    :data:`ARTILLERY_VS_SOFT`); a "hit" is an HE hit of that calibre (penetration 1+1d6 [house]).
    Emits one ``vehicle_artillery`` event and returns its report.
    """
    vt = _vtype(game, vehicle)
    digits = "".join(ch for ch in calibre if ch.isdigit())
    mm = int(digits) if digits else 75
    d10 = game.dice.d10(f"{calibre} lands on {vehicle.name} (C2 31.10.12)").total
    table = ARTILLERY_VS_AFV if _is_afv(vt) else ARTILLERY_VS_SOFT
    result = next(r for lo, hi, r in table if lo <= d10 <= hi)
    strike = Strike(calibre, f"{calibre} shell", Ordnance.HE, mm, "1+1d6")
    report: dict[str, Any] = {"vehicle": vehicle.id, "calibre": calibre, "roll": d10, "result": result}
    ctx = _Hit(game, vehicle, strike, report, None)
    if result == "hit":
        report["hit"] = hit_vehicle(
            game, vehicle, strike, from_hex=None, aspect=Arc.REAR if _is_afv(vt) else Arc.SIDE
        )
    elif result == "track":
        if mm >= 75:
            _immobilize(ctx, "shell on the tracks")
    elif result == "exposed":
        for c in _crew(game, vehicle):
            if not _buttoned(game, vehicle, c) and not _hidden(c):
                _wound_occupant(ctx, c, 1, f"{calibre} shell burst")
    elif result == "wound":
        people = _occupants(game, vehicle)
        if people:
            victim = people[game.dice.choice([c.name for c in people], f"{calibre}: who is hit?").index]
            _wound_occupant(ctx, victim, 1, f"{calibre} shell burst")
    elif result == "mc":
        for c in _occupants(game, vehicle):
            ctx.checks.append((c.id, "mc", f"{calibre} shell burst"))
    ctx.penetrated = True
    _run_checks(ctx)
    game.emit(
        "vehicle_artillery",
        f"A {calibre} shell lands on {vehicle.name}: d10 {d10}, {result}."
        + (" " + report_text(report["hit"]) if "hit" in report else ""),
        rule="C2 31.10.12 [house tables]",
        data=report,
    )
    return report
