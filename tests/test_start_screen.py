"""The start screen of `solo play` with no scenario (issue 12 item 1), driven by pygame events."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame
import pytest
from conftest import house_data

from solo.core.options import Options
from solo.data.scenario import shipped_scenarios
from solo.render import start as start_mod
from solo.render import theme
from solo.render.app import Window
from solo.render.session import new_session
from solo.render.start import StartChoice, StartScreen, option_values, recent_saves, remember_save

SIZE = (1600, 1000)


@pytest.fixture(autouse=True)
def own_recent_file(tmp_path, monkeypatch):
    """Recent saves go to a file of the test, never the user's (conftest does it for the others)."""
    path = tmp_path / "data" / "recent.json"
    monkeypatch.setattr(start_mod, "recent_file", lambda: path)
    return path


@pytest.fixture
def screen():
    pygame.font.init()
    return StartScreen(house_data(), theme.Fonts(), recent=[])


def up(pos):
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=tuple(round(v) for v in pos), button=1)


def key(k, text=""):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=text)


def spot(screen, action):
    return next(h.rect for h in screen.hotspots(SIZE) if h.action == action)


def test_every_shipped_scenario_is_listed_with_turns_forces_and_features(screen):
    """Each shipped scenario is offered; the armoured one names its vehicles and C2 31, 32.3."""
    assert [c.id for c in screen.cards] == [p.stem for p in shipped_scenarios()]
    rain = next(c for c in screen.cards if c.id == "armour_in_the_rain")
    assert "8 turns" in rain.setting and "weather heavy rain" in rain.setting
    assert "Panzer IVH" in rain.enemy
    assert any("C2 31" in f for f in rain.features) and any("C2 32.3" in f for f in rain.features)
    church = next(c for c in screen.cards if c.id == "the_churchyard")
    assert not any("C2 31" in f for f in church.features)


def test_clicks_and_keys_set_scenario_seed_table_and_options(screen):
    """Click a scenario, type a seed, toggle table mode, change an option; Enter starts that game."""
    assert screen.handle(up(spot(screen, ("scenario", "night_at_the_ford")).center), SIZE) is None
    for d in "42":
        screen.handle(key(pygame.K_0 + int(d), d), SIZE)
    assert screen.seed == 142  # typed after the preset 1
    screen.handle(key(pygame.K_BACKSPACE), SIZE)
    screen.handle(key(pygame.K_BACKSPACE), SIZE)
    screen.handle(key(pygame.K_BACKSPACE), SIZE)
    screen.handle(key(pygame.K_7, "7"), SIZE)
    screen.handle(up(spot(screen, ("seed", "+")).center), SIZE)
    screen.handle(up(spot(screen, ("table",)).center), SIZE)
    screen.handle(up(spot(screen, ("option", "plan_roll")).center), SIZE)
    got = screen.handle(key(pygame.K_RETURN), SIZE)
    assert got == StartChoice("night_at_the_ford", 8, True, {"plan_roll": True})


def test_an_option_back_at_its_default_is_not_listed(screen):
    """Cycling an option through its values returns to the default, which is then dropped."""
    values = option_values("smoke_grenade_timing", Options().smoke_grenade_timing)
    assert values[0] == Options().smoke_grenade_timing and len(values) == 2
    screen.cycle_option("smoke_grenade_timing")
    assert screen.options == {"smoke_grenade_timing": values[1]}
    screen.cycle_option("smoke_grenade_timing")
    assert screen.options == {}
    assert option_values("medical_aid_range", 0) == (0, 1)


def test_recent_saves_newest_first_and_a_click_continues_one(tmp_path, own_recent_file):
    """Saves are remembered newest first, missing ones dropped; clicking one continues it."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("{}")
    b.write_text("{}")
    remember_save(a)
    remember_save(b)
    remember_save(a)
    assert recent_saves() == [a.resolve(), b.resolve()]
    b.unlink()
    assert recent_saves() == [a.resolve()]
    pygame.font.init()
    screen = StartScreen(house_data(), theme.Fonts())
    got = screen.handle(up(spot(screen, ("recent", str(a.resolve()))).center), SIZE)
    assert got == StartChoice(load=str(a.resolve()))


def test_window_start_screen_then_the_chosen_game(own_recent_file):
    """In the window: the start screen answers posted events; the game starts with its options."""
    w = Window(None, size=SIZE, resizable=False)
    try:
        pygame.event.post(key(pygame.K_DOWN))
        pygame.event.post(key(pygame.K_RETURN))
        choice = w.start(house_data(), max_frames=5, seed=3)
        assert choice == StartChoice(w.start_screen.cards[1].id, 3, False, {})
        surface = pygame.Surface(SIZE)
        w.start_screen.draw(surface)
        # the map picture of the selected scenario is drawn in its rectangle
        mp = w.start_screen.rects(SIZE)["map"]
        colours = {tuple(surface.get_at((x, mp.centery)))[:3] for x in range(mp.x + 5, mp.right - 5, 7)}
        assert theme.TERRAIN_COLOURS["open"] in colours or theme.TERRAIN_COLOURS["building"] in colours
        assert w.start(house_data(), max_frames=2) is None  # no answer: nothing chosen
    finally:
        w.close()


def test_options_chosen_go_into_the_game_and_its_save(tmp_path, own_recent_file):
    """A new session with options plays by them and its save header carries them."""
    s = new_session("first_contact", seed=2, data=house_data(), options={"plan_roll": True})
    assert s.game.options.plan_roll is True
    s.save(tmp_path / "g.jsonl")
    from solo.core.log import read_log

    header, _events = read_log(tmp_path / "g.jsonl")
    assert header.options == {"plan_roll": True}


def test_ctrl_s_remembers_the_save(tmp_path, own_recent_file):
    """Ctrl+S in the window adds the save to the recent saves."""
    w = Window(new_session("first_contact", seed=1, data=house_data()), size=SIZE, resizable=False)
    try:
        w.controller.save_path = tmp_path / "s.jsonl"
        pygame.event.post(
            pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=pygame.KMOD_CTRL, unicode="")
        )
        w.step()
        assert recent_saves() == [(tmp_path / "s.jsonl").resolve()]
    finally:
        w.close()


def test_reinforcements_say_their_turn_and_event_waves(screen):
    """The churchyard's waves: one on turn 4, one on an Event roll (§18, no turn): never 'None'."""
    church = next(c for c in screen.cards if c.id == "the_churchyard")
    assert church.enemy.endswith("; reinforcements on turn 4 and on an Event roll (§18)")
    assert "None" not in church.enemy
    first = next(c for c in screen.cards if c.id == "first_contact")
    assert "reinforcements" not in first.enemy
