"""Line of sight: terrain, heights, blind hexes, S and D terrain, abbey (27.5), smoke (29.5), limits."""

from pathlib import Path

import pytest
from conftest import scenario_yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from solo.core.hexes import Hex
from solo.data.maps import Board, load_map
from solo.rules.los import LineOfSight

DATA = Path(__file__).parent / "data"
P = Hex.parse


@pytest.fixture(scope="module")
def abbey():
    return LineOfSight(Board.from_map(load_map(DATA / "abbey_test.yaml")))


def make_map(tmp_path, rows, *, legend=None, elevation=None, hexsides=(), overlays=()):
    """A small even-low test map from rows of codes (all columns full)."""
    doc = {
        "id": "t",
        "name": "t",
        "columns": len(rows[0]),
        "rows": len(rows),
        "short_columns": "none",
        "stagger": "even_low",
        "legend": legend
        or {
            ".": "open",
            "B": "building",
            "T": "trees",
            "H": "hedge",
            "G": "long_grass",
            "F": "field",
            "D": "depression",
            "R": "rocks",
        },
        "terrain": "\n".join(rows) + "\n",
    }
    levels = elevation or ["".join("0" if c != " " else c for c in row) for row in rows]
    doc["elevation"] = "\n".join(levels) + "\n"
    if hexsides:
        doc["hexsides"] = list(hexsides)
    if overlays:
        doc["overlays"] = list(overlays)
    p = tmp_path / "t.yaml"
    p.write_text(scenario_yaml(doc))
    return load_map(p)


def COLUMN_WITH(code):
    """Nine rows of three columns with ``code`` in 01.04."""
    return ["..."] * 4 + [f".{code}."] + ["..."] * 4


def los_for(tmp_path, rows, month=6, **kw):
    return LineOfSight(Board.from_map(make_map(tmp_path, rows, **kw)), month=month)


# --- C2 27.5 Abbey example -------------------------------------------------------


def test_abbey_example_outside_viewer_is_blocked_by_exterior(abbey):
    """27.5: Sch. Ziegler in 23.10 cannot see Cpl. Diaz in 21.11: blocked by the exterior 22.10."""
    s = abbey.check(P("23.10"), P("21.11"))
    assert not s.clear
    assert s.blocked_by == P("22.10")


def test_abbey_example_inside_viewer_sees_with_minus_two(abbey):
    """27.5: Sch. Sommer in 18.10 sees Diaz through 19.11 and 20.10 with a -2 modifier."""
    s = abbey.check(P("18.10"), P("21.11"))
    assert s.clear
    assert s.abbey == -2
    assert s.modifier == -2


def test_abbey_example_from_18_09_the_exterior_19_10_does_not_block(abbey):
    """27.5: from 18.09 Sommer still sees Diaz with -2; the exterior 19.10 does not block inside."""
    s = abbey.check(P("18.09"), P("21.11"))
    assert s.clear
    assert s.abbey == -2


def test_abbey_interior_is_never_seen_from_outside(abbey):
    """27.5: fire from outside may only hit Abbey Exterior hexes."""
    assert not abbey.check(P("18.13"), P("19.11"))


# --- C2 29.5 smoke example --------------------------------------------------------


def test_smoke_example_minus_8_blocks_tq_4():
    """29.5: two Smoke markers (-8) in a hex block LOS for a viewer of TQ 4 or less."""
    los = LineOfSight(Board.from_map(load_map(DATA / "abbey_test.yaml")))
    los.set_smoke(P("04.04"), -8)
    s = los.check(P("04.01"), P("04.07"), viewer_tq=4)
    assert not s.clear
    assert s.rule.startswith("C2 29.5")


def test_smoke_example_minus_8_does_not_block_tq_5():
    """29.5: the same -8 does not block a TQ 5 viewer; the line carries the -8 modifier."""
    los = LineOfSight(Board.from_map(load_map(DATA / "abbey_test.yaml")))
    los.set_smoke(P("04.04"), -8)
    s = los.check(P("04.01"), P("04.07"), viewer_tq=5)
    assert s.clear
    assert s.smoke == -8


