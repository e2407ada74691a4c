"""Spotting, alerting, dummies and hiding (base-rules §3, §5.6, §9, 8.1; C2 23.1, 24.1, 27.6, 28.2).

Maps: tests/data/open_test.yaml (all open, 40 x 12) and tests/data/features_test.yaml (trees
06.09 and 09.09 with a foxhole on 09.09, a hedge hexside above 03.08).
"""

from __future__ import annotations

import pytest
from conftest import action_game, man, order, script

from solo.core.hexes import Hex
from solo.core.options import Options
from solo.data.tables import MoraleState
from solo.enemy.hooks import Enemy
from solo.engine.game import Game
from solo.rules import spotting
from solo.rules.state import Status, Wound

# ---------------------------------------------------------------------------
# Helpers


def dummy(cid: str, hex_: str) -> dict:
    """An Enemy dummy counter spec (base-rules §3)."""
    return {"id": cid, "hex": hex_, "dummy": True}


def spots(game: Game) -> list:
    return [e for e in game.events if e.kind == "spot"]


@pytest.fixture
def alerts(monkeypatch):
    """Record ai.alert calls (and make the man Alert), keeping the AI's card draws out."""
    calls = []

    def fake(game, ch, reason, rule):
        calls.append((ch.id, rule))
        ch.alert = True

    monkeypatch.setattr(Enemy, "alert", staticmethod(fake))
    return calls


# ---------------------------------------------------------------------------
# The threshold (base-rules §9 step 2)


def test_threshold_pass_at_threshold_fail_above(tmp_path):
    """d10 <= threshold spots; threshold + 1 fails (base-rules §9 step 3)."""
    # TQ 5 + morale 0 + open/S0 (Hide) -2 + range 7: 0 + smoke 0 = 3
    game = action_game(tmp_path, [man("f1", "05.10")], [man("e1", "05.03")])
    order(game, "e1", "hide")
    f1, e1 = game.char("f1"), game.char("e1")
    assert spotting.spot_check(game, f1, e1).threshold == 3
    script(game, [4, 3])
    assert spotting.spot(game, f1, e1) is False and not e1.revealed
    assert spotting.spot(game, f1, e1) is True and e1.revealed
    first = spots(game)[0]
    assert first.data["threshold"] == 3 and first.data["roll"] == 4 and first.data["success"] is False
    assert "TQ 5" in first.text and "open/S0 -2" in first.text and "range 7: 0" in first.text


def test_natural_9_fails_at_threshold_12(tmp_path):
    """A natural 9 always fails, even against 12 (C2 23.1)."""
    # TQ 8 + open/S3 (Sprint) +2 + range 1: +2 = 12
    game = action_game(tmp_path, [man("f1", "05.10", tq=8)], [man("e1", "05.09")])
    order(game, "e1", "sprint", "1")
    f1, e1 = game.char("f1"), game.char("e1")
    assert spotting.spot_check(game, f1, e1).threshold == 12
    script(game, [9])
    assert spotting.spot(game, f1, e1) is False
    assert "natural 9" in spots(game)[0].text


def test_natural_0_passes_at_threshold_0_not_below(tmp_path):
    """A 0 passes when the threshold is 0 or more, not when it is negative (base-rules §0)."""
    # TQ 2 + open/S0 -2 + range 7: 0 = 0; with a Light Wound -1
    game = action_game(tmp_path, [man("f1", "05.10", tq=2)], [man("e1", "05.03")])
    order(game, "e1", "hide")
    f1, e1 = game.char("f1"), game.char("e1")
    script(game, [0, 0])
    f1.wounds.append(Wound.LIGHT)
    assert spotting.spot_check(game, f1, e1).threshold == -1
    assert spotting.spot(game, f1, e1) is False
    f1.wounds.clear()
    assert spotting.spot(game, f1, e1) is True


