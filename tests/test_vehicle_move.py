"""Vehicle movement and facing: C2 31.4 examples 1-2, 31.5 (impassable, trees, the table), 31.6, 31.11.1, 28.

Maps: tests/data/vehicle_open.yaml (all open, printed size 35 x 20, even columns low) and
tests/data/vehicle_terrain.yaml (features listed in its header).
"""

from __future__ import annotations

import functools

import pytest
from conftest import DATA_DIR
from hypothesis import given, settings
from hypothesis import strategies as st

from solo.core.chance_records import Pick, Roll
from solo.core.dice import Dice, ScriptedSource
from solo.core.errors import IllegalChoiceError
from solo.core.hexes import Hex, neighbour, opposite, rotate
from solo.data.cards import DirectionString
from solo.data.maps import Board, load_map
from solo.data.orders import OrderTable, load_orders
from solo.data.terrain import VehicleEntry, load_terrain
from solo.data.vehicle_types import VehicleKind
from solo.rules.vehicles.move_state import MoveReport, StepKind, StopReason, VehicleMoveState
from solo.rules.vehicles.movement import move_impulse
from solo.rules.vehicles.speed_and_terrain import (
    ALTERNATE_DIRECTIONS,
    alternate_row,
    convert_speed,
    forbidden_speeds,
    mired_on_entry,
    road_direction,
    vehicle_entry,
)
from solo.rules.vehicles.turning import free_turn, turn_turret, turn_turret_toward_hex

AFV = VehicleKind.AFV


@functools.cache
def orders() -> OrderTable:
    return load_orders()


@functools.cache
def board(name: str) -> Board:
    return Board.from_map(load_map(DATA_DIR / f"{name}.yaml", load_terrain()))


def ds(text: str) -> DirectionString:
    return DirectionString.parse(text)


def run(
    start: VehicleMoveState,
    order: str,
    directions: str | None,
    impulses: tuple[int, ...],
    *,
    name: str = "vehicle_open",
    kind: VehicleKind = AFV,
    is_enemy: bool = True,
    rolls: tuple[int, ...] | None = None,
    **kw,
) -> list[tuple[VehicleMoveState, MoveReport]]:
    """Run ``impulses`` of one order in turn; the state after each and its report."""
    dice = Dice(ScriptedSource(rolls)) if rolls is not None else None
    out = []
    state = start
    dirs = ds(directions) if directions is not None else None
    for imp in impulses:
        state, report = move_impulse(
            board(name), kind, state, orders().get(order), dirs, imp, is_enemy=is_enemy, dice=dice, **kw
        )
        out.append((state, report))
    return out


def where(results: list[tuple[VehicleMoveState, MoveReport]]) -> list[tuple[str, int]]:
    return [(str(s.hex), s.facing) for s, _ in results]


def kinds(report: MoveReport) -> list[StepKind]:
    return [s.kind for s in report.steps]


# ---------------------------------------------------------------------------
# 31.4 movement examples


def test_example_1_hexes_and_facings() -> None:
    """31.4 example 1: Panzer IVH in 22.14 facing 6, Ahead Slow 6/5, impulse by impulse."""
    res = run(VehicleMoveState.at("22.14", 6), "ahead_slow", "6/5", (1, 2, 3, 4))
    assert where(res) == [("21.14", 6), ("20.14", 5), ("19.14", 5), ("17.15", 5)]
    assert not any(r.order_changed for _, r in res)


def test_example_1_steps() -> None:
    """31.4 example 1: I2 free turn then move; I3 free turn, move, paid turn; I4 two moves."""
    res = run(VehicleMoveState.at("22.14", 6), "ahead_slow", "6/5", (1, 2, 3, 4))
    assert [kinds(r) for _, r in res] == [
        [StepKind.MOVE],
        [StepKind.FREE_TURN, StepKind.MOVE],
        [StepKind.FREE_TURN, StepKind.MOVE, StepKind.PAID_TURN],
        [StepKind.MOVE, StepKind.MOVE],
    ]
    i3 = res[2][1].steps
    assert (i3[0].facing, i3[1].hex, i3[2].facing, i3[2].point) == (6, Hex.parse("19.14"), 5, 2)


def test_example_2_hexes_and_facings() -> None:
    """31.4 example 2: facing 6, Ahead Slow 2/3: I1 turns to 2 in place, then as example 1."""
    res = run(VehicleMoveState.at("22.14", 6), "ahead_slow", "2/3", (1, 2, 3, 4))
    assert where(res) == [("22.14", 2), ("23.15", 3), ("24.14", 3), ("26.15", 3)]


