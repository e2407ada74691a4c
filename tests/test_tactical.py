"""The ``tactical`` Friendly policy and the balance summary (issue 13 items 1-2)."""

import pytest
from conftest import house_data, make_game

from solo.core.decisions import Decision, DecisionKind, Option
from solo.core.hexes import Hex
from solo.core.log import write_log
from solo.playtest.balance import BAND, balance_row, format_balance
from solo.playtest.batch_records import GameRecord
from solo.playtest.play import header_for, new_game, replay
from solo.playtest.policies import make_policy
from solo.playtest.tactical import TacticalPolicy, _attack_order, _charge_favours, _fire_target, hit_chance
from solo.rules.state import Side


def test_hit_chance_at_the_thresholds():
    """d10 0-9 at or under the WS hits; a natural 9 always misses (C2 23.1)."""
    assert hit_chance(-1) == 0.0
    assert hit_chance(0) == pytest.approx(0.1)
    assert hit_chance(5) == pytest.approx(0.6)
    assert hit_chance(8) == pytest.approx(0.9)
    assert hit_chance(9) == pytest.approx(0.9)  # natural 9
    assert hit_chance(12) == pytest.approx(0.9)


def _fire(*labels):
    opts = [Option(f"t{i}", lab) for i, lab in enumerate(labels)] + [Option("hold", "Hold fire")]
    return Decision(DecisionKind.FIRE_TARGET, "fire at", tuple(opts), actor="able_1")


def test_fire_target_takes_the_best_modified_ws_first_offered_on_ties():
    d = _fire("A (3 hexes, M1, modified WS 4)", "B (5 hexes, M1, modified WS 6)", "C (modified WS 6)")
    assert _fire_target(d) == "t1"
    assert _fire_target(_fire("A (modified WS -2)")) == "t0"  # a poor shot beats holding
    only_hold = Decision(DecisionKind.FIRE_TARGET, "fire at", (Option("hold", "Hold fire"),))
    assert _fire_target(only_hold) == "hold"


@pytest.mark.parametrize(
    ("firer", "weapon", "ws", "rng", "want"),
    [
        ("able_1", "m3_smg", 7, 1, "rapid_fire"),  # eff 9: 4 x 0.8 > 2 x 0.9
        ("baker_1", "bar", 6, 15, "rapid_fire"),  # eff 4 (13-30: -2): 4 x 0.3 > 2 x 0.5
        ("baker_1", "bar", 5, 15, "aimed_fire"),  # eff 3: 4 x 0.2 = 2 x 0.4, a tie goes to Aimed
        ("baker_1", "bar", 4, 15, "aimed_fire"),  # eff 2: 4 x 0.1 < 2 x 0.3
    ],
)
def test_rapid_or_aimed_fire_by_the_weapon_and_range(tmp_path, firer, weapon, ws, rng, want):
    """Rapid Fire (four shots at WS -2) against Aimed Fire (two at WS +0), base-rules §4, §10."""
    from solo.rules.state import CarriedWeapon

    g = make_game(tmp_path)
    ch = g.char(firer)
    ch.weapons = (CarriedWeapon(weapon, ws),)
    target = g.char("red_1")
    target.revealed = True
    target.hex = Hex(ch.hex.col, ch.hex.row - rng)
    assert g.distance(ch.hex, target.hex) == rng
    assert _attack_order(g, ch, ("aimed_fire", "rapid_fire", "sneak", "hide"), [target]) == want


def test_tactical_games_are_deterministic_and_replay(tmp_path):
    """The same seed gives the same game; its log replays (no dice drawn by the policy)."""
    data = house_data()
    texts = []
    for _ in range(2):
        g = new_game("first_contact", seed=4, data=data)
        g.play(TacticalPolicy())
        texts.append([e.text for e in g.events])
    assert texts[0] == texts[1]
    log = tmp_path / "t.jsonl"
    write_log(log, header_for(g, "first_contact", 4, policy="tactical"), g.events)
    assert replay(log, data=data).ok


def test_tactical_is_made_by_name():
    assert make_policy("tactical").name == "tactical"
    with pytest.raises(ValueError, match="tactical"):
        make_policy("genius")


def _rec(seed, winner, vp, fk=0, ek=0):
    return GameRecord("house", seed, winner, vp, 6, friendly_killed=fk, enemy_killed=ek)