def test_smoke_counts_end_hexes_and_accumulates(tmp_path):
    """§13: Smoke in the viewer's own hex and Fading Smoke in the target's add up to -6."""
    los = los_for(tmp_path, ["." * 9] * 9)
    los.set_smoke(P("04.01"), -4)
    los.set_smoke(P("04.07"), -2)
    s = los.check(P("04.01"), P("04.07"), viewer_tq=4)
    assert s.clear
    assert s.smoke == -6
    assert not los.check(P("04.01"), P("04.07"), viewer_tq=3).clear  # 6 >= 2 x 3


def test_smoke_change_invalidates_only_lines_through_the_hex(tmp_path):
    """While smoke is out, answers are cached per game; a change drops exactly the lines through that hex."""
    los = los_for(tmp_path, ["." * 9] * 9)
    los.set_smoke(P("00.00"), -2)  # some smoke elsewhere: the game's own cache is in use
    los.check(P("04.01"), P("04.07"))
    los.check(P("07.01"), P("07.07"))
    assert los.cache_size() == 2
    los.set_smoke(P("04.04"), -4)
    assert los.cache_size() == 1
    assert los.check(P("04.01"), P("04.07")).smoke == -4
    assert los.check(P("07.01"), P("07.07")).smoke == 0
    los.set_smoke(P("04.04"), 0)
    assert los.check(P("04.01"), P("04.07")).smoke == 0


def test_games_on_one_board_share_marker_free_answers(tmp_path):
    """Two LineOfSight on the same board share the answers computed without markers."""
    m = make_map(tmp_path, ["." * 9] * 9)
    board = Board.from_map(m)
    first, second = LineOfSight(board), LineOfSight(board)
    first.check(P("04.01"), P("04.07"))
    # One walk answers the pair's four low-order keys (no S terrain on the line, no D terrain at an end).
    assert second._static is first._static and len(second._static) == 4
    second.set_fire(P("04.04"), True)
    assert not second.check(P("04.01"), P("04.07")).clear
    assert first.check(P("04.01"), P("04.07")).clear


def test_fire_blocks_los(tmp_path):
    """C2 29.2: a Fire marker blocks LOS through its hex; removing it clears the line."""
    los = los_for(tmp_path, ["." * 9] * 9)
    assert los.check(P("04.01"), P("04.07")).clear
    los.set_fire(P("04.04"), True)
    s = los.check(P("04.01"), P("04.07"))
    assert not s.clear
    assert s.blocked_by == P("04.04")
    los.set_fire(P("04.04"), False)
    assert los.check(P("04.01"), P("04.07")).clear


# --- terrain and heights ----------------------------------------------------------


def test_building_between_blocks_and_end_hex_terrain_is_ignored(tmp_path):
    """§16: a building between blocks; buildings at the two ends do not."""
    los = los_for(tmp_path, ["...", ".B.", "...", "...", ".B.", "...", "...", ".B.", "..."])
    assert not los.check(P("01.01"), P("01.07")).clear
    los2 = los_for(tmp_path, ["...", ".B.", "...", "...", "...", "...", "...", ".B.", "..."])
    assert los2.check(P("01.01"), P("01.07")).clear


def test_adjacent_hexes_always_see(tmp_path):
    """§16 step 1: adjacent hexes see each other whatever the terrain."""
    los = los_for(tmp_path, ["BBB", "BBB", "BBB"])
    assert los.check(P("01.01"), P("01.00")).clear


def test_hexspine_blocked_only_if_both_sides_block(tmp_path):
    """§16 step 2: 20.13→22.13 runs between 21.13 and 21.14: one building does not block, two do."""
    rows = ["." * 24 for _ in range(16)]
    one = [list(r) for r in rows]
    one[13][21] = "B"
    los = los_for(tmp_path, ["".join(r) for r in one])
    assert los.check(P("20.13"), P("22.13")).clear
    two = [list(r) for r in one]
    two[14][21] = "B"
    los2 = los_for(tmp_path, ["".join(r) for r in two])
    assert not los2.check(P("20.13"), P("22.13")).clear


def test_small_terrain_blocks_only_with_a_low_order(tmp_path):
    """C2 27.8: Long Grass blocks only if either end has Sneak, Hide, Reload or Rally."""
    los = los_for(tmp_path, COLUMN_WITH("G"))
    assert los.check(P("01.01"), P("01.07")).clear
    assert not los.check(P("01.01"), P("01.07"), low_b=True).clear
    assert not los.check(P("01.01"), P("01.07"), low_a=True).clear


