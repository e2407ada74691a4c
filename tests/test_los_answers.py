"""Issue 10: the compact table of marker-free LOS answers (solo.rules.los_answers) and the Rubble
board built by patching its map board's tables (base-rules §14) answer as fresh walks do."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solo.core.hexes import line_shape
from solo.data.maps import Board, load_map, shipped_maps
from solo.rules.los import LineOfSight, Sight
from solo.rules.los_answers import MAX_CODES, AnswerTable

MAPS = {load_map(p).id: load_map(p) for p in shipped_maps()}


def _pairs(n: int, count: int, salt: int) -> list[tuple[int, int, bool, bool]]:
    """``count`` index pairs spread over the map, every low-order combination, some adjacent."""
    out = []
    for k in range(count):
        a = (37 * k + salt) % n
        b = (a + 1) % n if k % 7 == 0 else (101 * k + 11 * salt + 5) % n
        out.append((a, b, bool(k & 1), bool(k & 2)))
    return out


def _fresh(m, table, ia, ib, la, lb, smoke=(), fire=(), viewer_tq=None) -> Sight:
    """The answer of a walk on a board of its own (no shared answer, no shared line)."""
    los = LineOfSight(Board.from_map(m, table))
    for i, mod in smoke:
        los.set_smoke(los.board.hexes[i], mod)
    for i in fire:
        los.set_fire(los.board.hexes[i], True)
    return los.check_index(ia, ib, la, lb, viewer_tq)


@pytest.mark.parametrize("name", sorted(MAPS))
def test_the_table_answers_as_a_fresh_walk_on_every_shipped_map(name):
    """On each shipped map, answers read back from the compact table (and under smoke and fire,
    and on a board with Rubble) are those of a walk on a board with empty caches."""
    m = MAPS[name]
    base = Board.from_map(m)
    n = len(base.hexes)
    pairs = _pairs(n, 120, len(name))
    los = LineOfSight(base)
    first = [los.check_index(*p) for p in pairs]  # walks, fills the table
    again = [los.check_index(*p) for p in pairs]  # reads the table
    assert first == again
    assert all(a is b for a, b in zip(again, [los.check_index(*p) for p in pairs], strict=True))
    assert len(los._static) >= len({(min(a, b), max(a, b), la, lb) for a, b, la, lb in pairs}) - n
    for (ia, ib, la, lb), got in zip(pairs, again, strict=True):
        lo, hi, llo, lhi = (ia, ib, la, lb) if ia <= ib else (ib, ia, lb, la)
        assert got == LineOfSight(Board.from_map(m, base.terrain_table))._compute(lo, hi, llo, lhi).sight
    # Smoke and fire on the map: this game's answers, from the table's lines, as a fresh walk.
    smoke = [(i, -4 if i % 2 else -2) for i in range(3, n, 41)]
    fire = [n // 3, (2 * n) // 3]
    for i, mod in smoke:
        los.set_smoke(base.hexes[i], mod)
    for i in fire:
        los.set_fire(base.hexes[i], True)
    for p in pairs[:60]:
        assert los.check_index(*p, 2) == _fresh(m, base.terrain_table, *p, smoke, fire, 2)
    # Rubble: a board with changed terrain reads the map board's table where its line misses the
    # changed hexes and walks the rest; the answers of a board built from scratch.
    houses = [h for h, t in m.terrain.items() if t == "building"][:3] or [base.hexes[n // 2]]
    changed = base.with_terrain(dict.fromkeys(houses, "rubble"))
    rubble = LineOfSight(changed)
    scratch = LineOfSight(Board.from_map(changed.map, base.terrain_table))
    assert rubble._small_top == scratch._small_top and rubble._sided == scratch._sided
    for ia, ib, la, lb in pairs:  # the spotting scan's path first, then the plain one
        assert rubble.from_viewer(ia, la, None, None, None)(ib, lb) == scratch.check_index(ia, ib, la, lb)
    for p in pairs:
        assert rubble.check_index(*p) == scratch.check_index(*p)
    rubble.set_fire(changed.hexes[n // 2], True)
    scratch.set_fire(changed.hexes[n // 2], True)
    for p in pairs[:60]:
        assert rubble.check_index(*p) == scratch.check_index(*p)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(MAPS)), *[st.integers(0, 10**6)] * 2, st.booleans(), st.booleans())
def test_a_table_answer_is_a_fresh_walk(name, i, j, la, lb):
    """Any pair on any shipped map: the answer kept in the shared table is the fresh walk's."""
    m = MAPS[name]
    board = Board.for_map(m, Board.from_map(m).terrain_table)
    n = len(board.hexes)
    ia, ib = i % n, j % n
    LineOfSight(board).check_index(ia, ib, la, lb)  # fills the table (or finds it filled)
    kept = LineOfSight(board).check_index(ia, ib, la, lb)
    assert kept == _fresh(m, board.terrain_table, ia, ib, la, lb)


