"""The shipped house-edition maps (maps/town.yaml, countryside.yaml, ridge.yaml, woods.yaml, abbey.yaml,
hamlet.yaml, hedgerows.yaml): size, required
features, roads, and the loader's line-numbered problems on broken copies."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solo.core.errors import DataError
from solo.core.hexes import DIRECTIONS, Arc, Hex, arc_of, distance, neighbour, wedge_directions
from solo.data.maps import Board, MapDef, load_map, shipped_maps, side_key
from solo.data.terrain import TerrainTable, VehicleEntry, load_terrain
from solo.rules.los import LineOfSight

REPO = Path(__file__).resolve().parents[1]
MAP_IDS = ("town", "countryside", "ridge", "woods", "abbey", "hamlet", "hedgerows")
HEXES_PER_MAP = 18 * 19 + 17 * 20  # 18 even columns of 19 rows, 17 odd columns of 20 rows
"""682: columns 00-34 hold 18 even columns (rows 00-18) and 17 odd ones (rows 00-19)."""

PANZER = Hex.parse("15.12")
"""Where the C2 rule 32 example of play puts the Panzer IVH (facing direction 1)."""
LIGHT_AT = Hex.parse("20.08")
"""Where the town's notes suggest the example's Light AT team."""
CHURCH = Hex.parse("20.02")
"""A hex of the church in the town's walled churchyard."""


def _h(label: str) -> Hex:
    return Hex.parse(label)


@pytest.fixture(scope="module")
def table() -> TerrainTable:
    return load_terrain()


@pytest.fixture(scope="module")
def maps(table: TerrainTable) -> dict[str, MapDef]:
    return {mid: load_map(mid, table) for mid in MAP_IDS}


@pytest.fixture(scope="module")
def town(maps: dict[str, MapDef]) -> MapDef:
    return maps["town"]


@pytest.fixture(scope="module")
def country(maps: dict[str, MapDef]) -> MapDef:
    return maps["countryside"]


def _of(m: MapDef, terrain_id: str) -> list[Hex]:
    return [h for h, t in m.terrain.items() if t == terrain_id]


def _adjacent(m: MapDef, h: Hex) -> list[Hex]:
    return [n for d in DIRECTIONS if (n := neighbour(h, d, m.stagger)) is not None and m.has_hex(n)]


def _component(m: MapDef, start: Hex, can_step) -> set[Hex]:
    """Hexes reachable from ``start`` through steps ``can_step(a, b)`` allows."""
    seen = {start}
    todo = [start]
    while todo:
        h = todo.pop()
        for n in _adjacent(m, h):
            if n not in seen and can_step(h, n):
                seen.add(n)
                todo.append(n)
    return seen


# ---------------------------------------------------------------------------
# Both maps


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_map_loads_by_id(maps: dict[str, MapDef], map_id: str) -> None:
    """Each shipped map loads by id, names itself and is marked as the house edition."""
    m = maps[map_id]
    assert m.id == map_id
    assert m.name.endswith("(house edition)")
    assert m.source == f"maps/{map_id}.yaml"


