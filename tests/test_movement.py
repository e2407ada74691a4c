"""Movement: Friendly order limits, direction slots, the Direction Counter and entering hexes.

base-rules §4, §6, §11, §16; C2 27.3, 27.7, 28.2, 29.2, 30.0. Maps: tests/data/open_test.yaml
(all open, 40 x 12) and tests/data/features_test.yaml (rocks 02.02, wire 05.05, bocage above
08.05, trees 06.09 and 09.09).
"""

from __future__ import annotations

import attrs
import pytest
from conftest import action_game, house_data, man, order, script

from solo.core.hexes import Hex, rotate
from solo.core.options import Options
from solo.data.orders import TrackStep
from solo.enemy.hooks import Enemy
from solo.engine.game import DecisionKind, Game
from solo.rules import direction_numbers, friendly_orders, movement
from solo.rules.state import CarriedWeapon, Phase, Status, Wound

# ---------------------------------------------------------------------------
# Helpers


def drive(gen, answer: str | None = None) -> None:
    """Run a rule generator; a Friendly 'm' step's MAY_MOVE decision is answered "move" (or ``answer``)."""
    try:
        d = next(gen)
        while True:
            if d.kind.value != "may_move":
                raise AssertionError(f"unexpected decision {d}")
            d = gen.send(answer or "move")
    except StopIteration:
        pass


def act(game: Game, ch, impulse: int) -> None:
    """What the engine does in a) iv) for a move step of ``ch`` on ``impulse``."""
    game.state.flow.impulse = impulse
    o = game.order_def(ch)
    step = o.track(impulse)
    if step in (TrackStep.MAY_MOVE, TrackStep.MOVE, TrackStep.MOVE_2):
        drive(movement.move(game, ch, o, step))


def walk(game: Game, start: str, dirs: list[int]) -> list[Hex]:
    """The hexes reached from ``start`` stepping in map directions ``dirs``."""
    h = Hex.parse(start)
    out = []
    for d in dirs:
        h = game.board.neighbour_hex(h, d)
        out.append(h)
    return out


def moves(game: Game) -> list:
    return [e for e in game.events if e.kind == "move"]


@pytest.fixture(autouse=True)
def no_ai_duck_back(monkeypatch):
    """Keep the AI's 9.4 hook out of these tests unless a test sets it."""
    monkeypatch.setattr(Enemy, "duck_back_on_entering", staticmethod(lambda game, ch: False))


@pytest.fixture
def alerts(monkeypatch):
    """Record ai.alert calls (and make the man Alert)."""
    calls = []

    def fake(game, ch, reason, rule):
        calls.append((ch.id, rule))
        ch.alert = True

    monkeypatch.setattr(Enemy, "alert", staticmethod(fake))
    return calls


def dummy(cid: str, hex_: str) -> dict:
    """An Enemy dummy counter spec (no values, base-rules §3)."""
    return {"id": cid, "hex": hex_, "dummy": True}


FAR_ENEMY = [man("ex", "11.11", name="Sch. Far")]
FAR_FRIEND = [man("f9", "00.11", name="Pvt Far")]


# ---------------------------------------------------------------------------
# Slots over four Impulses (base-rules §6 HOUSE RULE)


@pytest.mark.parametrize(
    ("order_id", "start", "expected"),
    [
        # directions "1/2": A = 1, B = 2
        ("sneak", "05.08", {1: [], 2: [1], 3: [], 4: [2]}),
        ("evade", "05.08", {1: [1], 2: [2], 3: [1], 4: [2]}),
        ("sprint", "05.11", {1: [1], 2: [2, 1], 3: [2, 1], 4: [2, 1]}),
        ("run_and_gun", "05.08", {1: [1], 2: [], 3: [1], 4: []}),
        ("charge", "05.08", {1: [1], 2: [2], 3: [1, 2], 4: []}),
        ("carry_drag", "05.08", {1: [], 2: [1], 3: [], 4: [2]}),
    ],
)
def test_slot_patterns_over_four_impulses(tmp_path, order_id, start, expected):
    """Each order moves by its slots: A = X, B = Y of X/Y, impulse by impulse (base-rules §6.1-3)."""
    game = action_game(tmp_path, [man("f1", start)], FAR_ENEMY)
    ch = order(game, "f1", order_id, "1/2")
    at = start
    for imp in (1, 2, 3, 4):
        act(game, ch, imp)
        want = walk(game, at, expected[imp])
        assert ch.hex == (want[-1] if want else Hex.parse(at)), f"impulse {imp}"
        at = str(ch.hex)