def test_example_2_first_impulse_turns_via_1() -> None:
    """31.4 example 2, I1: free turn 6→1, then the one point turns 1→2; the tank stays."""
    (state, report), *_ = run(VehicleMoveState.at("22.14", 6), "ahead_slow", "2/3", (1,))
    assert kinds(report) == [StepKind.FREE_TURN, StepKind.PAID_TURN]
    assert [s.facing for s in report.steps] == [1, 2]
    assert report.hexes_moved == 0 and state.hex == Hex.parse("22.14")


def test_example_2_second_impulse_free_turn_and_move() -> None:
    """31.4 example 2, I2: free turn to 3 and one hex straight ahead."""
    res = run(VehicleMoveState.at("22.14", 6), "ahead_slow", "2/3", (1, 2))
    assert kinds(res[1][1]) == [StepKind.FREE_TURN, StepKind.MOVE]


def test_free_turn_only_at_start_of_impulse() -> None:
    """31.4: a vehicle facing its first slot's way has no free turn left for the second point."""
    (state, report), *_ = run(VehicleMoveState.at("10.10", 6), "ahead_slow", "6/5", (3,))
    assert kinds(report) == [StepKind.MOVE, StepKind.PAID_TURN]
    assert state.facing == 5


def test_turret_turns_with_hull() -> None:
    """[house] Hull turns carry the turret; with turret_follows_hull=False it stays."""
    res = run(VehicleMoveState.at("22.14", 6, 1), "ahead_slow", "6/5", (2,))
    assert res[0][0].turret == 6
    res = run(VehicleMoveState.at("22.14", 6, 1), "ahead_slow", "6/5", (2,), turret_follows_hull=False)
    assert res[0][0].turret == 1


def test_no_slots_no_steps() -> None:
    """Crawl has no movement on Impulse 2: nothing happens."""
    (state, report), *_ = run(VehicleMoveState.at("10.10", 3), "crawl", "6", (2,))
    assert report.steps == () and state == VehicleMoveState.at("10.10", 3)


# ---------------------------------------------------------------------------
# 180° turns (31.4)


def test_enemy_180_turns_toward_spotted_friendly() -> None:
    """31.4: an Enemy turning 180° turns toward the side with a Spotted Friendly in LOS."""

    def spotted(hex_: Hex, sweep: tuple[int, ...]) -> bool:
        return 2 in sweep

    (_, report), *_ = run(
        VehicleMoveState.at("10.10", 1), "ahead_slow", "4", (1,), friendly_spotted_in_los=spotted
    )
    assert [s.facing for s in report.steps] == [2, 3]
    assert report.rolls == ()


def test_enemy_180_turn_random_when_no_spotted_side() -> None:
    """31.4: with no Spotted Friendly on one side only, the way is a logged random pick."""
    (_, report), *_ = run(VehicleMoveState.at("10.10", 1), "ahead_slow", "4", (1,), rolls=(2,))
    assert [s.facing for s in report.steps] == [6, 5]
    assert isinstance(report.rolls[0], Pick) and report.rolls[0].label == "anticlockwise"


def test_friendly_180_turn_player_way() -> None:
    """A Friendly player may choose the way of a 180° turn."""
    (state, _), *_ = run(VehicleMoveState.at("10.10", 1), "ahead_slow", "4", (1,), is_enemy=False, turn_way=1)
    assert state.facing == 3


def test_180_turn_needs_dice() -> None:
    """A random 180° turn without dice raises ValueError."""
    with pytest.raises(ValueError, match="180"):
        run(VehicleMoveState.at("10.10", 1), "ahead_slow", "4", (1,))


# ---------------------------------------------------------------------------
# Reverse and Emergency Stop


def test_reverse_moves_backward() -> None:
    """31.11.2 Reverse: the vehicle backs into the hex behind it, keeping its facing."""
    (state, report), *_ = run(VehicleMoveState.at("10.10", 1), "reverse", "4", (1,))
    assert (str(state.hex), state.facing) == ("10.11", 1)
    assert kinds(report) == [StepKind.MOVE]


def test_reverse_turns_to_face_away() -> None:
    """Reverse 3 from facing 1: free turn to 6 (facing away from 3), then back into direction 3."""
    (state, report), *_ = run(VehicleMoveState.at("10.10", 1), "reverse", "3", (1,))
    assert (str(state.hex), state.facing) == ("11.11", 6)
    assert kinds(report) == [StepKind.FREE_TURN, StepKind.MOVE]


