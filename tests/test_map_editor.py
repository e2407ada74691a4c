"""The map editor (issue 12 item 5): the map writer's round trip, and a map painted by posted
pygame events, saved and validated."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame
import pytest

from solo.cli.main import main
from solo.core.hexes import Hex, Stagger
from solo.data.map_draft import dump_draft, load_draft, neighbours_of, new_draft, parse_map
from solo.data.maps import ShortColumns, load_map, shipped_maps, side_key
from solo.render import theme
from solo.render.map_editor import MapEditor

SIZE = (1280, 800)


@pytest.fixture(scope="module", autouse=True)
def _window():
    pygame.init()
    pygame.display.set_mode(SIZE)
    yield
    pygame.quit()


def run(ed):
    for ev in pygame.event.get():
        ed.handle(ev)


def post(kind, pos, button=1, **kw):
    pos = (round(pos[0]), round(pos[1]))
    if kind == pygame.MOUSEMOTION:
        pygame.event.post(pygame.event.Event(kind, pos=pos, rel=(0, 0), buttons=(1, 0, 0), **kw))
    else:
        pygame.event.post(pygame.event.Event(kind, pos=pos, button=button, **kw))


def click(ed, pos, button=1):
    post(pygame.MOUSEBUTTONDOWN, pos, button)
    post(pygame.MOUSEBUTTONUP, pos, button)
    run(ed)


def palette(ed, kind, value=""):
    spot = next(s for s in ed.hotspots() if s.action == (kind, value))
    click(ed, spot.rect.center)


def key(ed, k, mod=0):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=""))
    run(ed)


@pytest.mark.parametrize("path", shipped_maps(), ids=lambda p: p.stem)
def test_load_then_save_gives_the_same_file(path):
    assert dump_draft(load_draft(path)) == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", shipped_maps(), ids=lambda p: p.stem)
def test_every_section_written_afresh_loads_as_the_same_map(path):
    d = load_draft(path)
    d.original, d.source = None, ""
    text = dump_draft(d)
    assert text != path.read_text(encoding="utf-8")  # the comments are gone: all written afresh
    a, b = parse_map(text, "fresh"), load_map(path)
    assert (a.terrain, a.level, a.hexsides, a.overlays, a.roads) == (
        b.terrain,
        b.level,
        b.hexsides,
        b.overlays,
        b.roads,
    )


def test_a_maps_minefields_are_kept_and_written(tmp_path):
    """A map's ``minefields:`` (C2 31.5) survive the editor: kept verbatim, and written afresh."""
    d = new_draft(6, 4, short_columns=ShortColumns.NONE)
    d.minefields = [Hex.parse("02.01"), Hex.parse("01.03")]
    text = dump_draft(d)
    assert 'minefields: "02.01 01.03"' in text
    assert parse_map(text, "mined").minefields == (Hex.parse("02.01"), Hex.parse("01.03"))
    p = tmp_path / "mined.yaml"
    p.write_text(text)
    again = load_draft(p)
    assert again.minefields == d.minefields and dump_draft(again) == text
    again.original, again.source = None, ""
    assert parse_map(dump_draft(again), "fresh").minefields == (Hex.parse("02.01"), Hex.parse("01.03"))


def _comments(text):
    return [line for line in text.split("\n") if line.strip().startswith("#")]


@pytest.mark.parametrize("path", shipped_maps(), ids=lambda p: p.stem)
def test_an_edited_hexside_keeps_every_comment_and_every_other_line(path):
    """A hexside taken away, one changed to a wall and one added: every comment of the file
    stays, only the entry lines of those hexsides change, and the file loads as the draft."""
    import difflib

    d = load_draft(path)
    sides = sorted(d.hexsides)
    gone, walled = sides[0], sides[-1]
    del d.hexsides[gone]
    d.hexsides[walled] = "wall" if d.hexsides[walled] != "wall" else "hedge"
    h = gone[0]
    free = next(
        side_key(h, n)
        for n in (x for _d, x in neighbours_of(d, h))
        if side_key(h, n) not in d.hexsides and side_key(h, n) != gone
    )
    d.hexsides[free] = "hedge"
    before, after = path.read_text(encoding="utf-8"), dump_draft(d)
    assert _comments(after) == _comments(before)
    changed = [line for line in difflib.ndiff(before.split("\n"), after.split("\n")) if line[:1] in "+-"]
    assert 2 <= len(changed) <= 6 and all("sides:" in line for line in changed)
    m = parse_map(after, "edited")
    assert m.hexsides == d.to_map().hexsides