def test_single_direction_fills_both_slots(tmp_path):
    """A direction string 'X' gives A = B = X (base-rules §6.2)."""
    game = action_game(tmp_path, [man("f1", "05.11")], FAR_ENEMY)
    ch = order(game, "f1", "sprint", "1")
    act(game, ch, 2)
    assert ch.hex == Hex.parse("05.09")


def test_move_event_lists_path_and_slots(tmp_path):
    """One move event per character per Impulse lists the path and the slots read (§6)."""
    game = action_game(tmp_path, [man("f1", "05.11", name="Pvt Diaz")], FAR_ENEMY)
    ch = order(game, "f1", "sprint", "1/2")
    act(game, ch, 2)
    (ev,) = moves(game)
    assert ev.data["path"] == ["05.11", "06.10", "06.09"]
    assert ev.data["slots"] == ["B", "A"]
    assert "Pvt Diaz" in ev.text and "05.11 → 06.10 → 06.09" in ev.text


# ---------------------------------------------------------------------------
# Blocked hexes (base-rules §6.4-5)


def test_blocked_slot_takes_other_direction(tmp_path):
    """If the slotted hex cannot be entered the other direction is tried (base-rules §6.4)."""
    game = action_game(tmp_path, [man("f1", "05.08")], FAR_ENEMY)
    ch = order(game, "f1", "evade", "1/2")
    game.state.markers.fire[Hex.parse("05.07")] = "fire"
    act(game, ch, 1)
    assert ch.hex == walk(game, "05.08", [2])[0]
    assert "blocked" in moves(game)[0].text


def test_stops_when_both_directions_blocked(tmp_path):
    """Both directions blocked: he stays and stops for the Impulse (base-rules §6.4)."""
    game = action_game(tmp_path, [man("f1", "05.00")], FAR_ENEMY)
    ch = order(game, "f1", "sprint", "1/2")  # 1 and 2 lead off the top edge from row 00 of an odd column
    act(game, ch, 2)
    assert ch.hex == Hex.parse("05.00")
    (ev,) = moves(game)
    assert ev.data["path"] == ["05.00"] and "cannot move" in ev.text


def test_known_enemy_hex_blocks_a_friendly_move(tmp_path):
    """Only Charge and Melee enter a hex holding a Known opponent (base-rules §11, §6.5)."""
    game = action_game(tmp_path, [man("f1", "05.08")], [man("e1", "05.07", revealed=True)])
    ch = order(game, "f1", "evade", "1")
    act(game, ch, 1)
    assert ch.hex == Hex.parse("05.08")


def test_impassable_is_not_entered(tmp_path, monkeypatch):
    """Terrain characters may not enter is never entered (base-rules §6.5)."""
    game = action_game(tmp_path, [man("f1", "05.08")], FAR_ENEMY)
    table = game.board.terrain_table
    monkeypatch.setitem(
        table._by_id, "cliff", attrs.evolve(table["rocks"], id="cliff", character_passable=False)
    )
    monkeypatch.setitem(game.board.map.terrain, Hex.parse("05.07"), "cliff")
    ch = order(game, "f1", "evade", "1")
    act(game, ch, 1)
    assert ch.hex == Hex.parse("05.08")


# ---------------------------------------------------------------------------
# The Direction Counter (base-rules §6; C2 31.11.2)


def test_enemy_directions_read_through_the_counter(tmp_path):
    """An Enemy's order direction is turned by the nearest counter's rotation (base-rules §6)."""
    game = action_game(
        tmp_path, FAR_FRIEND, [man("e1", "05.08")], direction_counters=[{"hex": "05.05", "rotation": 2}]
    )
    ch = order(game, "e1", "evade", "1")
    act(game, ch, 1)
    assert ch.hex == walk(game, "05.08", [3])[0]


def test_friendly_directions_are_the_maps(tmp_path):
    """The player's directions are map directions: no counter applies to them (base-rules §6 users)."""
    game = action_game(
        tmp_path, [man("f1", "05.08")], FAR_ENEMY, direction_counters=[{"hex": "05.05", "rotation": 2}]
    )
    ch = order(game, "f1", "evade", "1")
    act(game, ch, 1)
    assert ch.hex == Hex.parse("05.07")


def test_nearest_counter_applies(tmp_path):
    """With several counters the nearest one turns the directions (base-rules §6)."""
    game = action_game(
        tmp_path,
        FAR_FRIEND,
        [man("e1", "03.03"), man("e2", "20.08")],
        direction_counters=[{"hex": "02.02", "rotation": 1}, {"hex": "22.08", "rotation": 3}],
    )
    assert direction_numbers.map_direction(game, game.char("e1"), 1) == 2
    assert direction_numbers.map_direction(game, game.char("e2"), 1) == 4
    assert direction_numbers.map_direction(game, game.char("e2"), 5) == rotate(5, 3)