def test_shipped_maps_lists_both() -> None:
    """shipped_maps() finds both house-edition maps."""
    names = {p.name for p in shipped_maps()}
    assert {
        "town.yaml",
        "countryside.yaml",
        "ridge.yaml",
        "woods.yaml",
        "abbey.yaml",
        "hamlet.yaml",
        "hedgerows.yaml",
    } <= names


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_map_has_printed_size(maps: dict[str, MapDef], map_id: str) -> None:
    """35 columns; odd columns have rows 00-19, even columns 00-18 (682 hexes), even columns low."""
    m = maps[map_id]
    assert (m.columns, m.rows, m.stagger.value, m.short_columns.value) == (35, 20, "even_low", "even")
    assert len(m.hexes) == HEXES_PER_MAP == 682
    assert m.has_hex(_h("33.19")) and m.has_hex(_h("34.18"))
    assert not m.has_hex(_h("34.19")) and not m.has_hex(_h("00.19"))
    assert all(m.rows_in(c) == (19 if c % 2 == 0 else 20) for c in range(35))


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_map_file_is_marked_house_edition(map_id: str) -> None:
    """The map file opens with a comment saying it is the house edition."""
    first = (REPO / "maps" / f"{map_id}.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("#") and "house edition" in first


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_every_road_hex_is_vehicle_passable(
    maps: dict[str, MapDef], table: TerrainTable, map_id: str
) -> None:
    """Every road hex lets AFVs, half-tracks, jeeps and trucks in (terrain and overlays)."""
    m = maps[map_id]
    road_hexes = {h for pair in m.roads for h in pair}
    assert road_hexes
    for h in road_hexes:
        kinds = [table[m.terrain[h]], *(table[o] for o in m.overlays.get(h, ()))]
        assert all(k.vehicles is VehicleEntry.PASS and k.wheeled_passable for k in kinds), h


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_road_network_is_connected(maps: dict[str, MapDef], map_id: str) -> None:
    """All the map's road paths join up into one network that reaches the map edge."""
    m = maps[map_id]
    road_hexes = {h for pair in m.roads for h in pair}
    start = min(road_hexes)
    reached = _component(m, start, lambda a, b: side_key(a, b) in m.roads)
    assert reached == road_hexes
    assert any(len(_adjacent(m, h)) < 6 for h in road_hexes)


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_board_builds(maps: dict[str, MapDef], table: TerrainTable, map_id: str) -> None:
    """Board.from_map indexes every hex and links each to its on-map neighbours."""
    m = maps[map_id]
    b = Board.from_map(m, table)
    assert len(b.hexes) == len(b.neighbours) == HEXES_PER_MAP
    assert b.neighbour_hex(_h("15.12"), 1) == _h("15.11")
    assert b.neighbour_hex(_h("00.00"), 1) is None
    for h in (_h("00.00"), _h("17.09"), _h("34.18")):
        assert b.index_at_cube(*b.cube[b.idx(h)][::2]) == b.idx(h)


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_features_are_clusters_not_noise(maps: dict[str, MapDef], map_id: str) -> None:
    """Most hexes of each area terrain touch another hex of the same terrain."""
    m = maps[map_id]
    for tid in ("building", "trees", "field", "orchard", "long_grass"):
        hexes = set(_of(m, tid))
        if not hexes:
            continue
        lonely = [h for h in hexes if not any(n in hexes for n in _adjacent(m, h))]
        assert len(lonely) <= len(hexes) // 10, (tid, lonely)


# ---------------------------------------------------------------------------
# The town


def test_town_panzer_hex_is_open_street(town: MapDef) -> None:
    """15.12 (C2 rule 32 example) is an open hex on the main street road."""
    assert town.terrain[PANZER] == "open"
    assert town.is_road(PANZER)


def test_town_building_within_two_hexes_of_panzer(town: MapDef) -> None:
    """A building stands within 2 hexes of 15.12."""
    assert any(distance(PANZER, h, town.stagger) <= 2 for h in _of(town, "building"))


@pytest.mark.parametrize("label", ["15.11", "15.10"])
def test_town_road_ahead_of_panzer_is_open(town: MapDef, table: TerrainTable, label: str) -> None:
    """15.11 and 15.10, straight ahead of 15.12 in direction 1, are open road an AFV may enter."""
    h = _h(label)
    assert town.terrain[h] == "open" and town.is_road(h)
    assert table[town.terrain[h]].vehicles is VehicleEntry.PASS
    assert not town.overlays.get(h)


def test_town_panzer_moves_forward_along_the_road(town: MapDef) -> None:
    """Facing direction 1, 15.12's neighbour is 15.11, joined by road with no hexside feature."""
    assert neighbour(PANZER, 1, town.stagger) == _h("15.11")
    assert side_key(PANZER, _h("15.11")) in town.roads
    assert side_key(PANZER, _h("15.11")) not in town.hexsides


def test_town_light_at_example_sightlines(town: MapDef, table: TerrainTable) -> None:
    """From 20.08 (Open, 5 hexes, side arc) a Light AT team sees 15.11 but not 15.12 (C2 32 example).

    It lies in the direction-2 wedge of 15.11, so one hexside of turret turn from 1 brings it
    into the Gunner's front arc, as the example prints.
    """
    assert town.terrain[LIGHT_AT] == "open"
    assert wedge_directions(_h("15.11"), LIGHT_AT, town.stagger) == (2,)
    assert distance(_h("15.11"), LIGHT_AT, town.stagger) == 5
    assert arc_of(_h("15.11"), 1, LIGHT_AT, town.stagger) is Arc.SIDE
    board = Board.from_map(town, table)
    assert not board.is_cover(LIGHT_AT)  # "Fire Light AT order in the Open"
    los = LineOfSight(board)
    assert los.check(_h("15.11"), LIGHT_AT)
    assert not los.check(PANZER, LIGHT_AT)


def test_town_fountain_stands_in_a_square(town: MapDef) -> None:
    """The town has one fountain, with open ground on at least four of its sides."""
    fountains = _of(town, "fountain")
    assert len(fountains) == 1
    around = [town.terrain[n] for n in _adjacent(town, fountains[0])]
    assert around.count("open") >= 4


def test_town_has_rubble_and_many_buildings(town: MapDef) -> None:
    """The town has shelled blocks (3+ rubble hexes) and at least 150 building hexes."""
    counts = Counter(town.terrain.values())
    assert counts["rubble"] >= 3
    assert counts["building"] >= 150


def test_town_churchyard_is_walled_all_round(town: MapDef) -> None:
    """Walls enclose the church: without crossing a wall, the church reaches no road."""
    assert town.terrain[CHURCH] == "building"
    yard = _component(town, CHURCH, lambda a, b: town.hexsides.get(side_key(a, b)) != "wall")
    assert not any(town.is_road(h) for h in yard)
    assert 10 <= len(yard) <= 40
    church = {h for h in yard if town.terrain[h] == "building"}
    assert len(church) >= 3
    assert _component(town, CHURCH, lambda a, b: b in church) == church
    assert Counter(town.hexsides.values())["wall"] >= 12


def test_town_has_hedged_gardens_trees_and_a_rise(town: MapDef) -> None:
    """Hedges line gardens; an orchard and trees stand at the edges; a low rise is level 1."""
    assert Counter(town.hexsides.values())["hedge"] >= 20
    for tid in ("orchard", "trees"):
        assert any(len(_adjacent(town, h)) < 6 for h in _of(town, tid)), tid
    assert set(town.level.values()) == {0, 1}


# ---------------------------------------------------------------------------
# The countryside


@pytest.mark.parametrize(
    "terrain_id",
    [
        "trees",
        "orchard",
        "field",
        "long_grass",
        "stream",
        "depression",
        "building",
        "logs",
        "rocks",
        "bocage",
    ],
)
def test_countryside_has_terrain(country: MapDef, terrain_id: str) -> None:
    """The countryside has each terrain its brief asks for."""
    assert _of(country, terrain_id)


def test_countryside_has_hedgerows_and_bocage(country: MapDef) -> None:
    """Hedge and bocage hexsides are both drawn, 20 or more of each."""
    counts = Counter(country.hexsides.values())
    assert counts["hedge"] >= 20 and counts["bocage"] >= 20


def test_countryside_fields_are_enclosed(country: MapDef) -> None:
    """Every field edge has a hedge or bocage, except against woods, buildings or bocage hexes."""
    for h in _of(country, "field"):
        for n in _adjacent(country, h):
            if country.terrain[n] in ("field", "trees", "building", "bocage"):
                continue
            assert country.hexsides.get(side_key(h, n)) in ("hedge", "bocage"), (h, n)


def test_countryside_stream_crosses_the_map(country: MapDef) -> None:
    """The stream is one winding line of hexes from the west edge to the east edge."""
    stream = set(_of(country, "stream"))
    start = min(stream)
    assert start.col == 0
    assert _component(country, start, lambda a, b: b in stream) == stream
    assert max(h.col for h in stream) == 34
    assert len({h.row for h in stream}) >= 3


def test_countryside_road_fords_the_stream(country: MapDef) -> None:
    """The country road runs from the north edge to the south edge across a stream hex."""
    road = {h for pair in country.roads for h in pair}
    assert any(country.terrain[h] == "stream" for h in road)
    assert min(h.row for h in road) == 0
    assert max(h.row for h in road) >= 18


def test_countryside_hill_has_two_levels(country: MapDef) -> None:
    """A level 2 top stands inside a level 1 ring: every neighbour of a level 2 hex is 1 or 2."""
    top = [h for h, lv in country.level.items() if lv == 2]
    assert top and any(lv == 1 for lv in country.level.values())
    assert max(country.level.values()) == 2
    for h in top:
        assert all(country.level[n] >= 1 for n in _adjacent(country, h))


def test_countryside_foxholes_in_trees_behind_wire(country: MapDef) -> None:
    """Foxholes sit in trees; a short stretch of barbed wire lies on open ground near them."""
    fox = [h for h, o in country.overlays.items() if "foxhole" in o]
    wire = [h for h, o in country.overlays.items() if "barbed_wire" in o]
    assert fox and all(country.terrain[h] == "trees" for h in fox)
    assert 2 <= len(wire) <= 6
    assert all(min(distance(w, f, country.stagger) for f in fox) <= 2 for w in wire)


def test_countryside_depression_sinks_ground(country: MapDef, table: TerrainTable) -> None:
    """Board ground is −1 half-level in the stream and depression, +4 on the hill top."""
    b = Board.from_map(country, table)
    assert b.ground[b.idx(_of(country, "stream")[0])] == -1
    assert b.ground[b.idx(_of(country, "depression")[0])] == -1
    assert max(b.ground) == 4


# ---------------------------------------------------------------------------
# Broken copies: the loader reports every problem with the file and its line


def _town_lines() -> list[str]:
    return (REPO / "maps" / "town.yaml").read_text(encoding="utf-8").splitlines()


def _key_line(lines: list[str], key: str) -> int:
    """Index (0-based) of the top-level ``key:`` line."""
    return next(i for i, ln in enumerate(lines) if ln.startswith(f"{key}:"))


def _grid_line(lines: list[str], key: str, row: int) -> int:
    """Index (0-based) of grid ``row`` of block ``key``."""
    return lines.index(f"{key}: |") + 1 + row


def _replace_code(text: str, col: int, new: str) -> str:
    """Replace the code of column ``col`` in a grid line (spaces do not count)."""
    seen = -1
    for i, ch in enumerate(text):
        if not ch.isspace():
            seen += 1
            if seen == col:
                return text[:i] + new + text[i + 1 :]
    raise AssertionError(col)


def _problems(path: Path, table: TerrainTable) -> list[tuple[str, int | None, str]]:
    with pytest.raises(DataError) as info:
        load_map(path, table)
    return [(p.path, p.line, p.message) for p in info.value.problems]


def test_broken_copy_reports_every_problem_with_its_line(tmp_path: Path, table: TerrainTable) -> None:
    """A copy with five faults gives one DataError naming the file and each fault's line."""
    lines = _town_lines()
    t3, t7, t12 = (_grid_line(lines, "terrain", r) for r in (3, 7, 12))
    lines[t3] = _replace_code(lines[t3], 20, "-")  # a real hex written as missing
    lines[t7] = _replace_code(lines[t7], 8, "Z")  # a code not in the legend
    lines[t12] = lines[t12][:-1]  # a row one hex short
    at = _key_line(lines, "hexsides") + 1
    lines.insert(at, '  - {feature: hedge, sides: "00.00/1"}')  # off the map
    lines.insert(_key_line(lines, "roads") + 1, '  - "15.00 15.02"')  # not adjacent
    path = tmp_path / "broken.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # The inserts come after the grids, so grid lines keep their numbers.
    hexside_line = lines.index('  - {feature: hedge, sides: "00.00/1"}') + 1
    road_line = lines.index('  - "15.00 15.02"') + 1
    got = _problems(path, table)
    assert {p for p, _, _ in got} == {str(path)}
    expected = [
        (t3 + 1, "20.03 is on the map but has '-'"),
        (t7 + 1, "unknown terrain code 'Z' at 08.07"),
        (t12 + 1, "terrain row 12 has 34 hexes, expected 35"),
        (hexside_line, "hexside 00.00/1 is not between two hexes of the map"),
        (road_line, "road hexes 15.00 and 15.02 are not adjacent"),
    ]
    for want_line, text in expected:
        assert any(ln == want_line and text in msg for _, ln, msg in got), (want_line, text, got)
    # The short row drops the hexes of row 12, so roads and hexsides through them are
    # reported too, as off the map; nothing else is.
    others = [msg for _, ln, msg in got if not any(ln == w and t in msg for w, t in expected)]
    cascade = ("is outside the map", "is not between two hexes of the map")
    assert all(any(c in msg for c in cascade) for msg in others), others


def test_unknown_terrain_in_legend_names_its_line(tmp_path: Path, table: TerrainTable) -> None:
    """A legend entry naming an unknown terrain id is reported on the entry's line."""
    lines = _town_lines()
    at = _key_line(lines, "legend") + 1
    lines.insert(at, '  "Z": lava')
    path = tmp_path / "lava.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    got = _problems(path, table)
    assert [(ln, "unknown terrain 'lava'" in msg) for _, ln, msg in got] == [(at + 1, True)]


def test_dash_missing_in_short_column_is_reported(tmp_path: Path, table: TerrainTable) -> None:
    """A code where an even column has no row 19 must be '-': reported on row 19's line."""
    lines = _town_lines()
    i = _grid_line(lines, "terrain", 19)
    lines[i] = _replace_code(lines[i], 0, ".")
    path = tmp_path / "nodash.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    got = _problems(path, table)
    assert [(ln, msg) for _, ln, msg in got] == [(i + 1, "00.19 is not on the map (short column): write '-'")]


@settings(max_examples=20, deadline=None)
@given(row=st.integers(0, 18), col=st.integers(0, 34))
def test_bad_elevation_digit_is_reported_on_its_row(
    tmp_path_factory: pytest.TempPathFactory, table: TerrainTable, row: int, col: int
) -> None:
    """A non-digit anywhere in the elevation grid is reported on that row's line with its hex."""
    lines = _town_lines()
    i = _grid_line(lines, "elevation", row)
    lines[i] = _replace_code(lines[i], col, "x")
    path = tmp_path_factory.mktemp("elev") / "elev.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    got = _problems(path, table)
    assert [(ln, msg) for _, ln, msg in got] == [
        (i + 1, f"elevation at {col:02d}.{row:02d} must be a digit, got 'x'")
    ]


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_bad_hexside_names_its_own_line(
    tmp_path_factory: pytest.TempPathFactory, table: TerrainTable, data: st.DataObject
) -> None:
    """The shipped maps keep one hexside entry per line, so a bad side is reported on its line."""
    map_id = data.draw(st.sampled_from(MAP_IDS))
    lines = (REPO / "maps" / f"{map_id}.yaml").read_text(encoding="utf-8").splitlines()
    entries = [i for i, ln in enumerate(lines) if ln.startswith("  - {feature:") and "sides:" in ln]
    i = data.draw(st.sampled_from(entries))
    token = lines[i].split('sides: "')[1].split('"')[0].split()[0]
    lines[i] = lines[i].replace(token, token[:-1] + "9", 1)
    path = tmp_path_factory.mktemp("side") / f"{map_id}.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    got = _problems(path, table)
    assert [(ln, msg.split(" (")[0]) for _, ln, msg in got] == [(i + 1, f"bad hexside {token[:-1] + '9'!r}")]


# ---------------------------------------------------------------------------
# The designer tool


def _tool():
    spec = importlib.util.spec_from_file_location("map_ascii", REPO / "tools" / "map_ascii.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_tool_draws_every_hex_once(town: MapDef) -> None:
    """map_ascii.render draws one character per hex and the roads as '='."""
    pic = _tool().render(town).splitlines()
    body = [ln[5:] for ln in pic[3:] if ln[:2].isdigit() or ln.startswith("     ")]
    assert sum(len(ln.replace(" ", "")) for ln in body) == HEXES_PER_MAP
    assert sum(ln.count("=") for ln in body) == len({h for p in town.roads for h in p})


def test_tool_region_sides_ring_a_hex(town: MapDef) -> None:
    """map_ascii.region_sides gives the six sides of an inner hex and none on the map edge."""
    tool = _tool()
    assert tool.region_sides([_h("10.10")], town.stagger, town.hexes) == [f"10.10/{d}" for d in DIRECTIONS]
    assert tool.region_sides([_h("00.00")], town.stagger, town.hexes) == ["00.00/2", "00.00/3", "00.00/4"]


# ---------------------------------------------------------------------------
# The ridge


@pytest.fixture(scope="module")
def ridge(maps: dict[str, MapDef]) -> MapDef:
    return maps["ridge"]


def test_ridge_has_two_crests_a_saddle_and_the_hamlet_below(ridge: MapDef) -> None:
    """Level 2 crests on row 07 either side of a level-1 saddle on the road; a hamlet at the foot."""
    assert ridge.level[_h("10.07")] == ridge.level[_h("24.07")] == 2
    assert ridge.level[_h("17.07")] == 1 and ridge.terrain[_h("17.07")] == "open"
    assert ridge.level[_h("17.14")] == ridge.level[_h("17.02")] == 0
    assert len(_of(ridge, "building")) >= 8
    assert all(h.row >= 13 for h in _of(ridge, "building"))
    assert _of(ridge, "rocks") and _of(ridge, "logs") and _of(ridge, "orchard")


def test_ridge_sightlines_over_the_crest(ridge: MapDef, table: TerrainTable) -> None:
    """The crest (level 2) sees both feet of the ridge; the feet do not see each other (§16 step 4)."""
    los = LineOfSight(Board.from_map(ridge, table))
    crest, north, south = _h("24.07"), _h("24.02"), _h("24.12")
    assert (ridge.terrain[north], ridge.terrain[south]) == ("field", "open")
    assert los.check(crest, north) and los.check(crest, south)
    assert not los.check(north, south)
    assert not los.check(_h("17.14"), _h("17.02"))  # the hamlet does not see over the saddle
    assert los.check(_h("20.07"), _h("20.13"))  # the west end of the east crest watches the hamlet


# ---------------------------------------------------------------------------
# The woods


@pytest.fixture(scope="module")
def woods(maps: dict[str, MapDef]) -> MapDef:
    return maps["woods"]


def test_woods_is_mostly_trees_with_a_lodge_on_the_track(woods: MapDef) -> None:
    """Trees cover most of the map; the lodge's four houses stand on the track's clearing."""
    assert len(_of(woods, "trees")) > HEXES_PER_MAP // 2
    assert sorted(str(h) for h in _of(woods, "building")) == ["16.08", "17.07", "17.08", "18.08"]
    assert all(woods.terrain[_h(f"{c:02d}.10")] == "open" for c in range(35))
    assert _of(woods, "stream") and _of(woods, "marsh") and _of(woods, "long_grass")
    assert woods.level[_h("29.15")] == 1 and woods.terrain[_h("29.15")] == "rocks"


def test_woods_sightlines_down_the_track_not_through_the_trees(woods: MapDef, table: TerrainTable) -> None:
    """The track is a lane of sight through the wood; the trees hide one clearing from the next."""
    los = LineOfSight(Board.from_map(woods, table))
    assert los.check(_h("02.10"), _h("14.10"))
    assert los.check(_h("13.11"), _h("21.11"))  # across the lodge's clearing
    assert woods.terrain[_h("10.13")] == "trees"
    assert not los.check(_h("17.12"), _h("07.14"))  # blocked at 10.13 (trees)
    assert not los.check(_h("17.12"), _h("29.15"))


# ---------------------------------------------------------------------------
# The abbey


@pytest.fixture(scope="module")
def abbey(maps: dict[str, MapDef]) -> MapDef:
    return maps["abbey"]


def test_abbey_stands_on_the_hill_behind_its_courtyard(abbey: MapDef) -> None:
    """An abbey ring round a cloister on the level-2 top; the gatehouse is fortified; walls ring the court."""
    assert abbey.terrain[_h("17.01")] == "abbey_exterior" and abbey.terrain[_h("17.03")] == "abbey_interior"
    assert abbey.level[_h("17.03")] == 2 and abbey.level[_h("17.07")] == 1 and abbey.level[_h("17.15")] == 0
    assert _of(abbey, "fortified_building") == [_h("17.09")]
    assert abbey.terrain[_h("17.07")] == "open" and len(_of(abbey, "building")) == 7
    assert abbey.is_road(_h("17.10")) and not abbey.is_road(_h("17.09"))


def test_abbey_sightlines_walls_cloister_and_hill(abbey: MapDef, table: TerrainTable) -> None:
    """The abbey ring hides the cloister (C2 27.5); the court wall blocks (§16); the slope sees the town."""
    los = LineOfSight(Board.from_map(abbey, table))
    assert los.check(_h("17.01"), _h("17.03"))  # inside the abbey: exterior to interior
    assert not los.check(_h("22.03"), _h("17.03"))  # from outside, the exterior ring blocks
    assert not los.check(_h("17.14"), _h("17.03"))
    assert not los.check(_h("17.07"), _h("12.07"))  # the courtyard wall
    assert not los.check(_h("17.16"), _h("17.07"))  # the gatehouse shuts the road's view of the court
    assert los.check(_h("12.10"), _h("13.15"))  # the west slope watches the village


# ---------------------------------------------------------------------------
# The hamlet


@pytest.fixture(scope="module")
def hamlet(maps: dict[str, MapDef]) -> MapDef:
    return maps["hamlet"]


def test_hamlet_has_bocage_fields_an_orchard_and_a_ford(hamlet: MapDef) -> None:
    """Bocage hexsides round four fields, a hedged orchard, eight houses, the lane fording the stream."""
    features = Counter(f for (_h0, _d), f in hamlet.hexsides.items())
    assert features["bocage"] > 80 and features["hedge"] > 30
    assert len(_of(hamlet, "building")) == 8 and len(_of(hamlet, "orchard")) == 30
    assert hamlet.terrain[_h("08.09")] == "stream" and hamlet.is_road(_h("08.09"))
    assert hamlet.level[_h("30.02")] == 1 and hamlet.level[_h("17.09")] == 0


def test_hamlet_sightlines_along_the_road_not_through_the_bocage(hamlet: MapDef, table: TerrainTable) -> None:
    """The road and the lane are lanes of sight; bocage hexsides (C2 27.3) hide the fields from them."""
    los = LineOfSight(Board.from_map(hamlet, table))
    assert los.check(_h("17.02"), _h("17.17"))
    assert los.check(_h("04.09"), _h("16.09"))
    assert not los.check(_h("17.15"), _h("12.15"))  # the south-west meadow
    assert not los.check(_h("17.16"), _h("24.16"))  # the south-east field
    assert not los.check(_h("03.09"), _h("03.04"))  # the west field, from the lane
    assert not los.check(_h("30.11"), _h("17.11"))  # out of the east meadow


def _straight(m: MapDef, start: str, direction: int, steps: int) -> tuple[Hex, Hex]:
    """Both ends of a straight hex row: ``steps`` hexes from ``start`` in ``direction`` (1-6)."""
    h = _h(start)
    for _ in range(steps):
        nxt = neighbour(h, direction, m.stagger)
        assert nxt is not None and m.has_hex(nxt)
        h = nxt
    return _h(start), h


def _sight_with_and_without_hexsides(m: MapDef, table: TerrainTable, start: str, direction: int, steps: int):
    """LOS along a straight hex row on ``m``, and on a copy of ``m`` without its hexside features."""
    a, b = _straight(m, start, direction, steps)
    with_sides = LineOfSight(Board.from_map(m, table)).check(a, b)
    bare = LineOfSight(Board.from_map(attrs.evolve(m, hexsides={}), table)).check(a, b)
    return with_sides, bare


@pytest.mark.parametrize(
    ("start", "direction", "steps", "blocked_at"),
    [
        ("12.11", 4, 5, "12.12"),  # down column 12 across the meadow's north bocage (along row 12/13)
        ("18.11", 5, 6, "15.13"),  # a diagonal into the meadow across its east bocage
    ],
)
def test_hamlet_bocage_blocks_a_straight_hex_row_and_a_diagonal(
    hamlet: MapDef, table: TerrainTable, start: str, direction: int, steps: int, blocked_at: str
) -> None:
    """Bocage hexsides (C2 27.3) between two intervening hexes block a straight line of hexes;
    with the hexsides taken away, the same line is clear (so the bocage is what blocks)."""
    with_sides, bare = _sight_with_and_without_hexsides(hamlet, table, start, direction, steps)
    assert not with_sides.clear and with_sides.blocked_by == _h(blocked_at)
    assert with_sides.rule.startswith("16 step 4: hexside")
    assert bare.clear


# ---------------------------------------------------------------------------
# The hedgerows


@pytest.fixture(scope="module")
def hedgerows(maps: dict[str, MapDef]) -> MapDef:
    return maps["hedgerows"]


def test_hedgerows_has_bocage_fields_sunken_lanes_a_farm_and_an_orchard(hedgerows: MapDef) -> None:
    """Seven enclosures of bocage, the farm and orchard hedged, three sunken lanes carrying roads."""
    m = hedgerows
    features = Counter(f for (_h0, _d), f in m.hexsides.items())
    assert features["bocage"] > 250 and features["hedge"] > 60
    lanes = [_h(f"{c:02d}.10") for c in range(35)] + [_h(f"09.{r:02d}") for r in range(10)]
    lanes += [_h(f"17.{r:02d}") for r in range(11, 20)]
    assert all(m.terrain[h] == "depression" and m.is_road(h) for h in lanes)
    assert len(_of(m, "building")) == 7 and all(22 <= h.col <= 29 and h.row <= 9 for h in _of(m, "building"))
    assert len(_of(m, "orchard")) == 18 and all(m.level[h] == 1 for h in _of(m, "orchard"))
    assert m.terrain[_h("03.05")] == "field" and m.terrain[_h("03.14")] == "long_grass"
    assert m.level[_h("30.14")] == 1 and m.level[_h("17.10")] == 0


@pytest.mark.parametrize(
    ("start", "direction", "steps", "blocked_at"),
    [
        ("03.13", 1, 7, "03.09"),  # up column 03: the meadow's and the field's bocage along row 10
        ("24.06", 4, 8, "24.09"),  # down column 24: the farm's hedge, the lane, the copse field's bocage
        ("12.07", 3, 7, "16.09"),  # a diagonal out of the pasture across the lane along row 10
        ("13.08", 5, 5, "09.10"),  # a diagonal across the lane of column 09
    ],
)
def test_hedgerows_bocage_blocks_a_straight_hex_row_and_a_diagonal(
    hedgerows: MapDef, table: TerrainTable, start: str, direction: int, steps: int, blocked_at: str
) -> None:
    """Bocage and hedge hexsides (C2 27.3, §16) between intervening hexes block straight lines
    of hexes, in a column and on the diagonals; without the hexsides each line is clear."""
    with_sides, bare = _sight_with_and_without_hexsides(hedgerows, table, start, direction, steps)
    assert not with_sides.clear and with_sides.blocked_by == _h(blocked_at)
    assert bare.clear


def test_hedgerows_sunken_lanes_are_lanes_of_sight(hedgerows: MapDef, table: TerrainTable) -> None:
    """Down the lane of column 17 the sight is clear; the gaps in the bocage at 05.11 and 05.09 open
    the field to the meadow across the lane, one column over the bocage blocks."""
    los = LineOfSight(Board.from_map(hedgerows, table))
    assert los.check(_h("17.11"), _h("17.19")).clear
    assert los.check(_h("05.12"), _h("05.05")).clear  # through the gaps at 05.11 and 05.09
    assert not los.check(_h("04.12"), _h("04.05")).clear  # the bocage next to them