def test_emergency_stop_does_not_move() -> None:
    """31.2: an Emergency Stop order stops the vehicle at once."""
    (state, report), *_ = run(VehicleMoveState.at("10.10", 1), "emergency_stop", "1", (1,))
    assert state.hex == Hex.parse("10.10") and report.stop is StopReason.EMERGENCY_STOP


def test_on_enter_stops_with_emergency_stop() -> None:
    """31.2 (1) / 27.7: the on_enter check may stop the vehicle right after a hex."""
    (state, report), *_ = run(
        VehicleMoveState.at("10.10", 1), "ahead_slow", "1", (4,), on_enter=lambda s: "mine: immobilized"
    )
    assert str(state.hex) == "10.09" and report.order_id == "emergency_stop"
    assert report.stop is StopReason.ON_ENTER and report.hexes_moved == 1


# ---------------------------------------------------------------------------
# 31.5 Impassable terrain


def test_impassable_example() -> None:
    """31.5 example: facing 6, Crawl 6, impassable 5, 6, 1; d10 6 → 1/6 → Crawl 2/1, ends facing 1."""
    (state, report), *_ = run(
        VehicleMoveState.at("10.10", 6), "crawl", "6", (1,), name="vehicle_terrain", rolls=(6,)
    )
    assert (report.order_id, str(report.directions)) == ("crawl", "2/1")
    assert (str(state.hex), state.facing) == ("10.10", 1)
    assert kinds(report) == [StepKind.ORDER_CHANGE, StepKind.PAID_TURN]
    assert [r.total for r in report.rolls] == [6]
    assert report.order_changed


def test_impassable_example_variant_rolls_again() -> None:
    """31.5: with direction 5 open, the 6/1 row is rolled on (d10 2 → 5/6, the tank turns to 5)."""
    (state, report), *_ = run(
        VehicleMoveState.at("20.10", 6), "crawl", "6", (1,), name="vehicle_terrain", rolls=(6, 2)
    )
    assert str(report.directions) == "5/6" and state.facing == 5
    assert [r.total for r in report.rolls] == [6, 2]


def test_impassable_first_result_usable() -> None:
    """31.5: a d10 0-4 result that allows movement is taken at once (6 → 5/6)."""
    (_, report), *_ = run(
        VehicleMoveState.at("20.10", 6), "crawl", "6", (1,), name="vehicle_terrain", rolls=(3,)
    )
    assert str(report.directions) == "5/6" and len(report.rolls) == 1


def test_boxed_in_emergency_stop() -> None:
    """[house] 31.5: no table result allows movement: Emergency Stop."""
    (state, report), *_ = run(
        VehicleMoveState.at("30.16", 6), "crawl", "6", (1,), name="vehicle_terrain", rolls=(6,)
    )
    assert report.order_id == "emergency_stop" and report.stop is StopReason.BOXED_IN
    assert state == VehicleMoveState.at("30.16", 6)


def test_could_move_later_turns_toward_next_impulse() -> None:
    """31.5: direction 6 impassable, direction 5 open next Impulse: the point turns toward 5."""
    res = run(VehicleMoveState.at("30.10", 6), "ahead_slow", "6/5", (1, 2), name="vehicle_terrain")
    (s1, r1), (s2, r2) = res
    assert (str(s1.hex), s1.facing, kinds(r1)) == ("30.10", 5, [StepKind.PAID_TURN])
    assert (str(s2.hex), s2.facing, kinds(r2)) == ("29.11", 5, [StepKind.MOVE])
    assert r1.order_id == "ahead_slow" and r1.rolls == ()


def test_could_move_later_already_facing() -> None:
    """31.5: already facing the later direction, the point is not used and no free turn is made."""
    (state, report), *_ = run(
        VehicleMoveState.at("30.10", 5), "ahead_slow", "6/5", (1,), name="vehicle_terrain"
    )
    assert kinds(report) == [StepKind.IDLE] and state == VehicleMoveState.at("30.10", 5)


def test_impassable_on_last_impulse_rolls_table() -> None:
    """31.5: on Impulse 4 no later Impulse remains: the table is read (d10 0 on row 6 → 5/6)."""
    (state, report), *_ = run(
        VehicleMoveState.at("30.10", 6), "ahead_slow", "6", (4,), name="vehicle_terrain", rolls=(0,)
    )
    assert (report.order_id, str(report.directions)) == ("crawl", "5/6")
    assert state == VehicleMoveState.at("30.10", 6)  # Crawl has no movement on Impulse 4