def test_lines_stay_within_one_hex_of_a_shortest_path():
    """The premise of the Rubble board's quick test (LineOfSight._from_base): every hex on the line
    from a to b has d(a, c) + d(c, b) ≤ d(a, b) + 1, for every vector up to 30 hexes long."""

    def d(p, q):
        return max(abs(p[0] - q[0]), abs(p[1] - q[1]), abs(p[2] - q[2]))

    worst = 0
    for x in range(-30, 31):
        for z in range(-30, 31):
            v = (x, -x - z, z)
            n = d(v, (0, 0, 0))
            if n > 30:
                continue
            for step in line_shape(v):
                for c in step:
                    worst = max(worst, d((0, 0, 0), c) + d(c, v) - n)
    assert worst <= 1


def test_answer_table_interns_and_keeps_codes():
    table = AnswerTable(3)
    assert table.nbytes == 2 * 4 * 9 and len(table) == 0 and table.get(5) is None
    a, b = Sight(True, "clear", None, 2), Sight(True, "clear", None, 2)
    table.put(5, a)
    table.put(7, b)  # equal answers share one code and one object
    assert table.codes[5] == table.codes[7] == 1 and table.get(7) is a
    table.put(7, Sight(False, "16 step 4: obstacle as high as the higher end", None, 2))
    assert table.codes[7] == 2 and len(table) == 2 and 7 in table and 6 not in table
    codes = table.codes
    table.clear()
    assert table.codes is codes and len(table) == 0 and table.get(5) is None and table.answers == [None]
    with pytest.raises(ValueError):
        AnswerTable(0)


def test_answer_table_stops_interning_at_its_code_limit():
    """Past MAX_CODES distinct answers a new one is not kept (asked again, it is walked again)."""
    table = AnswerTable(400)  # 640,000 keys
    for k in range(MAX_CODES):
        table.put(k, k)
    table.put(MAX_CODES, "one too many")
    assert table.get(MAX_CODES) is None and len(table) == MAX_CODES
    table.put(MAX_CODES, 3)  # a known answer still fits
    assert table.get(MAX_CODES) == 3


def test_a_rubble_board_patches_only_the_changed_hexes():
    """The tables of a board with changed terrain (§14), built by patching the map board's, equal a
    board built from scratch, also where the new terrain changes the ground under a hedge or wall."""
    for m in MAPS.values():
        base = Board.from_map(m)
        sided = sorted({i for key in base.hexside_top for i in key})[:4]
        picks = [base.hexes[i] for i in sided] + [base.hexes[len(base.hexes) // 2]]
        for terrain in ("rubble", "depression", "field", "abbey_interior", "open"):
            changed = base.with_terrain(dict.fromkeys(picks, terrain))
            scratch = Board.from_map(changed.map, base.terrain_table)
            for field in ("ground", "block_top", "depression", "abbey", "hexside_top"):
                assert getattr(changed, field) == getattr(scratch, field), (m.id, terrain, field)


@pytest.mark.parametrize("name", ["hedgerows", "hamlet"])
def test_a_change_of_ground_beside_a_hedge_reads_no_stale_answer(name):
    """A terrain with another ground offset (a Depression) on a hex with a hedge or bocage side
    changes the height of that hexside, which lines touching the hex's corner read (C2 27.3): the
    hexes across it count as changed, and every answer is that of a board built from scratch."""
    m = MAPS[name]
    base = Board.for_map(m, Board.from_map(m).terrain_table)
    n = len(base.hexes)
    sided = sorted({i for key in base.hexside_top for i in key})
    picks = [base.hexes[i] for i in sided[:: max(1, len(sided) // 6)]]
    changed = base.with_terrain(dict.fromkeys(picks, "depression"))
    los = LineOfSight(changed)
    across = [j for i in (base.index[h] for h in picks) for j in base.neighbours[i][1:] if j >= 0]
    assert set(los._changed) > {base.index[h] for h in picks}
    assert set(los._changed) <= {base.index[h] for h in picks} | set(across)
    scratch = LineOfSight(Board.from_map(changed.map, base.terrain_table))
    on_base = LineOfSight(base)
    pairs = [(a, b, la, lb) for a, b, la, lb in _pairs(n, 1500, 3)]
    for p in pairs:
        on_base.check_index(*p)  # the map board's answers first, as a game before the change
    assert [los.check_index(*p) for p in pairs] == [scratch.check_index(*p) for p in pairs]


@pytest.mark.parametrize("month", [6, 1])
@pytest.mark.parametrize("name", sorted(MAPS))
def test_every_key_one_walk_fills_is_its_own_fresh_walk(name, month):
    """One walk may fill the other low-order keys of its pair (no S terrain read and no end in D
    terrain: all four; S terrain read under a low order: the three low ones): every key so filled
    holds the answer of its own walk on a board with empty caches, in summer and in winter."""
    m = MAPS[name]
    base = Board.from_map(m)
    n = len(base.hexes)
    los = LineOfSight(base, month=month)
    for p in _pairs(n, 300, len(name) + month):
        los.check_index(*p)
    table = los._static
    filled = [k for k in range(len(table.codes)) if table.codes[k]]
    walked = {(min(a, b), max(a, b)) for a, b, _, _ in _pairs(n, 300, len(name) + month)}
    assert len(filled) > 2 * len(walked)  # most walks answered more keys than their own
    scratch = LineOfSight(Board.from_map(m, base.terrain_table), month=month)
    for k in filled:
        ia, ib = divmod(k >> 2, n)
        assert table.answers[table.codes[k]] == scratch._compute(ia, ib, bool(k & 2), bool(k & 1)).sight
