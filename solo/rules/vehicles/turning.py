"""Turning (C2 31.4, 31.6): the free hexside turn, the way round on a 180-degree turn, turning the turret.

May import: solo.rules.vehicles.move_state and the rules below, and the rooms below rules."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from solo.core.chance_records import ChanceRecord
from solo.core.dice import Dice
from solo.core.errors import IllegalChoiceError
from solo.core.hexes import (
    Arc,
    Direction,
    Hex,
    check_direction,
    in_arcs,
    rotate,
    turn_steps,
    wedge_directions,
)
from solo.data.maps import Board
from solo.rules.vehicles.move_state import MoveStep, StepKind, VehicleMoveState


def _way_name(way: int) -> str:
    return "clockwise" if way > 0 else "anticlockwise"


def _choose_way(
    facing: Direction,
    target: Direction,
    *,
    hex_: Hex,
    is_enemy: bool,
    friendly_spotted_in_los: Callable[[Hex, tuple[Direction, ...]], bool] | None,
    turn_way: int | None,
    dice: Dice | None,
    what: str,
) -> tuple[int, str, tuple[ChanceRecord, ...]]:
    """The way (+1 clockwise, −1 anticlockwise) to turn ``facing`` toward ``target`` (31.4)."""
    steps = turn_steps(facing, target)
    if steps == 0:
        raise ValueError("no turn needed")
    if steps != 3:
        return (1 if steps > 0 else -1, "", ())
    if is_enemy and friendly_spotted_in_los is not None:
        cw = friendly_spotted_in_los(hex_, (rotate(facing, 1), rotate(facing, 2)))
        acw = friendly_spotted_in_los(hex_, (rotate(facing, -1), rotate(facing, -2)))
        if cw != acw:
            way = 1 if cw else -1
            return (way, f"; 180°: {_way_name(way)}, toward a Spotted Friendly in LOS", ())
    if not is_enemy and turn_way is not None:
        if turn_way not in (1, -1):
            raise ValueError(f"turn_way is +1 (clockwise) or -1 (anticlockwise), got {turn_way!r}")
        return (turn_way, f"; 180°: {_way_name(turn_way)}, the player's choice", ())
    if dice is None:
        raise ValueError(f"{what}: a 180° turn needs dice for the random way")
    pick = dice.choice(("clockwise", "anticlockwise"), f"{what}: which way to turn 180° (C2 31.4)")
    way = 1 if pick.index == 0 else -1
    return (way, f"; 180°: {_way_name(way)} by random pick", (pick,))


def free_turn(
    state: VehicleMoveState, new_facing: Direction, *, turret_follows_hull: bool = True
) -> tuple[VehicleMoveState, MoveStep]:
    """A Friendly vehicle's free hexside change without a movement order (C2 31.4, last sentence).

    ``new_facing`` must be one hexside from the facing; the engine allows it once per
    Impulse when someone sits in the Driver position. The turret turns with the hull when
    ``turret_follows_hull`` [house]. Raises :class:`~solo.core.errors.IllegalChoiceError` for
    any other facing.
    """
    check_direction(new_facing)
    way = turn_steps(state.facing, new_facing)
    if abs(way) != 1:
        raise IllegalChoiceError(
            f"a free turn is one hexside: from facing {state.facing} to "
            f"{rotate(state.facing, -1)} or {rotate(state.facing, 1)}, not {new_facing}"
        )
    turret = rotate(state.turret, way) if turret_follows_hull else state.turret
    new = VehicleMoveState(state.hex, new_facing, turret)
    step = MoveStep(
        StepKind.FREE_TURN,
        state.hex,
        new_facing,
        f"free turn {state.facing}→{new_facing} without a movement order",
        "C2 31.4",
    )
    return (new, step)


def turn_turret(
    state: VehicleMoveState, toward: Direction, *, dice: Dice | None = None
) -> tuple[VehicleMoveState, MoveStep | None]:
    """Turn the turret one hexside toward direction ``toward`` (C2 31.6).

    The shortest way; when ``toward`` is straight behind, the way is a logged random pick
    (``dice`` must then be given, else :class:`ValueError`). Returns the new state and
    the step, or the same state and ``None`` when the turret already faces ``toward``.
    """
    check_direction(toward)
    if state.turret == toward:
        return (state, None)
    way, note, rolls = _choose_way(
        state.turret,
        toward,
        hex_=state.hex,
        is_enemy=False,
        friendly_spotted_in_los=None,
        turn_way=None,
        dice=dice,
        what="turret",
    )
    turret = rotate(state.turret, way)
    new = attrs.evolve(state, turret=turret)
    text = f"turret turns {state.turret}→{turret} toward direction {toward}{note}"
    return (new, MoveStep(StepKind.TURRET_TURN, state.hex, turret, text, "C2 31.6", rolls=rolls))


def turn_turret_toward_hex(
    board: Board, state: VehicleMoveState, target: Hex, *, dice: Dice | None = None
) -> tuple[VehicleMoveState, MoveStep | None]:
    """Turn the turret one hexside toward ``target`` if it is out of the turret's front arc (C2 31.6).

    The arc is the house arc model (:data:`solo.core.hexes.HOUSE_ARCS`); a target on the
    hexspine at the edge of the front arc counts as inside. Turns toward the nearer of the
    target's wedge directions, by :func:`turn_turret`. Returns ``(state, None)`` when no
    turn is needed. Raises :class:`~solo.core.errors.GeometryError` if ``target`` is the
    vehicle's hex.
    """
    stagger = board.map.stagger
    if in_arcs(state.hex, state.turret, target, stagger, (Arc.FRONT,)):
        return (state, None)
    wedges = wedge_directions(state.hex, target, stagger)
    toward = min(wedges, key=lambda d: abs(turn_steps(state.turret, d)))
    return turn_turret(state, toward, dice=dice)