def test_friendly_impassable_emergency_stop() -> None:
    """31.5: a Friendly order into an impassable hex gives Emergency Stop at once, no turning."""
    (state, report), *_ = run(
        VehicleMoveState.at("30.10", 5), "ahead_slow", "6", (1,), name="vehicle_terrain", is_enemy=False
    )
    assert report.order_id == "emergency_stop" and report.stop is StopReason.IMPASSABLE
    assert state == VehicleMoveState.at("30.10", 5)


def test_fire_hex_blocked() -> None:
    """C2 29.2: a hex ``blocked`` reports (Fire) is impassable."""
    fire = Hex.parse("10.09")
    (state, report), *_ = run(
        VehicleMoveState.at("10.10", 1), "crawl", "1", (1,), is_enemy=False, blocked=lambda h: h == fire
    )
    assert report.stop is StopReason.IMPASSABLE and state.hex == Hex.parse("10.10")


# ---------------------------------------------------------------------------
# Trees, wheeled vehicles, entry


@pytest.mark.parametrize("kind", [VehicleKind.AFV, VehicleKind.HALF_TRACK])
def test_trees_switch_to_crawl_and_stop(kind: VehicleKind) -> None:
    """31.5 note: an AFV or Half-Track entering Trees takes Crawl (same directions) and stops."""
    (state, report), *_ = run(
        VehicleMoveState.at("04.04", 4), "ahead_slow", "5/4", (4,), name="vehicle_terrain", kind=kind
    )
    assert str(state.hex) == "04.05" and report.hexes_moved == 1
    assert (report.order_id, str(report.directions), report.stop) == ("crawl", "5/4", StopReason.TREES)


def test_friendly_jeep_into_trees_blocked() -> None:
    """31.5 note: Jeeps treat Trees as impassable: a Friendly jeep makes an Emergency Stop."""
    (state, report), *_ = run(
        VehicleMoveState.at("04.04", 4),
        "ahead_slow",
        "4",
        (1,),
        name="vehicle_terrain",
        kind=VehicleKind.JEEP,
        is_enemy=False,
    )
    assert str(state.hex) == "04.04" and report.stop is StopReason.IMPASSABLE


def test_enemy_truck_into_trees_uses_table() -> None:
    """31.5: an Enemy truck facing Trees with no later way reads the table (d10 0 → 3/4)."""
    (state, report), *_ = run(
        VehicleMoveState.at("04.04", 4),
        "crawl",
        "4",
        (1,),
        name="vehicle_terrain",
        kind=VehicleKind.TRUCK,
        rolls=(0,),
    )
    assert str(report.directions) == "3/4" and state == VehicleMoveState.at("04.04", 3)


def test_vehicle_entry_by_kind() -> None:
    """31.5, 27.7: wire stops jeeps and trucks, not AFVs; buildings stop all; off-map is impassable."""
    b = board("vehicle_terrain")
    wire, building = Hex.parse("06.05"), Hex.parse("10.09")
    assert vehicle_entry(b, VehicleKind.TRUCK, wire) is VehicleEntry.IMPASSABLE
    assert vehicle_entry(b, VehicleKind.AFV, wire) is VehicleEntry.PASS
    assert vehicle_entry(b, VehicleKind.HALF_TRACK, building) is VehicleEntry.IMPASSABLE
    assert vehicle_entry(b, VehicleKind.AFV, None) is VehicleEntry.IMPASSABLE
    assert vehicle_entry(b, VehicleKind.AFV, Hex.parse("40.40")) is VehicleEntry.IMPASSABLE


def test_mired_in_mud() -> None:
    """C2 28.2: in Mud a jeep off the road rolls d10; 8-9 is Mired; AFVs and road hexes roll nothing."""
    b = board("vehicle_terrain")
    dice = Dice(ScriptedSource([8]))
    mired, roll = mired_on_entry(b, VehicleKind.JEEP, Hex.parse("10.10"), "mud", dice)
    assert mired and isinstance(roll, Roll)
    assert mired_on_entry(b, VehicleKind.JEEP, Hex.parse("14.03"), "mud", dice) == (False, None)
    assert mired_on_entry(b, VehicleKind.AFV, Hex.parse("10.10"), "mud", dice) == (False, None)


# ---------------------------------------------------------------------------
# Roads (31.11.1)