@pytest.mark.parametrize(("tq", "bonus"), [(5, 1), (7, 1), (8, 0), (9, 0)])
def test_eagle_eyes_caps_at_8(tmp_path, tq, bonus):
    """Eagle Eyes adds 1 to the spotting TQ, never above 8 (C2 24.1)."""
    game = action_game(tmp_path, [man("f1", "05.10", tq=tq, skills=["eagle_eyes"])], [man("e1", "05.03")])
    check = spotting.spot_check(game, game.char("f1"), game.char("e1"))
    assert check.eagle_eyes == bonus and check.tq == tq


@pytest.mark.parametrize(
    ("col", "modifier"),
    [(6, 2), (7, 1), (9, 1), (10, 0), (15, 0), (16, -1), (25, -1), (26, -2), (35, -2), (36, -3)],
)
def test_range_bands(tmp_path, col, modifier):
    """Range modifier: 0-1 +2, 2-4 +1, 5-10 0, 11-20 -1, 21-30 -2, -1 more per 10 (base-rules §9)."""
    game = action_game(tmp_path, [man("f1", "05.05")], [man("e1", f"{col:02d}.05")])
    check = spotting.spot_check(game, game.char("f1"), game.char("e1"))
    assert check.range == col - 5 == game.distance(Hex.parse("05.05"), Hex.parse(f"{col:02d}.05"))
    assert check.range_modifier == modifier


def test_smoke_on_the_line(tmp_path):
    """Smoke on the line lowers the threshold: Fading -2, Smoke -4, end hexes included (§13)."""
    game = action_game(tmp_path, [man("f1", "05.10")], [man("e1", "05.03")])
    f1, e1 = game.char("f1"), game.char("e1")
    before = spotting.spot_check(game, f1, e1).threshold
    game.los.set_smoke(Hex.parse("05.06"), -2)
    game.los.set_smoke(Hex.parse("05.03"), -4)
    check = spotting.spot_check(game, f1, e1)
    assert check.smoke == -6 and check.threshold == before - 6


def test_waiting_enemy_reads_s2(tmp_path):
    """A Waiting enemy is spotted in column S2 whatever he holds (base-rules §4 last row)."""
    game = action_game(tmp_path, [man("f1", "05.10")], [man("e1", "05.03")], alert=False)
    check = spotting.spot_check(game, game.char("f1"), game.char("e1"))
    assert check.group == 2 and check.chart == 0


def test_friendly_without_order_counts_as_hide(tmp_path):
    """A Friendly without an order is a Hide target (S0, 7.0)."""
    game = action_game(tmp_path, [man("f1", "05.03")], [man("e1", "05.10")])
    assert spotting.target_spot_group(game, game.char("f1")) == 0


@pytest.mark.parametrize(
    ("state", "mod"), [(MoraleState.SHAKEN, -2), (MoraleState.CAUTIOUS, -1), (MoraleState.BOLD, 0)]
)
def test_morale_modifies_spotting(tmp_path, state, mod):
    """The spotter's morale fire-WS modifier applies to spotting (base-rules §20 Q7)."""
    game = action_game(tmp_path, [man("f1", "05.10")], [man("e1", "05.03")])
    game.char("f1").morale = state
    assert spotting.spot_check(game, game.char("f1"), game.char("e1")).morale == mod


def test_morale_option_off(tmp_path):
    """With morale_modifies_spotting off, morale does not count (§20 Q7 option)."""
    game = action_game(
        tmp_path, [man("f1", "05.10")], [man("e1", "05.03")], options=Options(morale_modifies_spotting=False)
    )
    game.char("f1").morale = MoraleState.SHAKEN
    assert spotting.spot_check(game, game.char("f1"), game.char("e1")).morale == 0


def test_winter_camouflage_in_snow(tmp_path):
    """Winter Camouflage: -1 to spot the man in snow (C2 28.2)."""
    game = action_game(
        tmp_path, [man("f1", "05.10")], [man("e1", "05.03", skills=["winter_camouflage"])], ground="snow"
    )
    assert spotting.spot_check(game, game.char("f1"), game.char("e1")).camouflage == -1


# ---------------------------------------------------------------------------
# Chart rows: hexsides, overlays (base-rules §9 step 5; C2 27.6)