@pytest.mark.parametrize(("month", "blocks"), [(5, False), (6, True), (8, True), (9, False)])
def test_fields_are_small_terrain_only_in_june_to_august(tmp_path, month, blocks):
    """C2 27.8: Fields are S terrain in June, July and August only."""
    los = los_for(tmp_path, COLUMN_WITH("F"), month=month)
    assert los.check(P("01.01"), P("01.07"), low_a=True).clear is not blocks


def test_hill_between_two_low_hexes_blocks(tmp_path):
    """§16 step 4: a level-1 hill between two level-0 hexes blocks."""
    los = los_for(tmp_path, ["..."] * 9, elevation=["000"] * 4 + ["010"] + ["000"] * 4)
    assert not los.check(P("01.01"), P("01.07")).clear


def test_blind_hex_table_example(tmp_path):
    """§16 step 5: from level 3 over a height-1 obstacle: no blind hex within 5, one at 6-10."""
    # Viewer on level 3 at 00.01; hedge hex (obstacle 1 half-level) at level 0.
    row = "." * 14
    los = los_for(
        tmp_path,
        [row, "." * 4 + "H" + "." * 9, row],
        elevation=["0" * 14, "3" + "0" * 13, "0" * 14],
    )
    # Obstacle at range 4 from the viewer: base 1, reduction floor(5/2)-1 = 1 → 0 blind hexes.
    assert los.check(P("00.01"), P("05.01")).clear
    los6 = los_for(
        tmp_path,
        [row, "." * 6 + "H" + "." * 7, row],
        elevation=["0" * 14, "3" + "0" * 13, "0" * 14],
    )
    # Obstacle at range 6: base 2 - 1 = 1 blind hex: the hex right behind it is hidden,
    assert not los6.check(P("00.01"), P("07.01")).clear
    # the next one is seen.
    assert los6.check(P("00.01"), P("08.01")).clear


def test_hedge_hexside_between_intervening_hexes_blocks(tmp_path):
    """§16 hexsides: a hedge on the hexside between two intervening hexes blocks like a hedge."""
    los = los_for(tmp_path, ["..."] * 9, hexsides=[{"feature": "hedge", "sides": "01.03/4"}])
    s = los.check(P("01.00"), P("01.08"))
    assert not s.clear
    assert s.blocked_by in (P("01.03"), P("01.04"))
    # A line that does not cross it stays clear.
    assert los.check(P("00.00"), P("00.08")).clear


def test_hexside_on_the_targets_edge_does_not_block(tmp_path):
    """§16 hexsides: a hedge on the target's own edge changes the chart row, not LOS."""
    los = los_for(tmp_path, ["..."] * 9, hexsides=[{"feature": "hedge", "sides": "01.06/1"}])
    assert los.check(P("01.00"), P("01.06")).clear


def test_low_order_in_depression_seen_only_from_adjacent(tmp_path):
    """C2 27.8: a target in a Depression with a low order is seen from 1 hex, not 2."""
    los = los_for(tmp_path, COLUMN_WITH("D"))
    assert los.check(P("01.02"), P("01.04"), low_b=True).clear is False
    assert los.check(P("01.03"), P("01.04"), low_b=True).clear
    assert los.check(P("01.02"), P("01.04")).clear  # no low order: seen as normal


def test_depression_range_grows_one_hex_per_level_above(tmp_path):
    """C2 27.8: +1 hex of range for each level the viewer stands above the target."""
    los = los_for(tmp_path, COLUMN_WITH("D"), elevation=["000"] * 2 + ["010"] + ["000"] * 6)
    assert los.check(P("01.02"), P("01.04"), low_b=True).clear


def test_limits_from_weather_and_night(tmp_path):
    """C2 28.0: the lower of the weather and night limits applies; illumination lifts night."""
    los = los_for(tmp_path, ["." * 12] * 3)
    a, b = P("00.01"), P("06.01")
    assert not los.check(a, b, max_range=5).clear
    assert los.check(a, b, max_range=6).clear
    assert not los.check(a, b, night_range=5).clear
    assert los.check(a, b, night_range=5, illuminated=True).clear
    assert not los.check(a, b, max_range=9, night_range=5).clear


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6), st.booleans(), st.booleans())
def test_los_is_symmetric_on_shipped_maps(i, j, la, lb):
    """LOS from a to b equals LOS from b to a (low flags swapped), walked both ways, on the countryside."""
    los = _town_los()
    n = len(los.board.hexes)
    a, b = i % n, j % n
    # Walk the line both ways: the cache key is symmetric, so compare the uncached walks.
    assert los._walk(a, b, la, lb)[0] == los._walk(b, a, lb, la)[0]


