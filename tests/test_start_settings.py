"""The start screen remembers its pace, scenario and house options between runs
(solo.render.start_settings: settings.json in the user data folder, a test folder here); a
settings file it cannot read falls back to the defaults and says so once."""

import json
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame
import pytest
from conftest import house_data

from solo.render import theme
from solo.render.app import Window
from solo.render.start import StartScreen
from solo.render.start_settings import load_start_settings, settings_file

SIZE = (1600, 1000)


@pytest.fixture(autouse=True)
def _fonts():
    pygame.font.init()


def screen(**kw) -> StartScreen:
    return StartScreen(house_data(), theme.Fonts(), recent=[], interrupted=None, **kw)


def key(k, text=""):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=text)


def shown_text(s: StartScreen) -> list[str]:
    s.fonts.shown = []
    s.draw(pygame.Surface(SIZE))
    got, s.fonts.shown = s.fonts.shown, None
    return got


def test_the_next_start_screen_has_the_pace_scenario_and_options_last_chosen(tmp_path):
    path = tmp_path / "settings.json"
    first = screen(settings=path)
    assert first.pace == "instant" and first.selected == 0 and first.notice == ""
    first.key(pygame.K_p, "p")  # step
    first.key(pygame.K_DOWN, "")
    first.key(pygame.K_DOWN, "")
    first.cycle_option("night_los")
    chosen = (first.pace, first.cards[first.selected].id, dict(first.options))
    assert chosen[0] == "step" and chosen[2]
    assert first.remember()
    again = screen(settings=path)
    assert (again.pace, again.cards[again.selected].id, again.options) == chosen
    assert again.notice == ""
    assert again.choice().pace == "step"


def test_the_window_remembers_the_choice_it_starts_with():
    """Window.start keeps the start screen's choice in the user's settings (the default file,
    in the test's user data folder): the next run's start screen opens on it."""
    w = Window(None, size=SIZE, resizable=False)
    try:
        for k, t in ((pygame.K_p, "p"), (pygame.K_p, "p"), (pygame.K_DOWN, ""), (pygame.K_RETURN, "")):
            pygame.event.post(key(k, t))
        choice = w.start(house_data(), max_frames=5)
        assert choice is not None and choice.pace == "timed"
        kept = json.loads(settings_file().read_text(encoding="utf-8"))
        assert kept["pace"] == "timed" and kept["scenario"] == choice.scenario
        assert w.start(house_data(), max_frames=2) is None
        assert w.start_screen.pace == "timed"
        assert w.start_screen.cards[w.start_screen.selected].id == choice.scenario
    finally:
        w.close()


def test_a_corrupt_settings_file_gives_the_defaults_and_is_said_once(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"pace": "step",\n  oops', encoding="utf-8")
    s = screen(settings=path)
    assert s.pace == "instant" and s.selected == 0 and s.options == {}
    assert s.notice.startswith(f"{path}:2: not a settings file")
    assert "defaults" in s.notice
    assert any("not a settings file" in t for t in shown_text(s))  # on the screen
    assert not path.exists() and (tmp_path / "settings.json.bad").exists()
    assert screen(settings=path).notice == ""  # said once: the next start is quiet


def test_wrong_values_are_ignored_one_by_one(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(
        json.dumps(
            {
                "pace": "fast",
                "scenario": 7,
                "options": {"night_los": 3, "no_such": 1, "medical_aid_range": "x"},
            }
        ),
        encoding="utf-8",
    )
    got, problem = load_start_settings(path)
    assert got.pace == "instant" and got.scenario is None and got.options == {"night_los": 3}
    assert problem.startswith(f"{path}:1: ")
    for said in ("pace 'fast'", "scenario 7", "option no_such", "option medical_aid_range 'x'"):
        assert said in problem
    assert screen(settings=path).options == {"night_los": 3}


def test_a_file_that_is_not_an_object_or_a_missing_scenario_is_no_crash(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("[1, 2]", encoding="utf-8")
    assert screen(settings=path).notice.startswith(f"{path}:1: not a settings file")
    path.write_text(json.dumps({"pace": "timed", "scenario": "gone_scenario"}), encoding="utf-8")
    s = screen(settings=path)
    assert s.pace == "timed" and s.selected == 0 and s.notice == ""