def test_hedge_on_the_crossed_edge_gives_its_row(tmp_path):
    """A hedge on the hexside the line crosses into the target's hex: the more protective row (§9 step 5)."""
    game = action_game(tmp_path, [man("f1", "03.02")], [man("e1", "03.08")], map_id="features_test")
    check = spotting.spot_check(game, game.char("f1"), game.char("e1"))
    assert check.row == "hedge" and check.row_from == "hexside hedge" and check.chart == -1


def test_hedge_on_another_edge_does_not_count(tmp_path):
    """A hedge on an edge the line does not cross leaves the terrain row (§9 step 5)."""
    game = action_game(tmp_path, [man("f1", "03.11")], [man("e1", "03.08")], map_id="features_test")
    check = spotting.spot_check(game, game.char("f1"), game.char("e1"))
    assert check.row == "open" and check.chart == 0


def test_hedge_on_spotters_edge_is_ignored(tmp_path):
    """A hexside feature on the spotter's own edge is ignored (§16 hexsides)."""
    game = action_game(tmp_path, [man("f1", "03.08")], [man("e1", "03.02")], map_id="features_test")
    check = spotting.spot_check(game, game.char("f1"), game.char("e1"))
    assert check.row == "open"


def test_foxhole_in_trees_uses_the_better_row(tmp_path):
    """A foxhole in Trees: the better of the two rows for the target (C2 27.6)."""
    # Run & Gun is S3: Trees 0, Foxhole -1.
    game = action_game(tmp_path, [man("f1", "09.03")], [man("e1", "09.09")], map_id="features_test")
    order(game, "e1", "run_and_gun", "1")
    check = spotting.spot_check(game, game.char("f1"), game.char("e1"))
    assert (check.row, check.chart) == ("foxhole", -1)
    script(game, [0])
    spotting.spot(game, game.char("f1"), game.char("e1"))
    assert "C2 27.6" in spots(game)[0].rule


def test_cover_rows_lists_terrain_first(tmp_path):
    """cover_rows gives the terrain row first, then overlays and hexsides (§9 step 5)."""
    game = action_game(tmp_path, [man("f1", "09.03")], [man("e1", "09.09")], map_id="features_test")
    rows = spotting.cover_rows(game, Hex.parse("09.03"), Hex.parse("09.09"))
    assert rows == [("trees", "terrain trees"), ("foxhole", "overlay foxhole")]


def test_abbey_rows_by_where_the_spotter_stands(tmp_path):
    """Abbey: inside row and -1 per Abbey hex passed from inside; outside row from outside (C2 27.5)."""
    game = action_game(
        tmp_path, [man("f1", "18.10")], [man("e1", "21.11"), man("e2", "17.09")], map_id="abbey_test"
    )
    f1 = game.char("f1")
    inside = spotting.spot_check(game, f1, game.char("e1"))
    assert (inside.row, inside.abbey) == ("abbey_inside", -2)
    f1.hex = Hex.parse("10.09")
    assert spotting.spot_check(game, f1, game.char("e1")) is None  # an Interior hex is not seen from outside
    outside = spotting.spot_check(game, f1, game.char("e2"))
    assert (outside.row, outside.abbey) == ("abbey_outside", 0)


# ---------------------------------------------------------------------------
# Results: Spotted, Known, Alert, dummies (base-rules §9 step 4, §5.6)


def test_enemy_spotter_alerts_on_success(tmp_path, alerts):
    """A Waiting enemy who spots becomes Alert, the Friendly Spotted (§5.6 condition 9)."""
    game = action_game(tmp_path, [man("f1", "05.03")], [man("e1", "05.10")], alert=False)
    order(game, "f1", "evade", "1")
    script(game, [0])
    assert spotting.spot(game, game.char("e1"), game.char("f1"))
    assert game.char("f1").revealed and alerts == [("e1", "§5.6 condition 9")]
    assert not game.char("e1").revealed  # a real spotter stays Unknown