def test_edited_overlays_and_a_cut_road_keep_their_comments():
    """countryside: a foxhole added, a road cut in two; each piece is written where the road
    was, under its comment."""
    path = next(p for p in shipped_maps() if p.stem == "countryside")
    d = load_draft(path)
    road = d.roads[0]
    half = len(road) // 2
    d.roads[0:1] = [road[:half], road[half + 1 :]]
    d.overlays.setdefault(Hex(30, 2), []).append("foxhole")
    before, after = path.read_text(encoding="utf-8"), dump_draft(d)
    assert _comments(after) == _comments(before)
    lines = after.split("\n")
    at = lines.index("  # country road, north edge to south edge; fords the stream at 15.13")
    assert lines[at + 1] == '  - "' + " ".join(str(x) for x in road[:half]) + '"'
    assert lines[at + 2] == '  - "' + " ".join(str(x) for x in road[half + 1 :]) + '"'
    assert lines[lines.index("overlays:") + 1] == '  - {feature: foxhole, hexes: "30.02"}'
    m = parse_map(after, "edited")
    dm = d.to_map()
    assert (m.overlays, m.roads, m.hexsides) == (dm.overlays, dm.roads, dm.hexsides)


def test_a_new_map_is_valid_and_stable(tmp_path):
    d = new_draft(7, 5, stagger=Stagger.ODD_LOW, short_columns=ShortColumns.NONE)
    text = dump_draft(d)
    m = parse_map(text, "new")
    assert len(m.terrain) == 35 and m.stagger is Stagger.ODD_LOW
    p = tmp_path / "n.yaml"
    p.write_text(text)
    assert dump_draft(load_draft(p)) == text


def test_paint_fill_levels_hexsides_wire_road_undo_and_save(tmp_path):
    out = tmp_path / "mine.yaml"
    ed = MapEditor(new_draft(12, 8), out, theme.Fonts(), size=SIZE)
    c = ed.camera.centre
    # brush: trees on 03.03, dragged on to 04.03
    palette(ed, "terrain", "trees")
    post(pygame.MOUSEBUTTONDOWN, c(Hex(3, 3)))
    post(pygame.MOUSEMOTION, c(Hex(4, 3)))
    post(pygame.MOUSEBUTTONUP, c(Hex(4, 3)))
    run(ed)
    assert ed.draft.terrain[Hex(3, 3)] == ed.draft.terrain[Hex(4, 3)] == "trees"
    assert ed.draft.terrain[Hex(5, 3)] == "open"
    # fill: long grass over every open hex (the trees stay)
    palette(ed, "terrain", "long_grass")
    key(ed, pygame.K_f)
    click(ed, c(Hex(0, 0)))
    assert ed.draft.terrain[Hex(11, 7)] == "long_grass" and ed.draft.terrain[Hex(3, 3)] == "trees"
    # undo the fill, redo it
    key(ed, pygame.K_z, pygame.KMOD_CTRL)
    assert ed.draft.terrain[Hex(11, 7)] == "open"
    key(ed, pygame.K_y, pygame.KMOD_CTRL)
    assert ed.draft.terrain[Hex(11, 7)] == "long_grass"
    key(ed, pygame.K_f)
    # level 2 on 06.04
    palette(ed, "level", "2")
    click(ed, c(Hex(6, 4)))
    assert ed.draft.level[Hex(6, 4)] == 2 and ed.draft.level[Hex(6, 3)] == 0
    # a wall on the hexside between 08.02 and 08.03: click near it, inside 08.02
    palette(ed, "side", "wall")
    a, b = c(Hex(8, 2)), c(Hex(8, 3))
    click(ed, (a[0] * 0.3 + b[0] * 0.7, a[1] * 0.3 + b[1] * 0.7))
    assert ed.draft.hexsides == {side_key(Hex(8, 2), Hex(8, 3)): "wall"}
    # barbed wire on 09.05; a road dragged 01.01 → 01.02 → 01.03
    palette(ed, "overlay", "barbed_wire")
    click(ed, c(Hex(9, 5)))
    palette(ed, "road")
    post(pygame.MOUSEBUTTONDOWN, c(Hex(1, 1)))
    post(pygame.MOUSEMOTION, c(Hex(1, 2)))
    post(pygame.MOUSEMOTION, c(Hex(1, 3)))
    post(pygame.MOUSEBUTTONUP, c(Hex(1, 3)))
    run(ed)
    assert ed.draft.roads == [[Hex(1, 1), Hex(1, 2), Hex(1, 3)]]
    key(ed, pygame.K_s, pygame.KMOD_CTRL)
    assert ed.problems == [] and ed.message.endswith("valid")
    m = load_map(out)
    assert m.terrain[Hex(3, 3)] == "trees" and m.terrain[Hex(11, 7)] == "long_grass"
    assert m.level[Hex(6, 4)] == 2
    assert m.hexsides == {side_key(Hex(8, 2), Hex(8, 3)): "wall"}
    assert m.overlays == {Hex(9, 5): ("barbed_wire",)}
    assert m.roads == ((Hex(1, 1), Hex(1, 2)), (Hex(1, 2), Hex(1, 3)))
    # right click takes the wall away again
    palette(ed, "side", "wall")
    click(ed, (a[0] * 0.3 + b[0] * 0.7, a[1] * 0.3 + b[1] * 0.7), button=3)
    assert ed.draft.hexsides == {}


