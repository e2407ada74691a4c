"""The scenario editor's rules, victory and options pages (issue 12f): wind, board edges, event
tables, a multi-line description, Play this's seed, VP per man, exits, the scenario's house
options, the minefield, fire and exit-hex tools on the map, and a Friendly character written out
with typed stats; each saved, validated and read
back, and a shipped scenario keeps every section left alone byte for byte."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame
import pytest
from conftest import house_data
from test_scenario_editor import at, click, field, key, new_editor, palette, place_forces, type_in

from solo.core.options import Options
from solo.data.scenario import load_scenario, shipped_scenarios
from solo.data.scenario_draft import ScenarioDraft
from solo.data.yaml_sections import top_sections as _sections
from solo.render import theme
from solo.render.scenario_editor import ScenarioEditor

SIZE = (1280, 800)


@pytest.fixture(scope="module", autouse=True)
def _window():
    pygame.init()
    pygame.display.set_mode(SIZE)
    yield
    pygame.quit()


def page(ed, name):
    click(ed, field(ed, f"page:{name}").rect.center)
    assert ed.forms.page == name


def saved(ed, tmp_path, name="my_scenario"):
    key(ed, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert ed.problems == [], ed.problems
    return load_scenario(tmp_path / f"{name}.yaml", house_data())


def reopened_text_is_the_same(path):
    """Load -> save without edits gives the same file."""
    text = path.read_text(encoding="utf-8")
    out = path.with_name("again.yaml")
    ed = ScenarioEditor(ScenarioDraft.from_text(text, path.name), out, house_data(), theme.Fonts(), size=SIZE)
    key(ed, pygame.K_HOME)  # the whole map in view
    assert ed.save() == []
    assert out.read_text(encoding="utf-8") == text


def test_rules_page_wind_edges_events_description_and_seed(tmp_path):
    ed = new_editor(tmp_path)
    place_forces(ed)
    page(ed, "rules")
    assert field(ed, "wind").value == "rolled (d6)"
    for _ in range(3):
        click(ed, field(ed, "wind").rect.center)  # rolled -> 1 -> 2 -> 3
    assert field(ed, "wind").value == "toward 3"
    click(ed, field(ed, "edge:friendly").rect.center)  # south -> east (after north, south)
    click(ed, field(ed, "edge:enemy").rect.center)  # north -> south
    click(ed, field(ed, "event:friendly").rect.center)  # attacking -> defending
    click(ed, field(ed, "event:enemy").rect.center)  # defending -> meeting
    click(ed, field(ed, "description").rect.center)
    for ch in "Hold the town.":
        key(ed, 0, text=ch)
    key(ed, pygame.K_RETURN, mod=pygame.KMOD_SHIFT)  # a new line, not done
    assert ed.forms.focus == "description"
    key(ed, pygame.K_RETURN, mod=pygame.KMOD_SHIFT)
    for ch in "Night falls at 8.  ":
        key(ed, 0, text=ch)
    key(ed, pygame.K_RETURN)
    type_in(ed, "seed", "7")
    assert ed.seed == 7
    sc = saved(ed, tmp_path)
    assert sc.wind == 3
    assert (sc.edges.friendly.value, sc.edges.enemy.value) == ("east", "south")
    assert (sc.events.friendly.value, sc.events.enemy.value) == ("defending", "meeting")
    assert sc.description == "Hold the town.\n\nNight falls at 8."
    text = (tmp_path / "my_scenario.yaml").read_text(encoding="utf-8")
    assert "description: |-\n  Hold the town.\n\n  Night falls at 8.\n" in text
    assert "seed" not in text  # the seed is Play this's, not the scenario's
    reopened_text_is_the_same(tmp_path / "my_scenario.yaml")
    for _ in range(4):
        click(ed, field(ed, "wind").rect.center)  # 3 -> 4 -> 5 -> 6 -> rolled again
    click(ed, field(ed, "event:friendly").rect.center)  # defending -> meeting
    click(ed, field(ed, "event:friendly").rect.center)  # meeting -> attacking, the default
    assert "wind" not in ed.draft.doc and ed.draft.doc["events"] == {"enemy": "meeting"}


def test_victory_page_vp_per_man_exits_and_bands(tmp_path):
    ed = new_editor(tmp_path)
    place_forces(ed)
    page(ed, "victory")
    type_in(ed, "vic:kill", "2")
    type_in(ed, "vic:friendly_captured", "3")
    type_in(ed, "vic:leader_kill", "2")  # the default: left out
    type_in(ed, "band:0", "16")
    click(ed, field(ed, "exit:add").rect.center)  # 1 VP by the Enemy edge (north)
    type_in(ed, "exit:vp", "2")
    click(ed, field(ed, "exit:add").rect.center)  # a second exit: by hexes
    click(ed, field(ed, "exit:edge").rect.center)  # north -> south
    for _ in range(3):
        click(ed, field(ed, "exit:edge").rect.center)  # east, west, none: hexes
    click(ed, field(ed, "exit:side").rect.center)  # for the Enemy
    assert ed.tool == "exit_hex"
    click(ed, at(ed, "01.10"))
    click(ed, at(ed, "01.11"))
    click(ed, at(ed, "01.10"))  # a second click takes it off
    sc = saved(ed, tmp_path)
    v = sc.victory
    assert (v.kill, v.leader_kill, v.friendly_captured) == (2, 2, 3)
    assert [(e.vp, e.side.value, e.edge and e.edge.value, e.hexes) for e in v.exits] == [
        (2, "friendly", "north", None),
        (1, "enemy", None, "01.11"),
    ]
    assert v.bands[0].min_vp == 16
    assert "leader_kill" not in ed.draft.doc["victory"]
    reopened_text_is_the_same(tmp_path / "my_scenario.yaml")
    click(ed, field(ed, "exit:0:del").rect.center)
    click(ed, field(ed, "exit:0:del").rect.center)
    assert "exits" not in ed.draft.doc["victory"]
    type_in(ed, "vic:kill", "x")
    assert "not a whole number" in ed.message and ed.draft.doc["victory"]["kill"] == 2


def test_options_page_cycles_choices_and_types_numbers(tmp_path):
    ed = new_editor(tmp_path)
    place_forces(ed)
    page(ed, "options")
    click(ed, field(ed, "opt:optional_enemy_activation").rect.center)  # no -> yes
    click(ed, field(ed, "opt:minefield_men").rect.center)  # morale_check -> none
    type_in(ed, "opt:night_los", "3")
    assert field(ed, "opt:night_los").value == "Night LOS limit: 3 hexes · Q20, §15 *"
    sc = saved(ed, tmp_path)
    assert sc.options == {"optional_enemy_activation": True, "night_los": 3, "minefield_men": "none"}
    assert sc.game_options().night_los == 3
    reopened_text_is_the_same(tmp_path / "my_scenario.yaml")
    type_in(ed, "opt:night_los", "0")  # out of range: the validator says so at save
    key(ed, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert any("night_los" in p.message for p in ed.problems), ed.problems
    type_in(ed, "opt:night_los", str(Options().night_los))  # the default again: left out
    click(ed, field(ed, "opt:optional_enemy_activation").rect.center)
    click(ed, field(ed, "opt:minefield_men").rect.center)
    assert "options" not in ed.draft.doc


def test_minefield_and_fire_tools_toggle_hexes(tmp_path):
    ed = new_editor(tmp_path)
    place_forces(ed)
    palette(ed, "tool", "minefield")
    click(ed, at(ed, "20.05"))
    click(ed, at(ed, "20.06"))
    click(ed, at(ed, "20.06"))  # off again
    palette(ed, "tool", "fire")
    click(ed, at(ed, "13.09"))  # a building: it burns (C2 29.2)
    assert "fire set in 13.09" in ed.message
    sc = saved(ed, tmp_path)
    assert (sc.minefields, sc.fires) == ("20.05", "13.09")
    reopened_text_is_the_same(tmp_path / "my_scenario.yaml")
    click(ed, at(ed, "10.10"))  # open ground does not burn: the validator rings it
    key(ed, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert any("does not burn" in p.message for p in ed.problems)
    assert [str(h) for h in ed.problem_hexes] == ["10.10"]
    key(ed, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert ed.draft.doc["fires"] == "13.09"
    page(ed, "rules")
    assert "1 hex(es) (C2 31.5) 20.05" in field(ed, "info").value


def test_exit_hex_tool_needs_an_exit(tmp_path):
    ed = new_editor(tmp_path)
    palette(ed, "tool", "exit_hex")
    click(ed, at(ed, "01.10"))
    assert "add or select an exit" in ed.message and "victory" not in ed.draft.doc


def test_a_friendly_character_written_out_with_typed_stats(tmp_path):
    ed = new_editor(tmp_path)
    place_forces(ed)
    palette(ed, "tool", "select")
    click(ed, at(ed, "14.16"))  # Able's second man: sgt_mayfield
    assert ed.selected.label == "sgt_mayfield"
    click(ed, field(ed, "chr:write").rect.center)
    entry = ed.draft.get(ed.selected.path)
    assert "profile" not in entry and entry["hex"] == "14.16"
    assert field(ed, "chr:weapons").value  # the profile's weapons, to be edited
    type_in(ed, "chr:name", "Cpl Hayes")
    type_in(ed, "chr:tq", "6")
    type_in(ed, "chr:ldr", "1")
    type_in(ed, "chr:weapons", "m1_garand:5 bar")
    assert "is not weapon:WS" in ed.message
    type_in(ed, "chr:weapons", "m1_garand:5 hand_grenade:4")
    sc = saved(ed, tmp_path)
    man = sc.team_spec("able").characters[1]
    assert (man.name, man.tq, man.ldr, man.hex, man.profile) == ("Cpl Hayes", 6, 1, "14.16", None)
    assert [(w.weapon, w.ws) for w in man.weapons] == [("m1_garand", 5), ("hand_grenade", 4)]
    reopened_text_is_the_same(tmp_path / "my_scenario.yaml")
    type_in(ed, "chr:weapons", "ray_gun:5")  # not a weapon of the card set: the validator says so
    key(ed, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert any("ray_gun" in p.message for p in ed.problems), ed.problems
    assert [str(h) for h in ed.problem_hexes] == ["14.16"]
    click(ed, field(ed, "chr:write").rect.center)  # use a profile again: the next one not in use
    entry = ed.draft.get(ed.selected.path)
    assert entry == {"id": entry["id"], "hex": "14.16", "profile": entry["profile"]}
    assert entry["profile"] == "sgt_mayfield"  # the first profile not in use (Taylor is)
    assert saved(ed, tmp_path).team_spec("able").characters[1].profile == "sgt_mayfield"


def test_an_enemy_counter_has_no_write_out(tmp_path):
    ed = new_editor(tmp_path)
    place_forces(ed)
    palette(ed, "tool", "select")
    click(ed, at(ed, "15.06"))
    assert ed.selected.label == "counter 1"
    assert not [f for f in ed.forms.fields(ed.forms_rect) if f.key == "chr:write"]


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.stem)
def test_a_shipped_scenario_changed_on_the_rules_page_keeps_the_rest_byte_for_byte(path, tmp_path):
    text = path.read_text(encoding="utf-8")
    out = tmp_path / path.name
    ed = ScenarioEditor(ScenarioDraft.from_text(text, path.name), out, house_data(), theme.Fonts(), size=SIZE)
    key(ed, pygame.K_HOME)  # the whole map in view
    page(ed, "rules")
    click(ed, field(ed, "wind").rect.center)
    ed.save()
    old, new = _sections(text), _sections(out.read_text(encoding="utf-8"))
    assert {k: v for k, v in new.items() if k != "wind"} == {k: v for k, v in old.items() if k != "wind"}
    assert new["wind"] != old.get("wind")


def test_play_this_uses_the_seed_of_the_rules_page(tmp_path, monkeypatch):
    """Last in the file: run_scenario_editor ends with pygame.quit()."""
    import solo.render.app as app
    import solo.render.session as session
    from solo.render.scenario_editor import run_scenario_editor

    ed = new_editor(tmp_path)
    place_forces(ed)
    assert ed.save() == []
    seeds = []
    real = session.new_session

    def spy(path, *, seed, data):
        seeds.append(seed)
        return real(path, seed=seed, data=data)

    monkeypatch.setattr(session, "new_session", spy)
    monkeypatch.setattr(app.Window, "run", lambda self, *, max_frames=None: 0)
    probe = ScenarioEditor(ed.draft, ed.path, house_data(), theme.Fonts(), size=SIZE)
    pygame.event.clear()
    post = pygame.event.post
    tab = field(probe, "page:rules").rect.center
    post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=tab, button=1))
    post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=tab, button=1))
    probe.forms.page = "rules"
    seed = field(probe, "seed").rect.center
    post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=seed, button=1))
    post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=seed, button=1))
    for ch in "42":
        post(pygame.event.Event(pygame.KEYDOWN, key=0, mod=0, unicode=ch))
    post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode="p"))
    assert run_scenario_editor(ed.draft, ed.path, house_data(), size=SIZE, max_frames=3) == 0
    assert seeds == [42]


def test_a_shipped_scenario_with_a_relative_map_saved_here_leads_to_the_same_map(
    tmp_path, monkeypatch, capsys
):
    """`solo edit ID` saves ID.yaml in the current folder: a `map:` relative to the shipped file
    is rewritten for the new place (and a map id is left alone)."""
    import solo.core.resources as resources
    from solo.cli.main import main

    shipped = tmp_path / "shipped"
    (shipped / "scenarios").mkdir(parents=True)
    town = next(p for p in shipped_scenarios() if p.stem == "first_contact").parent.parent / "town.yaml"
    (shipped / "mytown.yaml").write_text(
        town.read_text(encoding="utf-8").replace("id: town", "id: mytown", 1), encoding="utf-8"
    )
    churchyard = next(p for p in shipped_scenarios() if p.stem == "the_churchyard").read_text(
        encoding="utf-8"
    )
    mine = churchyard.replace("\nmap: town ", "\nmap: ../mytown.yaml ", 1).replace(
        "id: the_churchyard", "id: mine", 1
    )
    assert "map: ../mytown.yaml" in mine
    (shipped / "scenarios" / "mine.yaml").write_text(mine, encoding="utf-8")
    monkeypatch.setattr(resources, "maps_dir", lambda: shipped)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    pygame.init()
    pygame.display.set_mode(SIZE)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=pygame.KMOD_CTRL, unicode=""))
    assert main(["edit", "mine", "--frames", "3"]) == 0
    assert "its map '../mytown.yaml' is written '../shipped/mytown.yaml'" in capsys.readouterr().out
    text = (work / "mine.yaml").read_text(encoding="utf-8")
    assert "\nmap: ../shipped/mytown.yaml\n" in text
    sc = load_scenario(work / "mine.yaml", house_data())
    assert sc.map_def is not None and sc.map_def.id == "mytown"
    others = {k: v for k, v in _sections(mine).items() if k != "map"}
    assert {k: v for k, v in _sections(text).items() if k != "map"} == others  # the rest as written

    draft = ScenarioDraft.from_text(churchyard, "the_churchyard.yaml")
    assert draft.relocate_map(shipped / "scenarios", work, house_data().maps) is None  # a map id
    assert draft.doc["map"] == "town"


def test_toggle_hex_keeps_tokens_that_are_not_hexes():
    """``fires:``/``minefields:`` (C2 29.0, 31.5): toggling a hex keeps a token it cannot read
    (the validator reports it with its line) and takes out the hex however it was written."""
    from solo.core.hexes import Hex

    draft = ScenarioDraft({"fires": "13.09 xx.yy 20.5"})
    assert draft.toggle_hex("fires", Hex.parse("10.10")) is True
    assert draft.doc["fires"] == "13.09 xx.yy 20.5 10.10"
    assert draft.toggle_hex("fires", Hex.parse("13.09")) is False
    assert draft.doc["fires"] == "xx.yy 20.5 10.10"
