"""Mount Up (C2 31.11.2) and who may drive a Friendly Jeep, Truck or Half-Track (the Drive skill, 31.3).

31.11.2: a crew member, or a Character on foot mounting as a Passenger (Jeeps, Trucks and
Half-Tracks only, never an AFV), within 1 hex of a Stationary vehicle may be given Mount Up. He
may move 1 hex on Impulse 2, into the vehicle's hex (none if already there). For a crew position
with a closed hatch the hatch counts as open on Impulse 4 and he enters the vehicle at the end
of the turn; for an open hatch (or a position without a hatch, a passenger seat) he is in the
vehicle on Impulse 4.

Readings [house], listed in the README:

* the vehicle must still be Stationary and in reach when he moves and when he gets in; if it
  has driven off, or his seat was taken, he stays on foot where he is;
* a crew member mounts his own vehicle (the team he came from), into his own position if it is
  free, else another empty crew position (31.11.2 Relocate's -2 out of position then applies);
* the Driver's position of a Friendly Jeep, Truck or Half-Track takes only its own Driver or a
  Character with the Drive skill (31.3 "Randomly select a Driver ... or you can use a Character
  with the Drive Skill");
* until he gets in at the end of the turn, a man mounting through a closed hatch is a man on
  foot in the vehicle's hex; the hatch is open from Impulse 4 (option ``mount_up_hatch``,
  ``open_on_4`` as the text; ``stays_closed`` keeps it closed).

The Enemy never takes Mount Up: neither the Enemy Order cards nor the Vehicle Order Matrix give
it, so :func:`mount_places` offers it to Friendly characters only.

May import: solo.rules.vehicles.seats and below, and the rooms below rules."""

from __future__ import annotations

from typing import Any

from solo.data.vehicle_types import VehicleKind
from solo.rules.context import GameContext
from solo.rules.state import Character, Side
from solo.rules.vehicles.seats import _homes, _is_crew_seat, _is_moving, _vtype, may_drive
from solo.rules.vehicles.state import CREW_ORDER, Hatch, Vehicle, vehicles_of

MOUNT_UP = "mount_up"
"""The order id (cards/orders.yaml)."""
PENDING_KEY = "mount_up_pending"
"""``state.flags`` key: ``{character id: "vehicle:seat"}``, men who get in at the end of the turn
through a closed hatch (31.11.2)."""
VEHICLE_KEY = "vehicle:"
"""A Mount Up target is ``"vehicle:<id>|<seat>"`` (the window points it at the vehicle)."""
MOUNT_REACH = 1
"""31.11.2: within 1 hex of the vehicle."""


def free_seats(game: GameContext, ch: Character, vehicle: Vehicle) -> list[str]:
    """The seats of ``vehicle`` that ``ch`` may take by Mount Up, best first (31.11.2, 31.3):

    a crewman of this vehicle (his team is the vehicle): his own position if empty, then the other
    empty crew positions in display order (the Driver's of a Friendly Jeep, Truck or Half-Track
    only for its Driver or a man with the Drive skill, :func:`~solo.rules.vehicles.seats.may_drive`);
    anyone else: on a Friendly Jeep, Truck or Half-Track the empty Driver's position if he has the
    Drive skill (31.3), then the empty passenger seats (none on an AFV)."""
    vtype = _vtype(game, vehicle)
    empty = [
        p
        for p, s in vehicle.seats.items()
        if s.occupant is None and not s.kia and s.hatch is not Hatch.JAMMED_CLOSED
    ]
    pending = set(game.state.flags.get(PENDING_KEY, {}).values())
    empty = [p for p in empty if f"{vehicle.id}:{p}" not in pending]
    if ch.team == vehicle.id:
        home = _homes(game).get(ch.id)
        crew = [p for p in CREW_ORDER if p in empty]
        crew.sort(key=lambda p: p != home)
        return [p for p in crew if p != "driver" or may_drive(game, ch, vehicle)]
    if vtype.kind is VehicleKind.AFV:
        return []
    friendly = vehicle.side is Side.FRIENDLY
    drive = ["driver"] if "driver" in empty and friendly and may_drive(game, ch, vehicle) else []
    return [*drive, *(p for p in empty if not _is_crew_seat(p) and p != "cupola")]


def _stationary(game: GameContext, vehicle: Vehicle) -> bool:
    return not vehicle.destroyed and not _is_moving(game, vehicle)


def mount_places(game: GameContext, ch: Character) -> list[tuple[str, str]]:
    """The Mount Up targets of Friendly ``ch`` on foot: ``("vehicle:<id>|<seat>", label)`` for each Stationary
    same-side vehicle within 1 hex and each seat :func:`free_seats` allows, in vehicle id order.
    Empty for the Enemy, a man in a vehicle, a dummy or a man off the map (31.11.2)."""
    if ch.side is not Side.FRIENDLY or ch.vehicle is not None or ch.hex is None or ch.dummy:
        return []
    out: list[tuple[str, str]] = []
    for vid in sorted(vehicles_of(game.state)):
        v = game.state.vehicles[vid]
        if v.side is not ch.side or not _stationary(game, v) or game.distance(ch.hex, v.hex) > MOUNT_REACH:
            continue
        for seat in free_seats(game, ch, v):
            out.append((f"{VEHICLE_KEY}{vid}|{seat}", f"{v.name} ({v.hex}), {seat.replace('_', ' ')}"))
    return out