def test_impulse_start_waiting_enemies_spot(tmp_path, alerts):
    """At Impulse start every Waiting enemy tries for every unspotted Friendly in LOS (§9 step 6)."""
    game = action_game(
        tmp_path,
        [man("f1", "05.03"), man("f2", "07.03"), man("f3", "06.03", revealed=True)],
        [man("e1", "05.10"), man("e2", "07.10")],
        alert=False,
    )
    # e1 -> f1 fails, e1 -> f2 succeeds; e2 -> f1 succeeds (f2 now Spotted).
    script(game, [9, 0, 0])
    spotting.impulse_start(game)
    assert [(e.data["spotter"], e.data["target"]) for e in spots(game)] == [
        ("e1", "f1"),
        ("e1", "f2"),
        ("e2", "f1"),
    ]
    assert game.char("f1").revealed and game.char("f2").revealed
    assert [c for c, _r in alerts] == ["e1", "e2"]


def test_impulse_start_ignores_alert_enemies(tmp_path):
    """Alert enemies spot in their own activations, not at Impulse start (§9 step 6)."""
    game = action_game(tmp_path, [man("f1", "05.03")], [man("e1", "05.10")], alert=True)
    script(game, [])
    spotting.impulse_start(game)
    assert spots(game) == []


def test_dummy_spotter_is_removed(tmp_path):
    """A dummy spots with the dummy TQ; on success it is removed (§3, §5.6 condition 9)."""
    # dummy TQ 1 + open/S4 (Evade) +1 + range 3: +1 = 3
    game = action_game(tmp_path, [man("f1", "05.07")], [dummy("d1", "05.10")], alert=False)
    order(game, "f1", "evade", "1")
    d1, f1 = game.char("d1"), game.char("f1")
    assert spotting.spot_check(game, d1, f1).threshold == 3
    script(game, [4, 3])
    spotting.impulse_start(game)
    assert d1.hex == Hex.parse("05.10") and not f1.revealed
    spotting.impulse_start(game)
    assert d1.hex is None and d1.status is Status.EXITED and f1.revealed
    assert game.state.flags[spotting.REMOVED_DUMMIES] == ["d1"]


def test_dummy_tq_option(tmp_path):
    """The dummy's spotting TQ is the option dummy_tq (§3)."""
    game = action_game(tmp_path, [man("f1", "05.07")], [dummy("d1", "05.10")], options=Options(dummy_tq=4))
    assert spotting.spot_check(game, game.char("d1"), game.char("f1")).tq == 4


def test_spotted_dummy_is_removed(tmp_path):
    """A Friendly who spots a dummy removes it (§3, §9 step 4)."""
    game = action_game(tmp_path, [man("f1", "05.10")], [dummy("d1", "05.03"), man("e1", "20.03")])
    script(game, [0])
    assert spotting.spot(game, game.char("f1"), game.char("d1"))
    assert game.char("d1").hex is None and any(e.kind == "dummy_removed" for e in game.events)


def test_no_los_no_roll(tmp_path):
    """Without LOS there is no attempt and no roll (§9 step 1)."""
    game = action_game(tmp_path, [man("f1", "06.07")], [man("e1", "06.11")], map_id="features_test")
    order(game, "f1", "hide")
    game.char("e1").hex = Hex.parse("06.11")
    # The trees at 06.09 stand between 06.07 and 06.11.
    script(game, [])
    assert spotting.spot(game, game.char("f1"), game.char("e1")) is False
    assert spots(game) == []


# ---------------------------------------------------------------------------
# The spotting segment (Step 4 a) ii)


def test_segment_tries_every_unseen_opponent_once(tmp_path):
    """The segment tries each opponent in LOS not yet Known, once per activation (§9 step 6)."""
    game = action_game(
        tmp_path,
        [man("f1", "05.10")],
        [man("e1", "05.03"), man("e2", "07.03", revealed=True), man("e3", "09.03")],
    )
    f1 = game.char("f1")
    script(game, [9, 0])
    spotting.spotting_segment(game, f1)
    assert [e.data["target"] for e in spots(game)] == ["e1", "e3"]
    spotting.spotting_segment(game, f1)  # the same activation: no second try
    assert len(spots(game)) == 2
    game.state.flow.impulse = 2
    script(game, [0])
    spotting.spotting_segment(game, f1)
    assert game.char("e1").revealed