def test_road_follows_bend() -> None:
    """31.11.1: Road Ahead Slow follows the road 14.02→14.04, turns at the bend to 17.05."""
    res = run(
        VehicleMoveState.at("14.02", 4), "ahead_slow", None, (1, 2, 3, 4), name="vehicle_terrain", road=True
    )
    assert where(res) == [("14.03", 4), ("14.04", 4), ("15.04", 2), ("17.05", 3)]
    assert kinds(res[2][1]) == [StepKind.FREE_TURN, StepKind.PAID_TURN, StepKind.MOVE]
    assert all(r.road for _, r in res)


def test_road_fork_is_random() -> None:
    """31.11.1 [house]: a fork at equal angles is a logged random pick."""
    (state, report), *_ = run(
        VehicleMoveState.at("24.03", 4),
        "ahead_slow",
        None,
        (4,),
        name="vehicle_terrain",
        road=True,
        rolls=(1,),
    )
    assert (str(state.hex), state.facing) == ("24.04", 3)
    assert isinstance(report.rolls[0], Pick)


def test_road_ends_stops() -> None:
    """[house] Under Road Orders with no road within 2 hexsides ahead, the vehicle stops."""
    (state, report), *_ = run(
        VehicleMoveState.at("23.05", 5), "crawl", None, (1,), name="vehicle_terrain", road=True
    )
    assert report.stop is StopReason.ROAD_ENDS and state.hex == Hex.parse("23.05")


def test_road_blocked_uses_table() -> None:
    """31.5 under Road Orders: the road direction is the current direction; Road Orders end."""
    fire = Hex.parse("14.03")
    (_, report), *_ = run(
        VehicleMoveState.at("14.02", 4),
        "crawl",
        None,
        (1,),
        name="vehicle_terrain",
        road=True,
        rolls=(0,),
        blocked=lambda h: h == fire,
    )
    assert (report.road, report.order_id, str(report.directions)) == (False, "crawl", "3/4")


def test_road_direction_excludes_behind() -> None:
    """31.11.1: the road straight behind is never taken."""
    b = board("vehicle_terrain")
    assert road_direction(b, Hex.parse("14.03"), 1) == (1, ())
    assert road_direction(b, Hex.parse("14.02"), 1) == (None, ())


# ---------------------------------------------------------------------------
# Turrets (31.6) and free turns


def test_turret_turns_one_hexside_shortest() -> None:
    """31.6: one hexside per Impulse, the shortest way."""
    state, step = turn_turret(VehicleMoveState.at("10.10", 1), 5)
    assert state.turret == 6 and state.facing == 1 and step is not None


def test_turret_already_facing() -> None:
    """31.6: no turn when the turret already faces the way."""
    state = VehicleMoveState.at("10.10", 1, 3)
    assert turn_turret(state, 3) == (state, None)


def test_turret_180_random() -> None:
    """31.6: equidistant, the turret turns randomly (logged pick)."""
    state, step = turn_turret(VehicleMoveState.at("10.10", 1), 4, dice=Dice(ScriptedSource([1])))
    assert state.turret == 2 and step is not None and isinstance(step.rolls[0], Pick)
    with pytest.raises(ValueError):
        turn_turret(VehicleMoveState.at("10.10", 1), 4)


def test_turret_toward_hex() -> None:
    """31.6: the turret turns only toward a target outside its front arc."""
    b = board("vehicle_open")
    state = VehicleMoveState.at("10.10", 1)
    assert turn_turret_toward_hex(b, state, Hex.parse("10.05")) == (state, None)
    new, _ = turn_turret_toward_hex(b, state, Hex.parse("10.15"), dice=Dice(ScriptedSource([2])))
    assert new.turret == 6
    new, _ = turn_turret_toward_hex(b, state, Hex.parse("14.12"))
    assert new.turret == 2


def test_friendly_free_turn() -> None:
    """31.4: a Friendly vehicle may turn one hexside without a movement order, no more."""
    state, step = free_turn(VehicleMoveState.at("10.10", 1), 6)
    assert (state.facing, state.turret, step.kind) == (6, 6, StepKind.FREE_TURN)
    with pytest.raises(IllegalChoiceError):
        free_turn(VehicleMoveState.at("10.10", 1), 3)


# ---------------------------------------------------------------------------
# Speeds in weather and ground (28.1-28.2)