_TOWN: list[LineOfSight] = []


def _town_los() -> LineOfSight:
    if not _TOWN:
        from solo.data.maps import shipped_maps

        paths = [p for p in shipped_maps() if p.stem == "countryside"]
        m = load_map(paths[0]) if paths else load_map(DATA / "abbey_test.yaml")
        _TOWN.append(LineOfSight(Board.from_map(m)))
    return _TOWN[0]


def test_cached_answers_keep_their_smoke(tmp_path):
    """A cached line through smoke still carries the smoke modifier on the second query."""
    los = los_for(tmp_path, ["." * 9] * 9)
    los.set_smoke(P("04.04"), -2)
    assert los.check(P("04.01"), P("04.07")).smoke == -2
    assert los.check(P("04.01"), P("04.07")).smoke == -2
    assert los.check(P("04.07"), P("04.01"), viewer_tq=1).clear is False


def test_abbey_interior_hidden_even_from_an_adjacent_outside_hex(tmp_path):
    """27.5: an Abbey Interior hex is never seen from outside, even from next door."""
    los = los_for(tmp_path, ["...", ".I.", "..."], legend={".": "open", "I": "abbey_interior"})
    assert not los.check(P("01.00"), P("01.01")).clear


def test_shared_caches_are_bounded_and_answers_do_not_change():
    """Issue 10 item 3: the caches shared across games hold at most their cap (a map board's
    answers: a table of fixed size; a Rubble board's: ``shared_answers``; the line shapes that
    leave the map: ``shared_lines``); evicted answers and lines recompute to the same answers."""
    m = load_map(DATA / "abbey_test.yaml")
    base = Board.from_map(m)
    small = LineOfSight(base, shared_answers=40, shared_lines=30)
    free = LineOfSight(Board.from_map(m))
    n = len(small.board.hexes)
    assert small._static.nbytes == 2 * 4 * n * n
    houses = [h for h, t in m.terrain.items() if t in ("building", "abbey_exterior")][:2] or [m.hexes[n // 2]]
    changed_board = base.with_terrain(dict.fromkeys(houses, "rubble"))
    changed = LineOfSight(changed_board, shared_answers=40, shared_lines=30)
    scratch = LineOfSight(Board.from_map(changed_board.map, base.terrain_table))
    pairs = [(a, (a * 7 + 3) % n, a % 2 == 0, a % 3 == 0) for a in range(n)]
    for _ in range(2):  # the second pass meets evicted answers again
        for ia, ib, la, lb in pairs:
            assert small.check_index(ia, ib, la, lb) == free.check_index(ia, ib, la, lb)
            assert changed.check_index(ia, ib, la, lb) == scratch.check_index(ia, ib, la, lb)
            assert len(changed._static) <= 40
            assert len(small._lines.irregular) <= 30
    assert len(free._static) > 40 and len(scratch._static) > 40  # the bound did bite
    # The newest answer survives an eviction (the oldest quarter goes).
    ia, ib, la, lb = pairs[-1]
    assert any(k >> 2 in (ia * n + ib, ib * n + ia) for k in changed._static)


def test_shared_cache_bound_must_hold_an_entry():
    board = Board.from_map(load_map(DATA / "abbey_test.yaml"))
    with pytest.raises(ValueError, match="at least one"):
        LineOfSight(board, shared_answers=0)
    with pytest.raises(ValueError, match="at least one"):
        LineOfSight(board, shared_lines=0)


def test_from_viewer_answers_as_check_index_with_smoke_and_fire():
    """Issue 10: the spotting scan's fast path reads the game's cache under smoke; same answers."""
    from solo.data.maps import shipped_maps

    los = LineOfSight(Board.from_map(load_map(shipped_maps()[0])))
    n = len(los.board.hexes)
    pairs = [((7 * k) % n, (13 * k + 5) % n, k % 2 == 0, k % 3 == 0) for k in range(400)]
    for marks in ("none", "smoke", "fire"):
        if marks == "smoke":
            for k in range(0, n, 9):
                los.set_smoke(los.board.hexes[k], -4 if k % 2 else -8)
        if marks == "fire":
            los.set_fire(los.board.hexes[n // 2], True)
        for tq in (None, 1, 4):
            for _ in range(2):  # the first pass fills the caches, the second reads them
                for ia, ib, la, lb in pairs:
                    want = los.check_index(ia, ib, la, lb, tq)
                    assert los.from_viewer(ia, la, tq, None, None)(ib, lb) == want
    assert any(los.check_index(ia, ib, la, lb, 1).rule == "C2 29.5 heavy smoke" for ia, ib, la, lb in pairs)


@pytest.mark.parametrize("rubble", [False, True])
def test_from_viewer_clear_only_answers_clear_as_check_index(rubble):
    """Issue 10: the spotting scan's reader (``clear_only``) under Smoke and Fire (C2 29.2, 29.5)
    answers ``.clear`` as :meth:`check_index` for every pair, on a map's board and on a Rubble
    board (base-rules §14); clear answers are check_index's own. A line blocked without markers and
    no Fire on it is answered without filling the game's cache; one with a Fire on it is filled."""
    from solo.data.maps import shipped_maps

    m = load_map(shipped_maps()[0])
    board = Board.from_map(m)
    if rubble:
        houses = [h for h, t in m.terrain.items() if t == "building"][:4]
        board = board.with_terrain(dict.fromkeys(houses, "rubble"))
    los = LineOfSight(board)
    n = len(board.hexes)
    pairs = [((7 * k) % n, (13 * k + 5) % n, k % 2 == 0, k % 3 == 0) for k in range(700)]
    for ia, ib, la, lb in pairs:  # the marker-free answers, known
        los.check_index(ia, ib, la, lb)
    fire = list(range(3, n, 31))
    for k in range(0, n, 7):
        los.set_smoke(board.hexes[k], -4 if k % 2 else -8)
    for k in fire:
        los.set_fire(board.hexes[k], True)
    free = LineOfSight(board)  # no markers: the marker-free answers
    skipped = fire_lines = 0
    for tq in (1, 4):
        los.clear_cache()  # the game's marker answers (and the shared ones: walked again)
        for ia, ib, la, lb in pairs:
            free.check_index(ia, ib, la, lb)
        for ia, ib, la, lb in pairs:
            lo, hi, l_lo, l_hi = (ia, ib, la, lb) if ia <= ib else (ib, ia, lb, la)
            key = ((lo * n + hi) << 2) | (l_lo << 1) | l_hi
            size = los.cache_size()
            got = los.from_viewer(ia, la, tq, None, None, clear_only=True)(ib, lb)
            grew, cached = los.cache_size() > size, key in los._cache
            want = los.check_index(ia, ib, la, lb, tq)
            assert got.clear == want.clear
            if got.clear:
                assert got == want
            before = free.check_index(ia, ib, la, lb)
            if before.clear:
                continue
            if set(fire).isdisjoint(los._line(lo, hi)[1]):
                assert not grew  # blocked without markers, no Fire on it: not filled
                skipped += 1
            else:
                assert cached  # a Fire on the line: answered in full
                fire_lines += 1
    assert skipped > 100 and fire_lines > 10
    assert any(los.check_index(ia, ib, la, lb, 1).rule == "C2 29.5 heavy smoke" for ia, ib, la, lb in pairs)


def test_fire_off_the_line_reuses_the_marker_free_answer():
    """Issue 10: under a Fire marker (C2 29.2) a line that does not pass it keeps the shared answer;
    one that does is walked again and may be blocked. Either way the answer of a fresh walk."""
    from solo.data.maps import shipped_maps

    los = LineOfSight(Board.from_map(load_map(shipped_maps()[0])))
    los.clear_cache()
    n = len(los.board.hexes)
    pairs = [
        (min(a, b), max(a, b), k % 2 == 0, False)
        for k in range(600)
        for a, b in [((11 * k) % n, (17 * k + 3) % n)]
    ]
    for ia, ib, la, lb in pairs:  # fill the shared, marker-free answers
        los.check_index(ia, ib, la, lb)
    for k in range(0, n, 23):
        los.set_fire(los.board.hexes[k], True)
    fire = set(range(0, n, 23))
    changed = 0
    for ia, ib, la, lb in pairs:
        got = los.check_index(ia, ib, la, lb)
        fresh = los._compute(ia, ib, la, lb).sight  # walked now, with the fire
        assert got == fresh
        before = los._static.get(((ia * n + ib) << 2) | (la << 1) | lb)
        changed += got != before
        if fire.isdisjoint(los._line(ia, ib)[1]):
            assert got == before
    assert changed > 0  # some line through a fire is blocked by it


def test_rubble_board_shares_the_answers_of_lines_that_miss_the_rubble(monkeypatch):
    """Issue 10: on a board with Rubble (base-rules §14) a line that passes no changed hex is read
    from the map board's shared answers (and a new one given to them); a line through the Rubble is
    walked on the changed terrain. Every answer, with and without smoke and fire, is that of a board
    built from scratch with the same terrain."""
    from solo.data.maps import shipped_maps

    m = load_map(shipped_maps()[0])
    base = Board.from_map(m)
    houses = [h for h, t in m.terrain.items() if t == "building"][:4]
    assert houses, "the test needs Building hexes"
    changed = base.with_terrain(dict.fromkeys(houses, "rubble"))
    scratch = LineOfSight(Board.from_map(changed.map, base.terrain_table))  # caches of its own
    n = len(base.hexes)
    rubble = {base.index[h] for h in houses}
    ends = [((7 * k) % n, (29 * k + 3) % n) for k in range(900)]
    pairs = [(ia, ib, k % 2 == 0, k % 3 == 0) for k, (ia, ib) in enumerate(ends)]
    on_base = LineOfSight(base)
    want_base = [on_base.check_index(*p) for p in pairs]  # fills the map board's answers
    walked = []
    real = LineOfSight._walked  # every walk: the marker-free one, _fill's and _compute's

    def counted(self, ia, ib, la, lb):
        if self is los:
            walked.append((ia, ib))
        return real(self, ia, ib, la, lb)

    monkeypatch.setattr(LineOfSight, "_walked", counted)
    los = LineOfSight(changed)
    for ia, ib, la, lb in pairs:
        assert los.check_index(ia, ib, la, lb) == scratch.check_index(ia, ib, la, lb)
    through = [(a, b) for a, b in walked if not rubble.isdisjoint(los._line(a, b)[1])]
    assert through and len(through) == len(walked)  # only lines through the Rubble are walked
    assert len(walked) < len(pairs) // 4
    # The map board's answers are still the map's own (the Rubble lines were not given to it).
    assert [LineOfSight(base).check_index(*p) for p in pairs] == want_base
    # A line first walked on the Rubble board that misses the Rubble is given to the map board.
    los.clear_cache()  # a Rubble board's clear_cache clears the map board's answers too
    assert not base.shared[("los", 6)] and not changed.shared[("los", 6)]
    for p in pairs:
        LineOfSight(changed).check_index(*p)
    shared = base.shared[("los", 6)]
    keys = [k for k in range(len(shared.codes)) if shared.codes[k]]
    assert keys and all(rubble.isdisjoint(los._line(*divmod(k >> 2, n))[1]) for k in keys)
    # Under smoke and fire, the same answers as from scratch.
    for board_los in (los, scratch):
        for k in range(0, n, 31):
            board_los.set_smoke(board_los.board.hexes[k], -4)
        board_los.set_fire(board_los.board.hexes[n // 3], True)
    for ia, ib, la, lb in pairs:
        assert los.check_index(ia, ib, la, lb, 2) == scratch.check_index(ia, ib, la, lb, 2)


def test_a_line_first_walked_under_fire_that_misses_it_is_shared():
    """Issue 10: a line walked for the first time while a Fire marker is on the map (C2 29.2) but not
    on the line is the marker-free walk: it is given to the shared answers; one through the fire is not."""
    from solo.data.maps import shipped_maps

    los = LineOfSight(Board.from_map(load_map(shipped_maps()[0])))
    los.clear_cache()
    n = len(los.board.hexes)
    fire = n // 2
    los.set_fire(los.board.hexes[fire], True)
    ends = [((11 * k) % n, (17 * k + 3) % n) for k in range(300)]
    pairs = [(min(a, b), max(a, b)) for a, b in ends if a != b]
    for ia, ib in pairs:
        los.check_index(ia, ib)
    cells = {(ia, ib): los._line(ia, ib)[1] for ia, ib in pairs}
    off = [p for p in pairs if fire not in cells[p]]
    on = [p for p in pairs if fire in cells[p]]
    assert off and on
    assert all(((ia * n + ib) << 2) in los._static for ia, ib in off)
    assert not any(((ia * n + ib) << 2) in los._static for ia, ib in on)