def test_scan_reads_the_viewer_again_after_each_answer(tmp_path):
    """The spotting scan asks each target with the viewer as he is then (a spot may change him, §5.6)."""
    game = action_game(
        tmp_path, [man("f1", "06.11")], [man("e1", "06.10"), man("e2", "06.07")], map_id="features_test"
    )
    f1 = game.char("f1")
    assert not game.sees(f1, game.char("e2"))  # the trees at 06.09 stand between
    found = []
    for target, sight in game.clear_sights(f1, game.state.roster(f1.side.other)):
        found.append(target.id)
        assert sight.clear
        f1.hex = Hex.parse("06.08")  # next to e2 now
    assert found == ["e1", "e2"]


def test_scan_stops_when_the_viewer_is_gone(tmp_path):
    """A dummy that spots is removed: it tries no one else (§3, §5.6 condition 9)."""
    game = action_game(tmp_path, [man("f1", "05.06"), man("f2", "06.06")], [dummy("d1", "05.05")])
    order(game, "f1", "search")
    order(game, "f2", "search")
    script(game, [0])
    spotting.spotting_segment(game, game.char("d1"))
    assert [(e.data["target"], e.data["success"]) for e in spots(game)] == [("f1", True)]
    assert game.char("d1").hex is None and not game.char("f2").revealed


def test_waiting_enemy_skips_the_segment(tmp_path):
    """A Waiting enemy spots at Impulse start, not in a segment (§9 step 6)."""
    game = action_game(tmp_path, [man("f1", "05.03")], [man("e1", "05.10")], alert=False)
    script(game, [])
    spotting.spotting_segment(game, game.char("e1"))
    assert spots(game) == []


# ---------------------------------------------------------------------------
# Alerting (base-rules §5.6)


@pytest.mark.parametrize(
    ("radius", "alerted"), [(spotting.ALERT_FIRE, ["e1", "e2"]), (spotting.ALERT_HIT, ["e1"])]
)
def test_alert_near(tmp_path, alerts, radius, alerted):
    """alert_near alerts the Waiting enemies within the radius (§5.6 conditions 1, 3, 5, 7)."""
    game = action_game(
        tmp_path,
        [man("f1", "05.00")],
        [man("e1", "08.05"), man("e2", "15.05"), man("e3", "16.05")],
        alert=False,
    )
    out = spotting.alert_near(game, Hex.parse("05.05"), radius, "a weapon fired", "§5.6 condition 1")
    assert out == alerted and [c for c, _r in alerts] == alerted


def test_end_phase_leader_alerts_within_ldr(tmp_path, alerts):
    """Condition 6: within LDR hexes of a Known, Alert officer or NCO (§5.6)."""
    game = action_game(
        tmp_path,
        [man("f1", "05.00")],
        [man("e1", "05.05", ldr=5), man("e2", "10.05"), man("e3", "11.05")],
        alert=False,
    )
    e1 = game.char("e1")
    e1.alert = True
    spotting.end_phase_alerts(game)
    assert alerts == []  # not Known yet
    e1.revealed = True
    spotting.end_phase_alerts(game)
    assert alerts == [("e2", "§5.6 condition 6")]


def test_end_phase_alert_neighbour_within_3(tmp_path, alerts):
    """Condition 8: within 3 hexes of an Alert enemy; no chain in one End Phase (§5.6)."""
    game = action_game(
        tmp_path,
        [man("f1", "05.00")],
        [man("e1", "05.05"), man("e2", "08.05"), man("e3", "11.05")],
        alert=False,
    )
    game.char("e1").alert = True
    spotting.end_phase_alerts(game)
    assert alerts == [("e2", "§5.6 condition 8")]