def test_counter_tie_is_a_logged_pick_kept_for_the_turn(tmp_path):
    """Equally near counters: a logged random pick, kept for that hex this turn (C2 31.11.2)."""
    game = action_game(
        tmp_path,
        FAR_FRIEND,
        [man("e1", "10.05")],
        direction_counters=[{"hex": "10.02", "rotation": 1}, {"hex": "10.08", "rotation": 3}],
    )
    script(game, [2])  # the second of the two
    ch = game.char("e1")
    assert direction_numbers.map_direction(game, ch, 1) == 4
    assert direction_numbers.map_direction(game, ch, 2) == 5  # no second roll (the script is empty)
    assert [e.kind for e in game.events].count("direction_counter") == 1


# ---------------------------------------------------------------------------
# Barbed wire (C2 27.7)


@pytest.mark.parametrize(("tq", "roll", "leaves"), [(5, 5, True), (5, 6, False), (9, 9, False), (1, 0, True)])
def test_wire_tqc_to_leave(tmp_path, tq, roll, leaves):
    """Leaving wire takes a TQC: pass at TQ, fail at TQ+1, natural 9 fails, 0 passes (C2 27.7)."""
    game = action_game(tmp_path, [man("f1", "05.05", tq=tq)], FAR_ENEMY, map_id="features_test")
    ch = order(game, "f1", "sneak", "4")
    script(game, [roll])
    act(game, ch, 2)
    assert (ch.hex == Hex.parse("05.06")) is leaves
    assert "C2 27.7" in moves(game)[0].rule


def test_wire_needs_sneak_to_leave(tmp_path):
    """Only Sneak may leave a wire hex; no TQC is rolled for another order (C2 27.7)."""
    game = action_game(tmp_path, [man("f1", "05.05")], FAR_ENEMY, map_id="features_test")
    ch = order(game, "f1", "evade", "4")
    script(game, [])
    act(game, ch, 1)
    assert ch.hex == Hex.parse("05.05")
    assert "only Sneak" in moves(game)[0].text


def test_wire_with_a_hiding_comrade_needs_no_tqc(tmp_path):
    """A same-side man on Hide in the wire hex lifts the wire rules (C2 27.7)."""
    game = action_game(tmp_path, [man("f1", "05.05"), man("f2", "05.05")], FAR_ENEMY, map_id="features_test")
    order(game, "f2", "hide")
    ch = order(game, "f1", "evade", "4")
    script(game, [])
    act(game, ch, 1)
    assert ch.hex == Hex.parse("05.06")


def test_wire_is_rough_for_sprint_unless_a_comrade_hides(tmp_path):
    """Sprinting into wire is entering Rough terrain unless a comrade there is on Hide (C2 27.7; 11.0)."""
    game = action_game(tmp_path, [man("f1", "05.04"), man("f2", "05.05")], FAR_ENEMY, map_id="features_test")
    order(game, "f2", "hide")
    ch = order(game, "f1", "sprint", "4")
    act(game, ch, 1)
    assert ch.hex == Hex.parse("05.05")
    assert movement.SPRINT_ROUGH_KEY not in ch.acted


# ---------------------------------------------------------------------------
# Fire hexes (C2 29.2), bocage, rough terrain (11.0)


def test_enemy_facing_fire_with_no_later_move_ducks_back(tmp_path):
    """An Enemy stopped by a Fire hex with no later move this turn takes Duck Back (C2 29.2)."""
    game = action_game(tmp_path, FAR_FRIEND, [man("e1", "05.08")])
    game.state.markers.fire[Hex.parse("05.07")] = "fire"
    ch = order(game, "e1", "sneak", "1")
    act(game, ch, 4)
    assert ch.order.order == "duck_back"
    assert "C2 29.2" in moves(game)[0].rule


def test_enemy_facing_fire_with_a_later_move_just_stops(tmp_path):
    """With a move still possible later this turn he only stops for the Impulse (C2 29.2)."""
    game = action_game(tmp_path, FAR_FRIEND, [man("e1", "05.08")])
    game.state.markers.fire[Hex.parse("05.07")] = "fire"
    f9 = game.char("f9")
    f9.hex, f9.revealed = walk(game, "05.08", [2])[0], True  # a Known man blocks 2 today, not for good
    ch = order(game, "e1", "sneak", "1/2")
    act(game, ch, 2)
    assert ch.order.order == "sneak" and ch.hex == Hex.parse("05.08")