def _target(game: GameContext, ch: Character) -> tuple[Vehicle, str] | None:
    text = ch.order.target if ch.order is not None else None
    if not text or not text.startswith(VEHICLE_KEY) or "|" not in text:
        return None
    vid, seat = text[len(VEHICLE_KEY) :].split("|", 1)
    v = game.state.vehicles.get(vid)
    return (v, seat) if v is not None and seat in v.seats else None


def _stays(game: GameContext, ch: Character, why: str) -> None:
    game.emit(
        "mount_up", f"{ch.name} cannot mount up: {why}.", rule="C2 31.11.2", actor=ch.id, data={"done": False}
    )


def _board(game: GameContext, ch: Character, vehicle: Vehicle, seat: str, when: str) -> None:
    vehicle.seats[seat].occupant = ch.id
    ch.vehicle, ch.seat, ch.hex = vehicle.id, seat, vehicle.hex
    game.emit(
        "mount_up",
        f"{ch.name} gets into {vehicle.name} ({seat.replace('_', ' ')}) {when}.",
        rule="C2 31.11.2",
        actor=ch.id,
        data={"done": True, "vehicle": vehicle.id, "seat": seat},
    )


def _usable(game: GameContext, ch: Character, vehicle: Vehicle, seat: str) -> str:
    """Why ``ch`` cannot get into ``seat`` now ('' when he can)."""
    if not _stationary(game, vehicle):
        return f"{vehicle.name} is not stationary"
    if vehicle.seats[seat].occupant is not None or vehicle.seats[seat].kia:
        return f"the {seat.replace('_', ' ')} of {vehicle.name} is taken"
    return ""


def mount_up_step(game: GameContext, ch: Character) -> None:
    """Friendly ``ch`` on foot with Mount Up, at his activation (31.11.2): on Impulse 2 one hex into
    the vehicle's hex (none if already there); on Impulse 4 into his seat (open hatch, no hatch,
    passenger) or, through a closed hatch, noted to get in at the end of the turn. Logged as
    ``mount_up`` (and ``move``)."""
    imp = game.state.flow.impulse
    got = _target(game, ch)
    if got is None or ch.hex is None:
        return
    vehicle, seat = got
    if imp == 2 and ch.hex != vehicle.hex:
        why = _usable(game, ch, vehicle, seat)
        if not why and game.distance(ch.on_hex, vehicle.on_hex) > MOUNT_REACH:
            why = f"{vehicle.name} is out of reach"
        if why:
            _stays(game, ch, why)
            return
        frm = ch.hex
        ch.hex = vehicle.hex
        game.emit(
            "move",
            f"{ch.name} moves {frm}→{vehicle.hex} to mount up on {vehicle.name}.",
            rule="C2 31.11.2",
            actor=ch.id,
            data={"path": [str(frm), str(vehicle.hex)]},
        )
    elif imp == 4:
        why = _usable(game, ch, vehicle, seat) or (
            "" if ch.hex == vehicle.hex else f"{vehicle.name} is not in his hex"
        )
        if why:
            _stays(game, ch, why)
            return
        if vehicle.seats[seat].hatch in (Hatch.CLOSED, Hatch.JAMMED_CLOSED):
            if game.options.mount_up_hatch == "open_on_4" and vehicle.seats[seat].hatch is Hatch.CLOSED:
                vehicle.seats[seat].hatch = Hatch.OPEN  # "considered to be open on Impulse 4"
            game.state.flags.setdefault(PENDING_KEY, {})[ch.id] = f"{vehicle.id}:{seat}"
            game.emit(
                "mount_up",
                f"{ch.name} opens the hatch of {vehicle.name} ({seat.replace('_', ' ')}); he gets in at the "
                "end of the turn.",
                rule="C2 31.11.2",
                actor=ch.id,
                data={"done": False, "pending": True},
            )
        else:
            _board(game, ch, vehicle, seat, "on Impulse 4")


def end_phase(game: GameContext) -> None:
    """End of the turn: the men mounting through a closed hatch get in (31.11.2), in the order they
    opened it, if the vehicle is still in their hex and the seat free. The hatch he opened on
    Impulse 4 stays open (option ``mount_up_hatch`` ``open_on_4``) or was never opened
    (``stays_closed``)."""
    pending: dict[str, Any] = game.state.flags.pop(PENDING_KEY, {})
    for cid, text in pending.items():
        ch = game.state.characters.get(cid)
        vid, seat = text.split(":", 1)
        v = game.state.vehicles.get(vid)
        if ch is None or v is None or not ch.is_active or ch.vehicle is not None:
            continue
        why = "" if ch.hex == v.hex else f"{v.name} is not in his hex"
        why = why or ("" if v.seats[seat].occupant is None and not v.destroyed else "his seat is taken")
        if why:
            _stays(game, ch, why)
        else:
            _board(game, ch, v, seat, "at the end of the turn")
