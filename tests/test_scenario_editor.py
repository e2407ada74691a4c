"""The scenario editor (issue 12 item 5): a scenario placed on a map by posted pygame events,
its forms filled in, saved (atomic, read back before writing), validated with each problem at
its place on the map, and played."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame
import pytest
from conftest import house_data

from solo.cli.main import main
from solo.core.datafile import read, structure
from solo.core.hexes import Hex
from solo.data.scenario import load_scenario, shipped_scenarios
from solo.data.scenario_draft import ScenarioDraft
from solo.data.scenario_format import Scenario
from solo.data.scenario_writer import dump_scenario
from solo.playtest.policies import SimplePolicy
from solo.render import theme
from solo.render.app import Window
from solo.render.scenario_editor import ScenarioEditor
from solo.render.session import new_session

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


def click(ed, pos, button=1, up=None):
    pos = (round(pos[0]), round(pos[1]))
    up = pos if up is None else (round(up[0]), round(up[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=up, button=button))
    run(ed)


def palette(ed, kind, value=""):
    spot = next(s for s in ed.hotspots() if s.action == (kind, value))
    click(ed, spot.rect.center)


def field(ed, key):
    return next(f for f in ed.forms.fields(ed.forms_rect) if f.key == key)


def key(ed, k, mod=0, text=""):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=text))
    run(ed)


def type_in(ed, key_name, text):
    click(ed, field(ed, key_name).rect.center)
    for ch in text:
        key(ed, 0, text=ch)
    key(ed, pygame.K_RETURN)


def at(ed, label):
    return ed.camera.centre(Hex.parse(label))


def new_editor(tmp_path, name="my_scenario"):
    draft = ScenarioDraft.new("town", name, "My scenario")
    ed = ScenarioEditor(draft, tmp_path / f"{name}.yaml", house_data(), theme.Fonts(), size=SIZE)
    key(ed, pygame.K_HOME)  # the whole map in view (it opens zoomed in, hex labels readable)
    return ed


def place_forces(ed):
    """Able: two men; Red: a counter, a dummy, a cup of one counter and one dummy; a Panzer IVH."""
    palette(ed, "team", "able")
    palette(ed, "tool", "character")
    click(ed, at(ed, "15.16"))
    click(ed, at(ed, "14.16"))
    palette(ed, "team", "red")
    click(ed, at(ed, "15.06"))
    palette(ed, "tool", "dummy")
    click(ed, at(ed, "14.07"))
    palette(ed, "tool", "cup")
    click(ed, at(ed, "16.07"))
    palette(ed, "tool", "cup_dummy")
    click(ed, at(ed, "13.06"))
    while ed.vehicle_type != "panzer_ivh":
        palette(ed, "vtype")
    click(ed, at(ed, "15.03"))


def test_place_fill_in_save_validate_and_play(tmp_path):
    ed = new_editor(tmp_path)
    place_forces(ed)
    key(ed, pygame.K_r)  # the Panzer just placed is selected: facing 1 -> 2 -> 3 -> 4
    key(ed, pygame.K_r)
    key(ed, pygame.K_r)
    palette(ed, "tool", "direction_counter")
    click(ed, at(ed, "15.10"))
    key(ed, pygame.K_r, mod=pygame.KMOD_SHIFT)  # rotation 0 -> 5
    palette(ed, "tool", "objective")
    click(ed, at(ed, "15.05"))
    type_in(ed, "obj:vp", "3")
    type_in(ed, "turns", "5")
    type_in(ed, "month", "10")
    click(ed, field(ed, "weather").rect.center)  # clear -> rain
    click(ed, field(ed, "ground").rect.center)  # normal -> mud
    click(ed, field(ed, "page:victory").rect.center)
    type_in(ed, "band:2", "10")  # marginal from 10 VP
    click(ed, field(ed, "page:setting").rect.center)
    click(ed, field(ed, "wave:add").rect.center)  # a Red wave on turn 2, entry hexes clicked
    click(ed, at(ed, "25.00"))
    click(ed, at(ed, "28.00"))
    type_in(ed, "wave:turn", "3")
    type_in(ed, "wave:who", "12 +1")
    type_in(ed, "wave:order", "EV 5/6")
    key(ed, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert ed.problems == [], ed.problems
    assert ed.message.endswith("valid")
    path = tmp_path / "my_scenario.yaml"
    sc = load_scenario(path, house_data())
    assert (sc.turns, sc.month, sc.weather.value, sc.ground.value) == (5, 10, "rain", "mud")
    able = sc.team_spec("able")
    assert [c.hex for c in able.characters] == ["15.16", "14.16"]
    assert [c.profile for c in able.characters] == ["sgt_taylor", "sgt_mayfield"]
    red = sc.team_spec("red")
    assert [(c.counter, c.dummy, c.hex) for c in red.characters] == [
        (1, False, "15.06"),
        (None, True, "14.07"),
    ]
    assert red.cup[0].counters == (2,) and red.cup[0].dummies == 1 and red.cup[0].hexes == "16.07 13.06"
    (tank,) = sc.vehicles
    assert (tank.type, tank.side, tank.hex, tank.facing) == ("panzer_ivh", "enemy", "15.03", 4)
    assert [(d.hex, d.rotation) for d in sc.direction_counters] == [("15.10", 5)]
    assert [(o.hex, o.vp) for o in sc.victory.objectives] == [("15.05", 3)]
    assert [b.min_vp for b in sc.victory.bands][:3] == [15, 12, 10]
    (wave,) = sc.reinforcements
    assert (wave.team, wave.turn, wave.hexes, wave.order) == ("red", 3, "25.00 28.00", "EV 5/6")
    assert wave.cup.counters == (12,) and wave.cup.dummies == 1
    assert path.read_text(encoding="utf-8") == dump_scenario(sc)  # the editor writes the writer's text

    key(ed, pygame.K_p)  # Play this: saved and valid, so the loop starts it
    assert ed.play_requested
    w = Window(new_session(str(path), seed=1, data=house_data()), size=(1280, 800), resizable=False)
    w.step([])
    game = w.view.game
    policy = SimplePolicy()
    for _ in range(5):
        assert game.pending is not None
        game.apply(policy(game, game.pending))
    assert any(e.kind == "choice" for e in game.events)
    assert game.scenario.id == "my_scenario"


def test_problem_is_ringed_at_its_hex_and_play_refused(tmp_path):
    ed = new_editor(tmp_path)
    palette(ed, "team", "red")
    palette(ed, "tool", "character")
    click(ed, at(ed, "15.06"))
    palette(ed, "team", "able")
    click(ed, at(ed, "15.06"))  # a Friendly on the Enemy's hex at set-up (§19)
    key(ed, pygame.K_p)
    assert not ed.play_requested
    assert ed.problems and Hex.parse("15.06") in ed.problem_hexes
    assert any("15.06" in p.message for p in ed.problems)
    assert (tmp_path / "my_scenario.yaml").exists()  # it parses: written, with its problems shown
    surface = pygame.display.get_surface()
    ed.draw(surface)
    corner = ed.camera.corners(Hex.parse("15.06"), 0.92)[0]
    assert surface.get_at((round(corner[0]), round(corner[1])))[:3] == theme.LOS_BLOCKED


def test_text_that_would_not_read_back_is_never_written(tmp_path):
    ed = new_editor(tmp_path)
    path = tmp_path / "my_scenario.yaml"
    path.write_text("# the player's last good save\n", encoding="utf-8")
    ed.draft.doc["weather"] = "sunny"  # not a Weather: the text would not structure
    ed.save()
    assert ed.message.startswith("not saved")
    assert ed.problems and "weather" in str(ed.problems[0])
    assert path.read_text(encoding="utf-8") == "# the player's last good save\n"
    assert not list(tmp_path.glob(".*.tmp"))


def test_drag_moves_select_cycles_right_click_removes_and_undo(tmp_path):
    ed = new_editor(tmp_path)
    palette(ed, "team", "red")
    palette(ed, "tool", "character")
    click(ed, at(ed, "15.06"))
    palette(ed, "tool", "objective")
    click(ed, at(ed, "15.06"))
    palette(ed, "tool", "select")
    click(ed, at(ed, "15.06"))
    first = ed.selected
    click(ed, at(ed, "15.06"))  # again: the other piece of the hex
    assert {first.kind, ed.selected.kind} == {"character", "objective"}
    while ed.selected.kind != "character":
        click(ed, at(ed, "15.06"))
    click(ed, at(ed, "15.06"), up=at(ed, "16.07"))  # drag
    assert ed.draft.doc["enemy"][0]["characters"][0]["hex"] == "16.07"
    click(ed, at(ed, "16.07"), button=3)
    assert "characters" not in ed.draft.doc["enemy"][0] or not ed.draft.doc["enemy"][0]["characters"]
    key(ed, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert ed.draft.doc["enemy"][0]["characters"][0]["hex"] == "16.07"
    key(ed, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert ed.draft.doc["enemy"][0]["characters"][0]["hex"] == "15.06"


def test_crew_from_the_hex_seats_the_characters(tmp_path):
    ed = new_editor(tmp_path)
    palette(ed, "team", "red")
    palette(ed, "tool", "character")
    for _ in range(3):
        click(ed, at(ed, "15.00"))
    while ed.vehicle_type != "opel_truck":
        palette(ed, "vtype")
    click(ed, at(ed, "15.00"))
    key(ed, pygame.K_c)
    palette(ed, "team", "able")
    palette(ed, "tool", "character")
    click(ed, at(ed, "15.16"))
    v = ed.draft.doc["vehicles"][0]
    assert v["crew"] == {"driver": "red_1", "co_driver": "red_2"}  # crew positions first (C2 31.3)
    assert v["passengers"] == {"passenger_1": "red_3"}
    palette(ed, "tool", "select")
    click(ed, at(ed, "15.00"))
    while ed.selected.kind != "vehicle":
        click(ed, at(ed, "15.00"))
    click(ed, at(ed, "15.00"), up=at(ed, "15.01"))  # the truck takes its men along
    assert {c["hex"] for c in ed.draft.doc["enemy"][0]["characters"]} == {"15.01"}
    assert ed.save() == []


def test_team_forms_alert_prepared_and_a_rolled_squad(tmp_path):
    ed = new_editor(tmp_path)
    palette(ed, "team", "baker")
    click(ed, field(ed, "team:roll").rect.center)  # rolled on the C2 25.0 table
    palette(ed, "tool", "team_hex")
    for label in ("11.18", "12.17", "13.18"):
        click(ed, at(ed, label))
    palette(ed, "team", "blue")
    click(ed, field(ed, "team:alert").rect.center)
    click(ed, field(ed, "team:prepared").rect.center)
    assert field(ed, "team:alert").value == "Alert" and field(ed, "team:prepared").value == "Unprepared"
    palette(ed, "tool", "character")
    click(ed, at(ed, "13.06"))
    assert ed.save() == []
    sc = load_scenario(tmp_path / "my_scenario.yaml", house_data())
    baker, blue = sc.team_spec("baker"), sc.team_spec("blue")
    assert baker.roll is not None and baker.hexes == "11.18 12.17 13.18" and not baker.characters
    assert (blue.alert, blue.prepared) == (True, False)
    click(ed, field(ed, "team:alert").rect.center)  # back to Waiting: the key is left out
    assert "alert" not in ed.draft.doc["enemy"][0]


def test_resizing_the_window_moves_the_forms_and_refits_the_map(tmp_path):
    ed = new_editor(tmp_path)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=1600, h=1000, size=(1600, 1000)))
    run(ed)
    assert ed.forms_rect.right == 1600 and ed.camera.rect == ed.map_rect
    assert field(ed, "turns").rect.x > 1300
    palette(ed, "team", "red")
    palette(ed, "tool", "character")
    click(ed, at(ed, "15.06"))  # the clicked hex is the hex drawn there
    assert ed.draft.doc["enemy"][0]["characters"][0]["hex"] == "15.06"


def test_bad_number_in_a_form_is_refused(tmp_path):
    ed = new_editor(tmp_path)
    type_in(ed, "turns", "six")
    assert ed.draft.doc["turns"] == 6
    assert "not a whole number" in ed.message


@pytest.mark.parametrize("path", shipped_scenarios()[:3], ids=lambda p: p.stem)
def test_opening_and_saving_a_shipped_scenario_keeps_its_data(path, tmp_path):
    sc = structure(read(path), Scenario)
    out = tmp_path / "scenarios" / path.name
    text = path.read_text(encoding="utf-8")
    ed = ScenarioEditor(ScenarioDraft.from_text(text, path.name), out, house_data(), theme.Fonts(), size=SIZE)
    key(ed, pygame.K_HOME)  # the whole map in view
    assert ed.save() == []
    assert structure(read(out), Scenario) == sc
    assert out.read_text(encoding="utf-8") == text  # the same file, comments and all


def test_a_scenario_on_a_map_of_your_own(tmp_path):
    mine = tmp_path / "mine"
    (mine / "scenarios").mkdir(parents=True)
    text = (shipped_scenarios()[0].parent.parent / "town.yaml").read_text(encoding="utf-8")
    (mine / "mytown.yaml").write_text(text.replace("id: town", "id: mytown", 1), encoding="utf-8")
    draft = ScenarioDraft.new("../mytown.yaml", "on_mytown", "On my town")
    ed = ScenarioEditor(draft, mine / "scenarios" / "on_mytown.yaml", house_data(), theme.Fonts(), size=SIZE)
    key(ed, pygame.K_HOME)  # the whole map in view
    place_forces(ed)
    assert ed.play()  # saved, valid: the loop would start it
    sc = load_scenario(mine / "scenarios" / "on_mytown.yaml", house_data())
    assert sc.map == "../mytown.yaml" and sc.map_def is not None


def test_plus_minus_and_the_wheel_zoom_alike_and_brackets_change_the_profile(tmp_path):
    """+ and the wheel zoom in one step, - and the wheel back out; [ ] cycle the profile; Home fits."""
    ed = new_editor(tmp_path)
    ed.readable_view()
    start = ed.camera.step
    key(ed, pygame.K_PLUS)
    assert ed.camera.step == start + 1
    key(ed, pygame.K_MINUS)
    assert ed.camera.step == start
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    run(ed)
    assert ed.camera.step == start + 1
    key(ed, pygame.K_HOME)
    assert ed.camera.step == 0
    palette(ed, "tool", "character")
    click(ed, at(ed, "05.05"))
    before = ed.draft.pieces_at(Hex.parse("05.05"))[0].label
    key(ed, pygame.K_PLUS)  # zoom only: the profile stays
    assert ed.draft.pieces_at(Hex.parse("05.05"))[0].label == before
    key(ed, pygame.K_HOME)
    key(ed, pygame.K_RIGHTBRACKET)
    assert ed.draft.pieces_at(Hex.parse("05.05"))[0].label != before


def test_play_this_in_the_loop_starts_the_game_in_the_same_window(tmp_path, monkeypatch):
    """Last in the file: run_scenario_editor ends with pygame.quit()."""
    import solo.render.app as app

    path = tmp_path / "scenarios" / "first_contact.yaml"
    path.parent.mkdir()
    path.write_text((shipped_scenarios()[0].parent / "first_contact.yaml").read_text(encoding="utf-8"))
    started = []

    def fake_run(self, *, max_frames=None):
        started.append((self.view.game.scenario.id, pygame.display.get_surface().get_size()))
        return 0

    monkeypatch.setattr(app.Window, "run", fake_run)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode="p"))
    assert main(["edit", str(path), "--frames", "3"]) == 0
    assert started == [("first_contact", (1600, 1000))]  # the play window's size


def test_cli_opens_new_and_shipped_scenarios(tmp_path, capsys, monkeypatch):
    new = tmp_path / "mine.yaml"
    assert main(["edit", "--new-scenario", "town", str(new), "--frames", "1"]) == 0
    assert not new.exists()  # nothing is written until a save
    assert main(["edit", "--new-scenario", "nowhere", str(new), "--frames", "1"]) == 2
    assert "no such map" in capsys.readouterr().err
    assert main(["edit", "--new-scenario", "town", str(new), "--maps", str(tmp_path / "none")]) == 2
    assert "--maps" in capsys.readouterr().err
    monkeypatch.chdir(tmp_path)
    assert main(["edit", "first_contact", "--frames", "1"]) == 0
    assert main(["edit", str(shipped_scenarios()[0]), "--frames", "1"]) == 0