def test_balance_row_counts_wins_vp_casualties_and_empty_games():
    recs = [
        _rec(1, "friendly", 9, ek=3),
        _rec(2, "enemy", 0),
        _rec(3, "enemy", -1, fk=1),
        _rec(4, "enemy", 2, ek=2),
    ]
    row = balance_row("x", "tactical", recs)
    assert row.games == 4
    assert row.wins.estimate == pytest.approx(0.25)
    assert 0 < row.wins.low < 0.25 < row.wins.high < 1
    assert row.mean_vp == pytest.approx(2.5)
    assert row.friendly_casualties == pytest.approx(0.25)
    assert row.enemy_casualties == pytest.approx(1.25)
    assert row.empty == pytest.approx(0.25)
    assert row.vp_counts == ((-1, 1), (0, 1), (2, 1), (9, 1))
    assert row.share_at_least(2) == pytest.approx(0.5)
    assert row.share_at_least(3) == pytest.approx(0.25)
    assert row.in_band and BAND == (0.25, 0.75)
    low = balance_row("y", "simple", [_rec(1, "enemy", 0)])
    assert not low.in_band
    table = format_balance([row, low])
    assert "| `x` | tactical | 4 | 25 %" in table
    assert "| `y` | simple | 1 | 0 %" in table and "⚠" in table.splitlines()[-1]
    with pytest.raises(ValueError):
        balance_row("z", "tactical", [])


def test_bot_map_caches_are_per_board_not_per_map_id():
    """A user map with a shipped map's id (a lower "town") must not get the
    shipped town's edge lines or transport stops (31.3): the caches live on each map's board."""
    from types import SimpleNamespace

    import attrs

    from solo.data.maps import Board
    from solo.data.scenario_format import MapSide
    from solo.playtest.tactical import _edge_hex
    from solo.playtest.tactical_transport import ALERT_RANGE, _stops
    from solo.rules.state import Side

    data = house_data()
    town = Board.from_map(data.maps["town"], data.terrain)
    shipped = data.maps["town"]
    keep = [h for h in shipped.terrain if h.row < 10]  # a user "town" 10 rows high
    small = attrs.evolve(
        shipped,
        rows=10,
        terrain={h: shipped.terrain[h] for h in keep},
        level={h: shipped.level[h] for h in keep},
        hexsides={k: v for k, v in shipped.hexsides.items() if all(h.row < 10 for h in k)},
        overlays={h: v for h, v in shipped.overlays.items() if h.row < 10},
        roads=tuple(r for r in shipped.roads if all(h.row < 10 for h in r)),
    )
    other = Board.from_map(small, data.terrain)
    assert len(town.hexes) != len(other.hexes)

    def game(board):
        enemy = SimpleNamespace(hex=board.hexes[15])  # index 15 on both boards, not the same hex
        state = SimpleNamespace(active=lambda side: [enemy] if side is Side.ENEMY else [])
        return SimpleNamespace(board=board, state=state, scenario=SimpleNamespace(minefields=""))

    for board in (town, other):
        g = game(board)
        east = _edge_hex(g, MapSide.EAST, board.hexes[0])
        assert east in board.index and east.col == max(h.col for h in board.hexes)
        x0, y0, z0 = board.cube[15]
        near = {
            i
            for i, (x, y, z) in enumerate(board.cube)
            if max(abs(x - x0), abs(y - y0), abs(z - z0)) <= ALERT_RANGE
        }
        assert _stops(g) == near | {board.index[h] for h in board.map.minefields}


@pytest.mark.parametrize(("men", "cover", "want"), [(4, False, False), (5, False, True), (5, True, False)])
def test_charge_only_at_four_to_one_against_a_defender_in_the_open(tmp_path, men, cover, want):
    """Charge (§11) when the men within 1 hex outnumber the lone defender by CHARGE_ODDS (4) and he
    stands in the Open: 4 men against 1 is not enough, 5 are; 5 against one in Cover do not."""
    g = make_game(tmp_path)
    ch = g.char("able_1")
    pairs = [
        (a, b)
        for a in g.board.hexes
        for b in g.board.hexes
        if g.distance(a, b) == 1
        and not g.board.is_cover(a)
        and g.board.is_cover(b) == cover
        and g.board.terrain_of(a).character_passable
        and g.board.terrain_of(b).character_passable
    ]
    here, there = min(pairs, key=lambda p: (str(p[0]), str(p[1])))
    friends = [c for c in g.state.active(Side.FRIENDLY) if c is not ch]
    assert len(friends) >= men - 1
    for i, c in enumerate(friends):
        c.hex = here if i < men - 1 else None
    ch.hex = here
    target = g.char("red_1")
    target.revealed = True
    target.hex = there
    for e in g.state.active(Side.ENEMY):
        if e is not target:
            e.hex = None
    assert g.in_cover(target) == cover
    assert _charge_favours(g, ch, target) == want
    assert (_attack_order(g, ch, ("charge", "sneak", "hide"), [target]) == "charge") == want