def test_enemy_facing_fire_every_way_ducks_back_early(tmp_path):
    """If every direction of his string burns no later Impulse can move him: Duck Back now (C2 29.2)."""
    game = action_game(tmp_path, FAR_FRIEND, [man("e1", "05.08")])
    game.state.markers.fire[Hex.parse("05.07")] = "fire"
    game.state.markers.fire[walk(game, "05.08", [2])[0]] = "fire"
    ch = order(game, "e1", "sneak", "1/2")
    act(game, ch, 2)
    assert ch.order.order == "duck_back"


def test_friendly_facing_fire_only_stops(tmp_path):
    """The Fire Duck Back is the Enemy's rule; a Friendly just stops (C2 29.2)."""
    game = action_game(tmp_path, [man("f1", "05.08")], FAR_ENEMY)
    game.state.markers.fire[Hex.parse("05.07")] = "fire"
    ch = order(game, "f1", "sneak", "1")
    act(game, ch, 4)
    assert ch.order.order == "sneak" and ch.hex == Hex.parse("05.08")


def test_crossing_bocage_ends_the_move(tmp_path):
    """Crossing a bocage hexside ends the Impulse's move (base-rules §16 hexsides; C2 27.3)."""
    game = action_game(tmp_path, [man("f1", "08.05")], FAR_ENEMY, map_id="features_test")
    ch = order(game, "f1", "sprint", "1")
    act(game, ch, 2)
    assert ch.hex == Hex.parse("08.04")
    assert "bocage" in moves(game)[0].text


def test_sprint_into_rough_ducks_back_at_end_of_impulse(tmp_path):
    """Sprint into Rough terrain: Duck Back at the end of the Impulse (11.0, Step 4 b)."""
    game = action_game(tmp_path, [man("f1", "02.03")], FAR_ENEMY, map_id="features_test")
    ch = order(game, "f1", "sprint", "1")
    act(game, ch, 1)
    assert ch.hex == Hex.parse("02.02") and ch.order.order == "sprint"
    movement.end_of_impulse(game)
    assert ch.order.order == "duck_back"


def test_evade_into_rough_does_not_duck_back(tmp_path):
    """Only Sprint takes Duck Back for Rough terrain (11.0)."""
    game = action_game(tmp_path, [man("f1", "02.03")], FAR_ENEMY, map_id="features_test")
    ch = order(game, "f1", "evade", "1")
    act(game, ch, 1)
    movement.end_of_impulse(game)
    assert ch.hex == Hex.parse("02.02") and ch.order.order == "evade"


def test_crossing_a_hexside_feature_is_rough(tmp_path):
    """Crossing a hedge, wall or bocage hexside counts as entering Rough terrain ([house] §16)."""
    game = action_game(tmp_path, [man("f1", "08.05")], FAR_ENEMY, map_id="features_test")
    ch = order(game, "f1", "sprint", "1")
    act(game, ch, 1)
    movement.end_of_impulse(game)
    assert ch.order.order == "duck_back"


# ---------------------------------------------------------------------------
# Rout off the map (§5.7)


def test_routed_enemy_leaves_the_map(tmp_path):
    """A Routed enemy moving off the map is removed and counts as killed (§5.7)."""
    game = action_game(tmp_path, FAR_FRIEND, [man("e1", "05.00", morale="rout")])
    ch = order(game, "e1", "evade", "1")
    act(game, ch, 1)
    assert ch.status is Status.ROUTED_OFF and ch.hex is None
    assert moves(game)[0].data["path"] == ["05.00", None]


def test_unrouted_enemy_stops_at_the_edge(tmp_path):
    """Off the map is not enterable for anyone else (base-rules §6.5)."""
    game = action_game(tmp_path, FAR_FRIEND, [man("e1", "05.00")])
    ch = order(game, "e1", "evade", "1")
    act(game, ch, 1)
    assert ch.status is Status.ACTIVE and ch.hex == Hex.parse("05.00")


def test_rout_stays_on_map_when_the_option_is_off(tmp_path):
    """With rout_leaves_map off a Routed enemy stops at the edge (§5.7 option)."""
    game = action_game(
        tmp_path, FAR_FRIEND, [man("e1", "05.00", morale="rout")], options=Options(rout_leaves_map=False)
    )
    ch = order(game, "e1", "evade", "1")
    act(game, ch, 1)
    assert ch.status is Status.ACTIVE and ch.hex == Hex.parse("05.00")


# ---------------------------------------------------------------------------
# Entering opponents' hexes (base-rules §11; C2 30.0)