# ---------------------------------------------------------------------------
# Hiding (8.1)


@pytest.mark.parametrize(("roll", "hidden"), [(5, True), (6, False), (9, False)])
def test_end_phase_hide_tqc(tmp_path, roll, hidden):
    """A Spotted Friendly on Hide in Cover becomes Hidden on a TQC: at TQ yes, TQ+1 no, 9 no (8.1)."""
    game = action_game(
        tmp_path, [man("f1", "06.09", revealed=True)], [man("e1", "11.00")], map_id="features_test"
    )
    order(game, "f1", "hide")
    script(game, [roll])
    spotting.end_phase_hide(game)
    assert game.char("f1").revealed is not hidden


def test_end_phase_hide_needs_cover_and_hide(tmp_path):
    """No roll in the Open or without Hide (8.1)."""
    game = action_game(
        tmp_path,
        [man("f1", "05.05", revealed=True), man("f2", "06.09", revealed=True)],
        [man("e1", "11.00")],
        map_id="features_test",
    )
    order(game, "f1", "hide")
    order(game, "f2", "aimed_fire")
    script(game, [])
    spotting.end_phase_hide(game)
    assert game.char("f1").revealed and game.char("f2").revealed


def test_scan_under_smoke_and_fire_finds_what_sight_finds():
    """Issue 10: under Smoke, Fading Smoke and Fire markers (C2 29.2, 29.5; base-rules §13) the
    spotting scan yields, for every viewer on a shipped map, exactly the (target, sight) pairs that
    a clear :meth:`sight` gives, in roster order, and answers blocked lines without filling the
    game's marker cache (a line blocked without markers is blocked with them)."""
    from conftest import order as give_order

    from solo.playtest.play import new_game
    from solo.rules.smoke import place_smoke, sync_los

    game = new_game("the_churchyard", seed=1, record_rolls=False, keep_events=False)
    assert game.state.max_los is None and not game.scenario.night  # the scan's own path
    board = game.los.board
    n = len(board.hexes)
    men = [c for c in game.state.roster() if c.hex is not None]
    for k, ch in enumerate(men):
        if k % 3 == 0:
            give_order(game, ch.id, "hide")  # a low order: S terrain blocks, D terrain hides (C2 27.8)

    def scan() -> list:
        return [
            (v.id, t.id, s) for v in men for t, s in game.clear_sights(v, game.state.roster(v.side.other))
        ]

    def by_sight() -> list:
        return [
            (v.id, t.id, s)
            for v in men
            for t in game.state.roster(v.side.other)
            if t.hex is not None and not t.revealed
            for s in [game.sight(v, t.hex, target=t)]
            if s.clear
        ]

    blocked = smoked = 0
    for layout in range(4):
        for k, ch in enumerate(men):  # spread the men over the map, a new spread each layout
            ch.hex = board.hexes[(k * 97 + layout * 41 + 13) % n]
        game.los.clear_cache()
        for h in list(game.state.markers.smoke) + list(game.state.markers.fire):
            game.state.markers.smoke.pop(h, None)
            game.state.markers.fire.pop(h, None)
            sync_los(game, h)
        game.state.flags.pop("smoke_markers", None)
        free = scan()
        assert free == by_sight()  # marker-free: fills the shared answers
        for k in range(layout, n, 4):
            place_smoke(game, board.hexes[k], "smoke" if k % 2 else "fading", cause="test")
        for k in range(layout + 5, n, 29):
            game.state.markers.fire[board.hexes[k]] = "fire"
            sync_los(game, board.hexes[k])
        marked = scan()
        scanned = game.los.cache_size()
        assert marked == by_sight()
        assert scanned < game.los.cache_size()  # the scan left blocked lines out of the cache
        seen = {(v, t) for v, t, _ in marked}
        assert seen <= {(v, t) for v, t, _ in free}  # markers clear no line
        blocked += len(free) - len(seen)
        smoked += sum(1 for _, _, s in marked if s.smoke)
    assert blocked and smoked  # the markers blocked some lines and put smoke on others