def type_text(ed, text):
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=ord(ch), mod=0, unicode=ch))
    run(ed)


def test_zoom_by_buttons_and_keys_pan_and_fit(tmp_path):
    ed = MapEditor(new_draft(20, 12), tmp_path / "z.yaml", theme.Fonts(), size=SIZE)
    fit = ed.camera.scale
    palette(ed, "zoom_in")
    assert ed.camera.scale > fit
    key(ed, pygame.K_PLUS)
    key(ed, pygame.K_KP_PLUS)
    big = ed.camera.scale
    assert big > fit and ed.camera.step == 3
    key(ed, pygame.K_MINUS)
    assert fit < ed.camera.scale < big
    before = ed.camera.centre(Hex(5, 5))
    key(ed, pygame.K_RIGHT)
    assert ed.camera.centre(Hex(5, 5))[0] < before[0]
    palette(ed, "zoom_out")
    assert ed.camera.step == 1
    palette(ed, "fit")
    assert ed.camera.scale == fit and ed.camera.step == 0
    key(ed, pygame.K_EQUALS)
    key(ed, pygame.K_HOME)
    assert ed.camera.step == 0
    # painting still lands on the hex under the mouse when zoomed in
    key(ed, pygame.K_PLUS)
    key(ed, pygame.K_PLUS)
    palette(ed, "terrain", "building")
    h = ed.camera.hex_at(ed.map_rect.center)
    click(ed, ed.map_rect.center)
    assert ed.draft.terrain[h] == "building"


def test_a_resized_window_lays_the_editor_out_again(tmp_path):
    ed = MapEditor(new_draft(20, 12), tmp_path / "r.yaml", theme.Fonts(), size=SIZE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1000, 700), w=1000, h=700))
    run(ed)
    assert ed.size == (1000, 700) and ed.map_rect.size == (1000 - 240, 700 - 96)
    assert ed.camera.rect == ed.map_rect
    assert max(s.rect.bottom for s in ed.hotspots()) <= 700  # every button still on the window
    palette(ed, "terrain", "building")  # a click still lands on its hex
    click(ed, ed.camera.centre(Hex(19, 11)))
    assert ed.draft.terrain[Hex(19, 11)] == "building"


def test_levels_up_to_nine_are_painted_and_saved(tmp_path):
    out = tmp_path / "hill.yaml"
    ed = MapEditor(new_draft(8, 6), out, theme.Fonts(), size=SIZE)
    assert [s.action[1] for s in ed.hotspots() if s.action[0] == "level"] == [str(i) for i in range(10)]
    palette(ed, "level", "9")
    click(ed, ed.camera.centre(Hex(2, 2)))
    palette(ed, "level", "6")
    click(ed, ed.camera.centre(Hex(3, 2)))
    assert ed.save() == []
    m = load_map(out)
    assert (m.level[Hex(2, 2)], m.level[Hex(3, 2)], m.level[Hex(4, 2)]) == (9, 6, 0)