def test_friendly_walks_into_unknown_enemy(tmp_path, alerts):
    """A Friendly entering an Unknown enemy's hex reveals and alerts him, stops, and a melee follows (§11)."""
    game = action_game(tmp_path, [man("f1", "05.08")], [man("e1", "05.07")], alert=False)
    ch = order(game, "f1", "sprint", "1")
    act(game, ch, 2)
    e = game.char("e1")
    assert ch.hex == Hex.parse("05.07")
    assert e.revealed and e.alert and alerts == [("e1", "base-rules §11")]
    assert ch.order.order == "melee"


def test_alerted_defender_with_an_order_takes_melee(tmp_path, alerts):
    """An opponent holding an order when his hex is entered takes Melee ([house] §11 Melee marker)."""
    game = action_game(tmp_path, [man("f1", "05.08")], [man("e1", "05.07")])
    order(game, "e1", "aimed_fire")
    ch = order(game, "f1", "evade", "1")
    act(game, ch, 1)
    assert game.char("e1").order.order == "melee"


def test_friendly_walks_into_a_dummy(tmp_path):
    """Entering a dummy's hex removes the dummy; the mover stops there (§3, §11)."""
    game = action_game(tmp_path, [man("f1", "05.08")], [dummy("e1", "05.07")])
    ch = order(game, "f1", "sprint", "1")
    act(game, ch, 2)
    d = game.char("e1")
    assert d.hex is None and d.status is Status.EXITED
    assert ch.hex == Hex.parse("05.07") and ch.order.order == "sprint"


def test_enemy_walks_into_hidden_friendly(tmp_path):
    """[house] An Enemy entering a Hidden Friendly's hex spots him and a melee follows (§11 mirrored)."""
    game = action_game(tmp_path, [man("f1", "05.07")], [man("e1", "05.08")])
    order(game, "f1", "hide")
    ch = order(game, "e1", "evade", "1")
    act(game, ch, 1)
    assert ch.hex == Hex.parse("05.07")
    assert game.char("f1").revealed and game.char("f1").order.order == "melee"


def test_enemy_does_not_walk_into_spotted_friendly(tmp_path):
    """An Enemy mover never enters a Spotted Friendly's hex without Charge (§11)."""
    game = action_game(tmp_path, [man("f1", "05.07", revealed=True)], [man("e1", "05.08")])
    ch = order(game, "e1", "evade", "1")
    act(game, ch, 1)
    assert ch.hex == Hex.parse("05.08")


def test_charge_takes_the_shortest_path_into_the_target(tmp_path):
    """A Charge with a target goes the shortest way into its hex, then stops ([house] §11)."""
    game = action_game(tmp_path, [man("f1", "05.09")], [man("e1", "05.05", revealed=True)])
    ch = order(game, "f1", "charge", "6", target="e1")
    spots = []
    for imp in (1, 2, 3):
        act(game, ch, imp)
        spots.append(str(ch.hex))
    assert spots == ["05.08", "05.07", "05.05"]


def test_charge_goes_around_fire(tmp_path):
    """The Charge path avoids Fire hexes (C2 29.2; [house] §11 shortest path)."""
    game = action_game(tmp_path, [man("f1", "05.09")], [man("e1", "05.07", revealed=True)])
    game.state.markers.fire[Hex.parse("05.08")] = "fire"
    ch = order(game, "f1", "charge", "1", target="e1")
    for imp in (1, 2, 3):
        act(game, ch, imp)
    assert ch.hex == Hex.parse("05.07")
    assert all("05.08" not in e.data["path"] for e in moves(game))


def test_trained_medic_flees_when_his_hex_is_entered(tmp_path, alerts):
    """An opponent entering a trained medic's hex makes him move 1 hex in a d6 direction (C2 30.0)."""
    game = action_game(tmp_path, [man("f1", "05.08")], [man("e1", "05.07", weapons=(), trained_medic=True)])
    ch = order(game, "f1", "evade", "1")
    script(game, [1])  # d6 1: up (no counter)
    act(game, ch, 1)
    assert game.char("e1").hex == Hex.parse("05.06")
    assert ch.hex == Hex.parse("05.07") and ch.order.order == "evade"
    assert any(e.kind == "medic_flees" for e in game.events)


def test_trained_medic_stays_when_his_way_is_blocked(tmp_path, alerts):
    """[house] A fleeing medic whose d6 hex cannot be entered stays (C2 30.0)."""
    game = action_game(tmp_path, [man("f1", "05.08")], [man("e1", "05.07", weapons=(), trained_medic=True)])
    game.state.markers.fire[Hex.parse("05.06")] = "fire"
    ch = order(game, "f1", "evade", "1")
    script(game, [1])
    act(game, ch, 1)
    assert game.char("e1").hex == Hex.parse("05.07")