@pytest.mark.parametrize(
    ("order", "weather", "ground", "expected"),
    [
        ("fast", "mist", "normal", "forward"),
        ("forward", "mist", "normal", "forward"),
        ("fast", "fog", "normal", "ahead_slow"),
        ("forward", "fog", "normal", "ahead_slow"),
        ("fast", "clear", "mud", "forward"),
        ("fast", "clear", "snow", "forward"),
        ("forward", "clear", "deep_snow", "ahead_slow"),
        ("fast", "mist", "deep_snow", "ahead_slow"),
        ("reverse", "fog", "deep_snow", "reverse"),
        ("crawl", "fog", "normal", "crawl"),
        ("fast", "rain", "normal", "fast"),
    ],
)
def test_convert_speed(order: str, weather: str, ground: str, expected: str) -> None:
    """C2 28.1-28.2: Enemy speeds are reduced in Mist/Mud/Snow (no Fast) and Fog/Deep Snow (no Forward)."""
    new, reason = convert_speed(order, weather, ground, AFV, True)
    assert new == expected and (reason is None) == (new == order)


def test_forbidden_speeds() -> None:
    """C2 28.1-28.2: the speeds a Friendly Driver may not be given."""
    assert forbidden_speeds("clear", "normal") == ()
    assert forbidden_speeds("mist", "normal") == ("fast",)
    assert forbidden_speeds("clear", "deep_snow") == ("forward", "fast")


# ---------------------------------------------------------------------------
# The table as data, errors, properties

PRINTED_TABLE = """
1 6/1 2/1
2 1/2 3/2
3 2/3 4/3
4 3/4 5/4
5 4/5 6/5
6 5/6 1/6
1/2 6/1 3/2
2/3 1/2 4/3
3/4 2/3 5/4
4/5 3/4 6/5
5/6 4/5 1/6
6/1 5/6 2/1
"""


def test_alternate_table_as_printed() -> None:
    """31.5: the Enemy Alternate Movement Direction Table holds the printed rows, X/Y = Y/X."""
    for line in PRINTED_TABLE.split("\n"):
        if not line:
            continue
        cur, low, high = line.split()
        for key in {cur, "/".join(reversed(cur.split("/")))}:
            row = alternate_row(ds(key))
            assert (str(row.low), str(row.high)) == (low, high)
    assert len(ALTERNATE_DIRECTIONS) == 12


def test_alternate_table_turns_with_counter() -> None:
    """The table is rotation-equivariant, so map directions give the counter's answer."""
    for row in ALTERNATE_DIRECTIONS:
        turned = alternate_row(DirectionString(tuple(rotate(d, 1) for d in row.current)))
        assert turned.low.directions == tuple(rotate(d, 1) for d in row.low.directions)
        assert turned.high.directions == tuple(rotate(d, 1) for d in row.high.directions)


def test_bad_calls() -> None:
    """A non-vehicle order or missing directions raise ValueError."""
    with pytest.raises(ValueError, match="not a vehicle"):
        move_impulse(
            board("vehicle_open"), AFV, VehicleMoveState.at("10.10", 1), orders().get("sneak"), ds("1"), 1,
            is_enemy=True,
        )  # fmt: skip
    with pytest.raises(ValueError, match="directions"):
        run(VehicleMoveState.at("10.10", 1), "crawl", None, (1,))


DIRECTION_TEXTS = ("1", "2", "3", "4", "5", "6", "1/2", "2/1", "3/4", "4/3", "5/6", "6/1")


@settings(max_examples=150, deadline=None)
@given(
    order=st.sampled_from(("crawl", "ahead_slow", "forward", "fast", "reverse")),
    dirs=st.sampled_from(DIRECTION_TEXTS),
    facing=st.integers(1, 6),
    impulse=st.integers(1, 4),
)
def test_moves_only_along_the_hull(order: str, dirs: str, facing: int, impulse: int) -> None:
    """31.4: every hex entered is straight ahead (Reverse: behind); points spent never exceed the slots."""
    start = VehicleMoveState.at("17.10", facing)
    (end, report), *_ = run(start, order, dirs, (impulse,), rolls=(), turn_way=1, is_enemy=False)
    hex_, face = start.hex, start.facing
    free = 0
    for step in report.steps:
        if step.kind is StepKind.MOVE:
            way = opposite(face) if order == "reverse" else face
            assert step.hex == neighbour(hex_, way, board("vehicle_open").map.stagger)
        elif step.kind is StepKind.FREE_TURN:
            free += 1
            assert step.point is None
        hex_, face = step.hex, step.facing
    points = [s.point for s in report.steps if s.point is not None]
    assert free <= 1 and len(points) == len(orders().get(order).slots(impulse))
    assert (end.hex, end.facing) == (hex_, face)