def test_minefields_are_painted_toggled_undone_and_saved(tmp_path):
    out = tmp_path / "mined.yaml"
    ed = MapEditor(new_draft(8, 6), out, theme.Fonts(), size=SIZE)
    palette(ed, "mines")
    assert ed.tool == ("mines", "")
    for h in (Hex(2, 2), Hex(3, 2), Hex(4, 2)):
        click(ed, ed.camera.centre(h))
    click(ed, ed.camera.centre(Hex(3, 2)))  # a second click takes it off
    click(ed, ed.camera.centre(Hex(5, 2)), button=3)  # right click on a hex with none: nothing
    assert ed.draft.minefields == [Hex(2, 2), Hex(4, 2)]
    key(ed, pygame.K_z, pygame.KMOD_CTRL)  # the second click on 03.02 undone
    assert ed.draft.minefields == [Hex(2, 2), Hex(3, 2), Hex(4, 2)]
    click(ed, ed.camera.centre(Hex(4, 2)), button=3)  # right click removes
    assert ed.save() == []
    assert 'minefields: "02.02 03.02"' in out.read_text(encoding="utf-8")
    assert load_map(out).minefields == (Hex(2, 2), Hex(3, 2))
    surface = pygame.Surface(SIZE)
    ed.draw(surface)
    x, y = ed.camera.corners(Hex(2, 2), 0.8)[0]
    assert any(
        surface.get_at((round(x) + dx, round(y) + dy))[:3] == theme.MINE
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
    )


def test_the_id_and_name_fields_are_typed_saved_and_undone(tmp_path):
    out = tmp_path / "mine.yaml"
    ed = MapEditor(new_draft(6, 5, map_id="mine", name="Mine"), out, theme.Fonts(), size=SIZE)
    palette(ed, "field", "id")
    assert ed.editing == "id" and ed.typed == "mine"
    type_text(ed, "f")  # typed into the field, not the fill toggle
    assert ed.typed == "minef" and not ed.fill
    for _ in range(5):
        key(ed, pygame.K_BACKSPACE)
    type_text(ed, "My Town")
    key(ed, pygame.K_RETURN)
    assert ed.editing == "id" and "must be snake_case" in ed.message and ed.draft.id == "mine"
    for _ in range(7):
        key(ed, pygame.K_BACKSPACE)
    type_text(ed, "my_town")
    key(ed, pygame.K_RETURN)
    assert ed.editing is None and ed.draft.id == "my_town"
    palette(ed, "field", "name")
    for _ in range(4):
        key(ed, pygame.K_BACKSPACE)
    type_text(ed, "My little town")
    key(ed, pygame.K_TAB)
    assert ed.draft.name == "My little town"
    palette(ed, "field", "name")
    type_text(ed, "xyz")
    key(ed, pygame.K_ESCAPE)  # closes the field unchanged, does not quit
    assert ed.draft.name == "My little town" and not ed.quit
    key(ed, pygame.K_s, pygame.KMOD_CTRL)
    m = load_map(out)
    assert (m.id, m.name) == ("my_town", "My little town")
    key(ed, pygame.K_z, pygame.KMOD_CTRL)
    assert ed.draft.name == "Mine" and ed.draft.id == "my_town"
    key(ed, pygame.K_z, pygame.KMOD_CTRL)
    assert ed.draft.id == "mine"


def test_a_renamed_shipped_map_keeps_every_other_line(tmp_path):
    path = next(p for p in shipped_maps() if p.stem == "town")
    d = load_draft(path)
    d.name = "Town, my copy"
    before, after = path.read_text(encoding="utf-8").split("\n"), dump_draft(d).split("\n")
    assert len(before) == len(after)
    assert [(a, b) for a, b in zip(before, after, strict=True) if a != b] == [
        ("name: The Town (house edition)", "name: Town, my copy")
    ]


def test_los_between_two_clicked_hexes_follows_the_painted_map(tmp_path):
    ed = MapEditor(new_draft(12, 8), tmp_path / "l.yaml", theme.Fonts(), size=SIZE)
    c = ed.camera.centre
    key(ed, pygame.K_l)
    click(ed, c(Hex(1, 3)))
    click(ed, c(Hex(5, 3)))
    assert ed.los_clear and "clear" in ed.los_caption
    palette(ed, "terrain", "building")
    click(ed, c(Hex(3, 3)))  # the LOS caption follows the edit
    assert not ed.los_clear and ed.los_blocked == Hex(3, 3)
    assert "blocked at 03.03" in ed.los_caption