def test_ai_duck_back_hook_stops_the_enemy(tmp_path, monkeypatch):
    """After each hex an Enemy enters the AI's 9.4 hook may stop him (base-rules §5.7)."""
    calls = []

    def hook(game, ch):
        calls.append(str(ch.hex))
        game.set_order(ch, "duck_back")
        return True

    monkeypatch.setattr(Enemy, "duck_back_on_entering", staticmethod(hook))
    game = action_game(tmp_path, FAR_FRIEND, [man("e1", "05.08")])
    ch = order(game, "e1", "sprint", "1")
    act(game, ch, 2)
    assert calls == ["05.07"] and ch.hex == Hex.parse("05.07")


def test_carry_drag_moves_the_casualty(tmp_path):
    """Carry/Drag moves an incapacitated comrade with the carrier (base-rules §4)."""
    game = action_game(tmp_path, [man("f1", "05.08"), man("f2", "05.08")], FAR_ENEMY)
    game.char("f2").status = Status.INCAPACITATED
    ch = order(game, "f1", "carry_drag", "1")
    act(game, ch, 2)
    assert game.char("f2").hex == ch.hex == Hex.parse("05.07")


# ---------------------------------------------------------------------------
# Friendly order limits (base-rules §4)


def options_of(game: Game, cid: str) -> list[str]:
    return [k for k, _label in friendly_orders.friendly_order_options(game, game.char(cid))]


def test_plain_rifleman_options(tmp_path):
    """A rifleman may Sprint and fire, but not Melee, Guard, Plan, Medical Aid, grenades or Wait (§4)."""
    game = action_game(tmp_path, [man("f1", "05.08")], FAR_ENEMY)
    opts = options_of(game, "f1")
    assert {"aimed_fire", "rapid_fire", "sneak", "evade", "sprint", "hide", "rally", "run_and_gun"} <= set(
        opts
    )
    for no in ("melee", "guard", "plan", "medical_aid", "grenade", "rifle_grenade", "waiting", "duck_back"):
        assert no not in opts
    assert all(game.data.orders.get(k).kind.value == "character" for k in opts)


def test_wounded_cannot_sprint(tmp_path):
    """Any wound forbids Sprint (base-rules §4)."""
    game = action_game(tmp_path, [man("f1", "05.08")], FAR_ENEMY)
    game.char("f1").wounds.append(Wound.LIGHT)
    opts = options_of(game, "f1")
    assert "sprint" not in opts and "evade" in opts and "run_and_gun" in opts


def test_bad_wound_forbids_run_and_gun_and_evade(tmp_path):
    """A Bad Wound also forbids Run & Gun and Evade (base-rules §4)."""
    game = action_game(tmp_path, [man("f1", "05.08", tq=7)], FAR_ENEMY)
    game.char("f1").wounds.append(Wound.BAD)
    opts = options_of(game, "f1")
    assert not {"sprint", "run_and_gun", "evade"} & set(opts) and "sneak" in opts


@pytest.mark.parametrize(
    ("weapon", "forbidden", "allowed"),
    [("bar", {"sprint"}, {"run_and_gun"}), ("m1919", {"sprint", "run_and_gun"}, {"evade"})],
)
def test_heavy_weapons_limit_orders(tmp_path, weapon, forbidden, allowed):
    """Heavy: no Sprint; very heavy: no Sprint or Run & Gun (base-rules §4; C2 32.3)."""
    game = action_game(tmp_path, [man("f1", "05.08", weapons=((weapon, 5),))], FAR_ENEMY)
    opts = set(options_of(game, "f1"))
    assert not forbidden & opts and allowed <= opts


def test_order_limits_follow_the_weapons_carried_now(tmp_path):
    """The weapon limits are read from the weapons carried now: without the BAR he may Sprint (§4)."""
    game = action_game(tmp_path, [man("f1", "05.08", weapons=(("bar", 5),)), man("f2", "05.09")], FAR_ENEMY)
    assert "sprint" not in options_of(game, "f1") and "sprint" in options_of(game, "f2")
    game.char("f1").weapons = (CarriedWeapon("m1_garand", 5),)
    assert "sprint" in options_of(game, "f1")
    game.char("f2").weapons = (CarriedWeapon("m1919", 5),)
    assert not {"sprint", "run_and_gun"} & set(options_of(game, "f2"))


def test_assistant_loads_only_a_bazooka_in_his_hex(tmp_path):
    """Load Light AT for the Bazooka's Assistant in the Operator's hex, never Fire Light AT (C2 32.1)."""
    game = action_game(
        tmp_path, [man("f1", "05.08", weapons=(("bazooka", 5),)), man("f2", "05.09")], FAR_ENEMY
    )
    assert not {"load_light_at", "fire_light_at"} & set(options_of(game, "f2"))
    game.char("f2").hex = Hex.parse("05.08")
    opts = set(options_of(game, "f2"))
    assert "load_light_at" in opts and "fire_light_at" not in opts
    game.char("f1").status = Status.INCAPACITATED  # only an active Operator (C2 32.1)
    assert "load_light_at" not in options_of(game, "f2")


def test_medical_aid_plan_and_grenades_need_their_man(tmp_path):
    """Medical Aid for medics, Plan for leaders, grenade orders with the grenade (7.14, 7.12, §12)."""
    game = action_game(
        tmp_path,
        [
            man("f1", "05.08", skills=["medic"], ldr=1, weapons=(("m1_garand", 5), ("hand_grenade", 4))),
            man("f2", "05.09", weapons=(("m1_garand", 5), ("m7_rifle_grenade", 4), ("smoke_grenade", 3))),
        ],
        FAR_ENEMY,
    )
    one, two = set(options_of(game, "f1")), set(options_of(game, "f2"))
    assert {"medical_aid", "plan", "grenade"} <= one and not {"rifle_grenade", "smoke_grenade"} & one
    assert {"rifle_grenade", "smoke_grenade"} <= two and not {"medical_aid", "plan", "grenade"} & two


def test_trained_medic_never_fires(tmp_path):
    """A trained medic takes no fire order and never charges (C2 30.0)."""
    game = action_game(tmp_path, [man("f1", "05.08", weapons=(), trained_medic=True)], FAR_ENEMY)
    opts = set(options_of(game, "f1"))
    assert "medical_aid" in opts
    assert not {"aimed_fire", "rapid_fire", "suppressive_fire", "run_and_gun", "charge"} & opts


@pytest.mark.parametrize(
    ("ground", "forbidden"),
    [("mud", {"sprint"}), ("snow", {"sprint"}), ("deep_snow", {"sprint", "evade", "run_and_gun"})],
)
def test_ground_conditions_limit_orders(tmp_path, ground, forbidden):
    """Mud and snow: no Sprint; deep snow: no Sprint, Evade or Run & Gun (C2 28.2)."""
    game = action_game(tmp_path, [man("f1", "05.08")], FAR_ENEMY, ground=ground)
    opts = set(options_of(game, "f1"))
    assert not forbidden & opts and "sneak" in opts


def test_only_melee_when_sharing_a_hex(tmp_path):
    """Men sharing a hex with an opponent get only Melee (base-rules §11)."""
    game = action_game(tmp_path, [man("f1", "05.08")], [man("e1", "05.07", revealed=True)])
    game.char("e1").hex = Hex.parse("05.08")
    assert options_of(game, "f1") == ["melee"]


def test_charge_needs_a_known_enemy_in_reach(tmp_path):
    """Charge is legal only with a Known, chargeable enemy within 4 hexes (base-rules §11)."""
    game = action_game(
        tmp_path, [man("f1", "05.09")], [man("e1", "05.05"), man("e2", "30.05", revealed=True)]
    )
    assert "charge" not in options_of(game, "f1")  # e1 Unknown, e2 too far
    game.char("e1").revealed = True
    assert "charge" in options_of(game, "f1")
    game.char("e1").hex = Hex.parse("05.04")  # 5 hexes
    assert "charge" not in options_of(game, "f1")


def test_guard_only_with_a_prisoner(tmp_path):
    """Guard is offered only with a prisoner in the hex (C2 23.4)."""
    game = action_game(tmp_path, [man("f1", "05.08")], [man("e1", "05.07"), *FAR_ENEMY])
    assert "guard" not in options_of(game, "f1")
    e1 = game.char("e1")
    e1.hex, e1.status = Hex.parse("05.08"), Status.PRISONER
    assert "guard" in options_of(game, "f1")


def test_wire_allows_only_sneak_to_move(tmp_path):
    """In Barbed Wire the only order that may move out is Sneak (C2 27.7)."""
    game = action_game(tmp_path, [man("f1", "05.05")], FAR_ENEMY, map_id="features_test")
    opts = set(options_of(game, "f1"))
    assert "sneak" in opts and not {"evade", "sprint", "run_and_gun"} & opts and "aimed_fire" in opts


def test_played_card_limit(tmp_path):
    """The played card's order limit applies this turn (base-rules §4; card f03 forbids Sprint)."""
    game = action_game(tmp_path, [man("f1", "05.08")], FAR_ENEMY)
    game.state.cards.played = "f03"
    assert "sprint" not in options_of(game, "f1")
    assert "sprint" in friendly_orders.forbidden_orders(game, game.char("f1"))