def test_save_shows_each_problem_at_its_hex(tmp_path):
    ed = MapEditor(new_draft(12, 8), tmp_path / "bad.yaml", theme.Fonts(), size=SIZE)
    ed.draft.roads.append([Hex(2, 2), Hex(5, 5)])  # not adjacent
    problems = ed.save()
    assert len(problems) == 1 and "not adjacent" in problems[0].message
    assert str(problems[0]).startswith(f"{tmp_path / 'bad.yaml'}:")
    assert ed.problem_hexes == [Hex(2, 2), Hex(5, 5)]
    surf = pygame.Surface(SIZE)
    ed.draw(surf)
    x, y = ed.camera.corners(Hex(5, 5), 0.92)[0]
    assert surf.get_at((round(x), round(y)))[:3] == theme.LOS_BLOCKED


def test_cli_says_how_to_start_a_map_that_is_not_there(tmp_path, capsys):
    missing = tmp_path / "mymap.yaml"
    assert main(["edit", str(missing), "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert f"{missing}: no such map file; to start one there: solo edit --new 35x20 {missing}" in err
    assert "countryside" in err and "Traceback" not in err
    assert main(["edit", "nosuch", "--frames", "1"]) == 2
    assert "nosuch: no such map file" in capsys.readouterr().err


def test_cli_edits_the_copy_of_a_shipped_map_saved_here(tmp_path, monkeypatch):
    """``solo edit town`` after a first save: the town.yaml here is edited, not the shipped map
    again (which would overwrite the edits at the next Ctrl+S); ``--new 5x5 mine`` writes mine.yaml."""
    import solo.render.map_editor as editor_mod

    opened = []
    monkeypatch.setattr(editor_mod, "run_editor", lambda draft, path, **kw: opened.append((draft, path)) or 0)
    monkeypatch.chdir(tmp_path)
    assert main(["edit", "town", "--frames", "1"]) == 0
    assert opened[-1][1].name == "town.yaml" and opened[-1][0].name == "The Town (house edition)"
    d = opened[-1][0]
    d.name = "My town"
    (tmp_path / "town.yaml").write_text(dump_draft(d), encoding="utf-8")
    assert main(["edit", "town", "--frames", "1"]) == 0
    assert opened[-1][0].name == "My town" and str(opened[-1][1]) == "town.yaml"
    assert main(["edit", "--new", "5x5", "mine", "--frames", "1"]) == 0
    assert str(opened[-1][1]) == "mine.yaml" and opened[-1][0].id == "mine"


def test_cli_refuses_a_bad_size_and_an_existing_file(tmp_path, capsys):
    assert main(["edit", "--new", "100x3", str(tmp_path / "x.yaml"), "--frames", "1"]) == 2
    (tmp_path / "y.yaml").write_text("id: y\n")
    assert main(["edit", "--new", "5x5", str(tmp_path / "y.yaml"), "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert "expected COLUMNSxROWS" in err and "exists" in err


def test_a_painted_map_carries_a_scenario_that_validates_and_plays(tmp_path):
    """A 35x20 map painted and saved, first_contact moved onto it by its ``map:`` path, played."""
    from solo.data.scenario import shipped_scenarios
    from solo.data.validate import validate
    from solo.playtest.play import new_game
    from solo.playtest.policies import SimplePolicy

    ed = MapEditor(new_draft(35, 20, map_id="mytown"), tmp_path / "mytown.yaml", theme.Fonts(), size=SIZE)
    palette(ed, "terrain", "building")
    for h in (Hex(15, 6), Hex(14, 7), Hex(16, 7)):
        click(ed, ed.camera.centre(h))
    assert ed.save() == []
    src = next(p for p in shipped_scenarios() if p.stem == "first_contact").read_text(encoding="utf-8")
    assert "\nmap: town\n" in src
    (tmp_path / "scenarios").mkdir()
    sc = tmp_path / "scenarios" / "on_mytown.yaml"
    sc.write_text(src.replace("\nmap: town\n", "\nmap: ../mytown.yaml\n"), encoding="utf-8")
    assert validate([sc])[1] == []
    game = new_game(sc, seed=1)
    assert game.board.map.id == "mytown" and game.board.map.terrain[Hex(15, 6)] == "building"
    policy = SimplePolicy()
    for _ in range(12):
        assert game.pending is not None
        game.apply(policy(game, game.pending))