def test_routed_friendly_may_only_evade(tmp_path):
    """[house] §20 Q26: a Routed Friendly may only Evade."""
    game = action_game(tmp_path, [man("f1", "05.08", morale="rout")], FAR_ENEMY)
    assert options_of(game, "f1") == ["evade"]


def test_forbidden_orders_say_why(tmp_path):
    """Each forbidden order comes with a reason citing its rule (base-rules §4)."""
    game = action_game(tmp_path, [man("f1", "05.08")], FAR_ENEMY)
    game.char("f1").wounds.append(Wound.LIGHT)
    why = friendly_orders.forbidden_orders(game, game.char("f1"))
    assert "§4" in why["sprint"] and "§11" in why["melee"]


# ---------------------------------------------------------------------------
# Direction strings


def test_direction_options_are_the_eighteen_strings(tmp_path):
    """All 18 strings (1-6 and adjacent pairs) are offered in the open (base-rules §6)."""
    game = action_game(tmp_path, [man("f1", "05.08")], FAR_ENEMY)
    keys = [k for k, _ in direction_numbers.direction_options(game, game.char("f1"))]
    assert keys == list(direction_numbers.DIRECTION_KEYS) and len(keys) == 18
    for k in keys:
        assert str(direction_numbers.parse_directions(k)) == k


def test_direction_options_drop_strings_that_cannot_move(tmp_path):
    """Strings leading only off the map are dropped (base-rules §6)."""
    game = action_game(tmp_path, [man("f1", "01.00")], FAR_ENEMY)
    keys = [k for k, _ in direction_numbers.direction_options(game, game.char("f1"))]
    assert "1" not in keys and "1/2" not in keys and "4" in keys


def test_needs_direction():
    """Move orders take a direction string, fire orders do not (base-rules §6)."""
    orders = house_data().orders
    assert direction_numbers.needs_direction(orders.get("sneak")) and direction_numbers.needs_direction(
        orders.get("charge")
    )
    assert not direction_numbers.needs_direction(orders.get("aimed_fire"))


# ---------------------------------------------------------------------------
# In the engine


def test_engine_turns_with_movement(tmp_path):
    """Two full turns through the engine with movers on both sides raise nothing (base-rules §1)."""
    game = action_game(
        tmp_path,
        [man("f1", "05.10"), man("f2", "06.10", weapons=(("m1_garand", 5), ("hand_grenade", 4)))],
        [man("e1", "05.02"), dummy("e2", "08.02")],
        alert=False,
    )
    game.state.flow.phase = Phase.FRIENDLY_CARD
    game.state.flow.impulse = 0
    prefer = ("evade", "sneak", "sprint")

    def policy(g: Game, d) -> str:
        if d.kind is DecisionKind.GIVE_ORDER:
            return next((k for k in prefer if k in d.keys), d.keys[0])
        if d.kind is DecisionKind.ORDER_DIRECTION:
            return "1" if "1" in d.keys else d.keys[0]
        if d.kind is DecisionKind.DUCK_BACK:
            return "no"
        return d.keys[0]

    for _ in range(60):
        if game.pending is None or game.state.flow.turn > 2:
            break
        game.apply(policy(game, game.pending))
    assert any(e.kind == "move" for e in game.events)
    for ch in game.state.characters.values():
        assert ch.hex is None or game.board.map.has_hex(ch.hex)
        assert ch.hex is None or ch.hex not in game.state.markers.fire


def test_move_state_is_unchanged_for_idle_orders(tmp_path):
    """An order with no move step this Impulse moves nobody (base-rules §4 track)."""
    game = action_game(tmp_path, [man("f1", "05.08")], FAR_ENEMY)
    ch = order(game, "f1", "sneak", "1")
    act(game, ch, 1)
    act(game, ch, 3)
    assert ch.hex == Hex.parse("05.08") and moves(game) == []


def test_a_friendly_may_move_step_can_stay(tmp_path):
    """6.0: a Friendly 'm' step is the player's choice: answering "stay" leaves him in place."""
    game = action_game(tmp_path, [man("f1", "05.08")], FAR_ENEMY)
    ch = order(game, "f1", "sneak", "1/2")
    game.state.flow.impulse = 2
    o = game.order_def(ch)
    gen = movement.move(game, ch, o, o.track(2))
    d = next(gen)
    assert d.kind.value == "may_move" and d.keys == ("move", "stay")
    drive_rest = list(_finish(gen, "stay"))
    assert drive_rest == []
    assert ch.hex == Hex.parse("05.08")


def _finish(gen, key):
    try:
        yield gen.send(key)
    except StopIteration:
        return
