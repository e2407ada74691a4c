"""The pygame window and snapshots (issue 5): pixels at computed positions, mouse-driven decisions,
save/load, table mode, fog of war, the log filter, `solo render` and `solo play` without a display."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import subprocess
import sys
from pathlib import Path

import pygame
import pytest
from conftest import house_data
from hypothesis import given, settings
from hypothesis import strategies as st

from solo.cli.main import main
from solo.core.dice import ChanceRequest
from solo.core.hexes import Hex, neighbour
from solo.core.log import read_log
from solo.playtest.play import new_game, replay
from solo.playtest.policies import SimplePolicy
from solo.render import target_markers, theme, vehicle_counters, vehicle_displays, vehicle_labels
from solo.render.app import Window
from solo.render.board import render_counter
from solo.render.frame import GameView
from solo.render.logview import Fog, log_lines, mentions
from solo.render.session import Session, load_session, new_session, reached, recorded_chance
from solo.render.snapshot import draw_game
from solo.render.view import Camera, hexside_segment
from solo.rules.state import Side

SIZE = (1600, 1000)
SOLO = Path(sys.executable).parent / "solo"


def drawn(game, size=SIZE):
    """A GameView of ``game`` and the surface it drew."""
    pygame.font.init()
    view = GameView(game, size)
    surface = pygame.Surface(size)
    view.draw(surface)
    return view, surface


def at(surface, xy):
    """The RGB colour of the pixel at ``xy`` (rounded)."""
    return tuple(surface.get_at((round(xy[0]), round(xy[1]))))[:3]


@pytest.fixture
def first_contact():
    return new_session("first_contact", seed=1, data=house_data())


@pytest.fixture
def window(first_contact):
    w = Window(first_contact, size=SIZE, resizable=False)
    w.step([])
    yield w
    w.close()


def click(w, pos):
    """Post a left click at ``pos`` and run two frames."""
    pos = (round(pos[0]), round(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    w.step()
    w.step()


def press(w, key, mod=0, unicode=""):
    """Post a key press and run a frame."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode))
    w.step()


def hotspot(w, kind, key):
    """The rectangle of the hotspot ``(kind, key)`` now."""
    for hs in w.view.hotspots():
        if hs.action == (kind, key):
            return hs.rect
    raise AssertionError(f"no hotspot {kind} {key}: {[h.action for h in w.view.hotspots()]}")


# -- snapshot pixels ----------------------------------------------------------


def test_friendly_counter_shows_its_team_colour_at_its_hex_centre(first_contact):
    """Sgt Taylor (Able, alone in 15.16) is drawn in Able's colour at the centre of his hex."""
    g = first_contact.game
    view, surface = drawn(g)
    assert g.char("able_1").hex == Hex.parse("15.16")
    assert at(surface, view.camera.centre(Hex.parse("15.16"))) == theme.FRIENDLY_TEAM_COLOURS["able"]


def test_building_hex_is_drawn_in_the_building_colour(first_contact):
    """A level-0 building hex with nothing on it shows the building colour at its centre."""
    g = first_contact.game
    view, surface = drawn(g)
    busy = {c.hex for c in g.state.characters.values()} | set(g.board.map.road_hexes)
    h = next(
        h
        for h in g.board.hexes
        if g.board.map.terrain[h] == "building"
        and h not in busy
        and g.board.map.level[h] == 0
        and view.layout.map.inflate(-200, -200).collidepoint(view.camera.centre(h))
    )
    assert at(surface, view.camera.centre(h)) == theme.TERRAIN_COLOURS["building"]


def test_hedge_hexside_is_drawn_on_the_hexside(first_contact):
    """The middle of a hedge hexside, away from counters, shows the hedge colour."""
    g = first_contact.game
    view, surface = drawn(g)
    cam = view.camera
    occupied = [c.hex for c in g.state.characters.values() if c.hex is not None]
    inner = view.layout.map.inflate(-200, -200)
    hedges = [
        (a, b)
        for (a, b), f in g.board.map.hexsides.items()
        if f == "hedge" and all(g.distance(a, o) > 2 for o in occupied)
    ]
    (a, b) = next(p for p in hedges if inner.collidepoint(cam.centre(p[0])))
    p, q = hexside_segment(cam.centre(a), cam.centre(b), cam.scale)
    mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
    assert at(surface, mid) == theme.HEXSIDE_COLOURS["hedge"]
    # and the centres either side are not hedge-coloured (the feature is on the hexside only)
    assert at(surface, cam.centre(a)) != theme.HEXSIDE_COLOURS["hedge"]


def test_unknown_enemy_counters_look_alike_whoever_they_are():
    """Two Unknown enemies of one team with the same order draw pixel-identical '?' counters."""
    g = new_game("the_churchyard", seed=1, data=house_data())
    pygame.font.init()
    fonts = theme.Fonts()
    red = [c for c in g.state.on_side(Side.ENEMY) if c.team == "red" and not c.revealed and c.hex]
    dummy = next(c for c in red if c.dummy)
    man = next(c for c in red if not c.dummy)
    assert dummy.order == man.order
    a = render_counter(g, dummy, 30, fonts, hidden=True)
    b = render_counter(g, man, 30, fonts, hidden=True)
    assert pygame.image.tobytes(a, "RGBA") == pygame.image.tobytes(b, "RGBA")


def test_drawing_never_changes_the_game():
    """Drawing (with an LOS line and a tooltip) leaves events, dice and characters as they were."""
    import attrs

    g = new_game("the_churchyard", seed=2, data=house_data())
    policy = SimplePolicy()
    for _ in range(60):
        g.apply(policy(g, g.pending))
    before = (len(g.events), g.dice.seq, [attrs.asdict(c) for c in g.state.characters.values()])
    view = GameView(g, SIZE)
    view.ui.selected = next(c.id for c in g.state.active(Side.FRIENDLY))
    view.ui.hover_hex = Hex.parse("15.05")
    view.ui.mouse = tuple(round(v) for v in view.camera.centre(g.char(view.ui.selected).hex))
    view.draw(pygame.Surface(SIZE))
    after = (len(g.events), g.dice.seq, [attrs.asdict(c) for c in g.state.characters.values()])
    assert before == after


# -- camera -----------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 682), st.integers(-2, 4), st.integers(-300, 300), st.integers(-300, 300))
def test_hex_under_a_hex_centre_is_that_hex(i, zoom, dx, dy):
    """At any zoom and pan, the hex under a hex's drawn centre is that hex (when it is in view)."""
    g = new_game("first_contact", seed=1, data=house_data())
    cam = Camera(g.board, pygame.Rect(0, 70, 1136, 730))
    cam.zoom(zoom)
    cam.pan(dx, dy)
    h = g.board.hexes[i % len(g.board.hexes)]
    c = cam.centre(h)
    if cam.rect.collidepoint(c):
        assert cam.hex_at(c) == h


def test_static_map_layer_is_cached_per_zoom(first_contact):
    """Redrawing at the same zoom reuses the map layer; a new zoom step draws one more."""
    view, surface = drawn(first_contact.game)
    assert view.map_layer.renders == 1
    view.draw(surface)
    assert view.map_layer.renders == 1
    view.camera.zoom(1)
    view.draw(surface)
    assert view.map_layer.renders == 2


# -- the window driven by mouse events ------------------------------------------------


def test_mouse_plays_a_card_and_gives_orders(window):
    """Clicks on a hand card, order buttons, a rose direction and a map hex reach the engine as exactly
    those Decisions."""
    g = window.view.game
    card = g.state.cards.hand[1]
    click(window, hotspot(window, "card", card).center)
    assert g.inputs == [{"decision": "play_card", "actor": None, "choice": card}]
    assert g.pending.kind.value == "give_order" and g.pending.actor == "able_1"
    click(window, hotspot(window, "option", "sneak").center)
    assert g.pending.kind.value == "order_direction"
    click(window, hotspot(window, "option", "1/2").center)
    assert g.pending.actor == "able_2"
    click(window, hotspot(window, "option", "evade").center)
    frm = g.char("able_2").hex
    click(window, window.view.camera.centre(neighbour(frm, 1, g.board.map.stagger)))
    assert g.inputs[1:] == [
        {"decision": "give_order", "actor": "able_1", "choice": "sneak"},
        {"decision": "order_direction", "actor": "able_1", "choice": "1/2"},
        {"decision": "give_order", "actor": "able_2", "choice": "evade"},
        {"decision": "order_direction", "actor": "able_2", "choice": "1"},
    ]
    choices = [(e.data["decision"], e.data["choice"]) for e in g.events if e.kind == "choice"]
    assert choices == [(i["decision"], i["choice"]) for i in g.inputs]
    assert g.char("able_1").order.order == "sneak" and str(g.char("able_1").order.directions) == "1/2"


def test_number_keys_and_space_answer(window):
    """Key 1 plays the first card; Space gives the default order Hide (7.0)."""
    g = window.view.game
    first = g.state.cards.hand[0]
    press(window, pygame.K_1)
    assert g.inputs[-1]["choice"] == first
    press(window, pygame.K_SPACE)
    assert g.inputs[-1] == {"decision": "give_order", "actor": "able_1", "choice": "hide"}


def test_clicking_a_counter_selects_it_and_filters_the_log(window):
    """A click on Sgt Taylor's counter selects him; the log panel then shows only his events."""
    g = window.view.game
    press(window, pygame.K_1)
    press(window, pygame.K_SPACE)  # Taylor: Hide
    click(window, window.view.counter_rect("able_1").center)
    assert window.view.ui.selected == "able_1"
    lines = window.view.log_panel.lines(g, window.view.fog(), window.view.ui)
    assert lines and all(mentions(g, g.events[ln.seq], "able_1", window.view.fog()) for ln in lines)
    assert len(lines) < len(log_lines(g, window.view.fog()))
    click(window, hotspot(window, "log", "clear_filter").center)
    assert window.view.ui.selected is None


def test_log_lines_filter_by_unit():
    """log_lines(unit=...) keeps the events whose actor is that unit or that name him."""
    g = new_game("first_contact", seed=2, data=house_data())
    g.play(SimplePolicy())
    fog = Fog(g, enabled=False)
    mine = log_lines(g, fog, unit="able_3")
    assert mine
    assert all(g.events[ln.seq].actor == "able_3" or "Brubaker" in ln.text for ln in mine)
    assert len(mine) < len(log_lines(g, fog))


def test_auto_key_plays_to_the_next_turn(window):
    """N answers with the simple policy until the turn changes."""
    g = window.view.game
    assert g.state.flow.turn == 1
    press(window, pygame.K_n)
    assert g.state.flow.turn == 2 or g.over
    assert len(g.inputs) > 5


def test_ctrl_s_saves_a_log_that_replays_and_loads(window, tmp_path):
    """Ctrl+S writes a log that `solo replay` accepts; --load rebuilds the same game."""
    g = window.view.game
    window.controller.save_path = tmp_path / "save.jsonl"
    press(window, pygame.K_1)
    press(window, pygame.K_n)
    press(window, pygame.K_s, pygame.KMOD_CTRL)
    assert replay(tmp_path / "save.jsonl").ok
    loaded = load_session(tmp_path / "save.jsonl").game
    assert loaded.inputs == g.inputs
    assert loaded.pending.prompt == g.pending.prompt


def test_load_stops_at_the_asked_turn_and_impulse(tmp_path):
    """A log replayed for a snapshot stops once the flow reaches turn 2, impulse 3."""
    g = new_game("first_contact", seed=3, data=house_data())
    g.play(SimplePolicy())
    s = Session(g, "first_contact", 3)
    s.save(tmp_path / "g.jsonl")
    at_point = load_session(tmp_path / "g.jsonl", stop=lambda x: reached(x, 2, 3)).game
    # The engine pauses only at decisions: the replay stops at the first one at or after 2.3.
    first = next(e for e in g.events if e.kind == "choice" and (e.turn, e.impulse) >= (2, 3))
    assert (at_point.state.flow.turn, at_point.state.flow.impulse) == (first.turn, first.impulse)
    assert len(at_point.inputs) < len(g.inputs)


# -- table mode ------------------------------------------------------------------------------


def test_table_mode_save_records_the_players_results_and_replays(tmp_path):
    """A table-mode game saves the given dice and cards as forced results: `solo replay` matches."""
    asked = []

    def player(req: ChanceRequest):
        asked.append(req.kind)
        if req.kind == "shuffle":
            return "ok"
        return req.legal[len(asked) % len(req.legal)]

    s = new_session("first_contact", seed=5, data=house_data(), table=player)
    policy = SimplePolicy()
    for _ in range(40):
        s.game.apply(policy(s.game, s.game.pending))
    path = s.save(tmp_path / "table.jsonl")
    header, _events = read_log(path)
    dice, cards = recorded_chance(s.game.events)
    assert list(header.dice) == dice and {k: list(v) for k, v in header.cards.items()} == cards
    assert "card" in asked and "shuffle" in asked
    assert replay(path).ok


def test_chance_dialog_takes_keys_and_clicks(window):
    """The table-mode dialog answers a d10 from a digit key, a d6 from a click, %D from two digits."""
    dlg = window.dialog
    d10 = ChanceRequest("d10", "spot: test", tuple(range(10)))
    key7 = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_7, mod=0, unicode="7")
    assert dlg.process(d10, [key7]) == 7
    d6 = ChanceRequest("d6", "morale: test", tuple(range(1, 7)))
    button = next(b for b in dlg.layout(d6, SIZE).buttons if b.value == 4)
    up = pygame.event.Event(pygame.MOUSEBUTTONUP, pos=button.rect.center, button=1)
    assert dlg.process(d6, [up]) == 4
    pct = ChanceRequest("%D", "event table", tuple(range(100)))
    keys = [pygame.event.Event(pygame.KEYDOWN, key=0, mod=0, unicode=c) for c in "42"]
    enter = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r")
    assert dlg.process(pct, keys) is None
    assert dlg.process(pct, [enter]) == "42"


def test_chance_dialog_keeps_hidden_information_hidden(window):
    """Table mode: a cup draw's options are not shown, and an Unknown enemy's name is cleaned."""
    dlg = window.dialog
    cup = ChanceRequest(
        "choice",
        "cup: the cup of team Red, the counter for 19.01",
        (1, 2, 3),
        options=("counter 2", "dummy", "c9"),
    )
    assert [b.label for b in dlg.layout(cup, SIZE).buttons] == ["1", "2", "3"]
    spot = ChanceRequest("d10", "spot: Sgt Taylor -> UO Krause (§9)", tuple(range(10)))
    text = " ".join(line for line, _c, _b in dlg.layout(spot, SIZE).lines)
    assert "Krause" not in text and "Unknown enemy" in text


# -- fog of war ---------------------------------------------------------------------------------


def test_log_never_names_a_hidden_dummy_or_unknown_enemy():
    """With dummies still hidden, no log line names them ("Dummy") or an Unknown enemy."""
    g = new_game("the_churchyard", seed=3, data=house_data())
    policy = SimplePolicy()
    for _ in range(120):
        g.apply(policy(g, g.pending))
    fog = Fog(g)
    hidden = [g.char(c) for c in fog.hidden_ids]
    assert any(c.dummy for c in hidden)
    names = {c.name for c in hidden}
    lines = log_lines(g, fog, show_rolls=True)
    assert lines
    for ln in lines:
        assert not any(n in ln.text for n in names), ln.text
    assert any("Dummy" in e.text for e in g.events)  # the truth is in the events


def test_hidden_enemy_events_other_than_public_ones_are_left_out():
    """An Unknown enemy's "does not fire" (which a dummy never has) is not shown; his moves are."""
    from solo.core.events import Event

    g = new_game("first_contact", seed=1, data=house_data())
    assert not g.char("red_2").revealed
    no_fire = Event(seq=0, kind="no_fire", turn=1, impulse=2, text="ObG Weber does not fire", actor="red_2")
    move = Event(seq=1, kind="move", turn=1, impulse=2, text="ObG Weber moves 14.07 → 14.08", actor="red_2")
    fog = Fog(g)
    assert not fog.shows(no_fire)
    assert fog.shows(move) and fog.event_text(move) == "Unknown enemy moves 14.07 → 14.08"
    assert Fog(g, enabled=False).shows(no_fire)


def test_the_whole_game_can_be_played_with_the_mouse_alone(window):
    """Clicking the first option's button (or card) at every decision plays First Contact to its end."""
    g = window.view.game
    clicks = 0
    while g.pending is not None and clicks < 400:
        d = g.pending
        kind = "card" if d.kind.value in ("play_card", "discard") else "option"
        click(window, hotspot(window, kind, d.keys[0]).center)
        assert g.inputs[-1] == {"decision": d.kind.value, "actor": d.actor, "choice": d.keys[0]}
        clicks += 1
    assert g.over and len(g.inputs) == clicks


# -- commands ---------------------------------------------------------------------------------


def test_solo_render_writes_a_png(tmp_path, capsys):
    """`solo render first_contact --out view.png` exits 0 and writes a 1600x1000 PNG."""
    out = tmp_path / "view.png"
    assert main(["render", "first_contact", "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert pygame.image.load(str(out)).get_size() == SIZE
    assert "Wrote" in capsys.readouterr().out


def test_solo_render_of_a_log_at_a_turn_and_impulse(tmp_path):
    """`solo render LOG --turn 2 --impulse 1 --size 1200x800` draws the replayed game."""
    g = new_game("first_contact", seed=4, data=house_data())
    g.play(SimplePolicy())
    Session(g, "first_contact", 4).save(tmp_path / "g.jsonl")
    out = tmp_path / "t2.png"
    assert (
        main(
            [
                "render",
                str(tmp_path / "g.jsonl"),
                "--out",
                str(out),
                "--turn",
                "2",
                "--impulse",
                "1",
                "--size",
                "1200x800",
            ]
        )
        == 0
    )
    assert pygame.image.load(str(out)).get_size() == (1200, 800)


def test_solo_render_refuses_a_turn_or_impulse_past_the_log(tmp_path, capsys):
    """`solo render LOG --turn 99` on a shorter log: `path: the log has N turns; --turn 99 ...`,
    exit 2, no image; a turn the log reaches but an Impulse it does not, the same."""
    g = new_game("first_contact", seed=4, data=house_data())
    policy = SimplePolicy()
    while g.pending is not None and (g.state.flow.turn, g.state.flow.impulse) < (2, 2):
        g.apply(policy(g, g.pending))
    log = tmp_path / "g.jsonl"
    Session(g, "first_contact", 4).save(log)
    last = max(e.turn for e in g.events)
    out = tmp_path / "x.png"
    assert main(["render", str(log), "--out", str(out), "--turn", "99"]) == 2
    err = capsys.readouterr().err
    assert f"{log}: the log has {last} turns; --turn 99 is past its end (give 1-{last})" in err
    assert "Traceback" not in err and not out.exists()
    reached = max(e.impulse for e in g.events if e.turn == last)
    assert reached < 4
    assert main(["render", str(log), "--out", str(out), "--turn", str(last), "--impulse", "4"]) == 2
    err = capsys.readouterr().err
    assert f"{log}: the log stops in turn {last} at Impulse {reached}; --turn {last} --impulse 4" in err
    assert not out.exists()
    assert main(["render", str(log), "--out", str(out), "--turn", str(last), "--impulse", str(reached)]) == 0
    assert out.exists()


def test_solo_play_without_a_display_says_so_and_exits_2():
    """No DISPLAY/WAYLAND_DISPLAY and no dummy driver: one line pointing to solo run and solo render."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    proc = subprocess.run([str(SOLO), "play"], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "solo run" in proc.stderr and "solo render" in proc.stderr


def test_solo_play_opens_and_draws_frames_on_the_dummy_driver(capsys):
    """`solo play --frames 2` with SDL's dummy driver opens the default scenario and exits 0."""
    assert main(["play", "--frames", "2"]) == 0


def test_solo_play_loads_a_saved_game(tmp_path):
    """`solo play --load LOG --frames 1` rebuilds the logged game and exits 0."""
    g = new_game("first_contact", seed=6, data=house_data())
    policy = SimplePolicy()
    for _ in range(12):
        g.apply(policy(g, g.pending))
    Session(g, "first_contact", 6).save(tmp_path / "g.jsonl")
    assert main(["play", "--load", str(tmp_path / "g.jsonl"), "--frames", "1"]) == 0


def test_frame_time_measurement_reports_a_median():
    """measure_frames gives a median frame time and the time to the first frame."""
    from solo.render.bench import measure_frames

    out = measure_frames("first_contact", frames=10)
    assert out["median_ms"] > 0 and out["first_frame_in_process_s"] > 0
    assert out["size"] == "1600x1000"


# -- vehicles (C2 31) ---------------------------------------------------------------------------


CREW_POSITIONS = ("commander", "driver", "gunner", "loader", "co_driver")
TEAM_HEX = Hex.parse("20.08")


def example_with_markers():
    """The example of play (C2 32) at set-up, with the Commander's and Gunner's Target Markers placed
    on the Bazooka team's hex 20.08 directly on the state (the snapshot checks the drawing)."""
    g = new_session("example_of_play", seed=1, data=house_data()).game
    pz = g.state.vehicles["panzer"]
    for pos in ("commander", "gunner"):
        pz.seats[pos].marker = TEAM_HEX
        pz.seats[pos].marker_priority = 2
    return g


def test_example_of_play_snapshot_shows_the_panzer_its_markers_and_its_display(tmp_path):
    """Issue 5 snapshot: the PNG shows the Panzer at 15.12 (turret over the hex centre, tracks either
    side of it for facing 1), both Target Markers on 20.08 with their links, and the display's five
    crew positions with their hatches and markers (C2 31.7.3, 32)."""
    g = example_with_markers()
    out = tmp_path / "example.png"
    pygame.image.save(draw_game(g, SIZE), str(out))
    png = pygame.image.load(str(out))
    view = GameView(g, SIZE)  # the same layout and camera the snapshot used
    cam = view.camera
    pz = g.state.vehicles["panzer"]
    paint = vehicle_counters.hull_colours(pz)
    cx, cy = cam.centre(Hex.parse("15.12"))
    assert at(png, (cx, cy)) == paint["turret"]
    assert at(png, (cx + cam.scale * 0.4, cy)) == theme.TRACKS
    assert at(png, (cx - cam.scale * 0.4, cy)) == theme.TRACKS
    spots = {s.position: s for s in target_markers.marker_spots(g, cam)}
    assert set(spots) == {"commander", "gunner"}
    assert [spots[p].label for p in ("commander", "gunner")] == ["C", "G"]
    enemy = theme.MARKER_COLOURS["enemy"]
    for s in spots.values():
        assert s.hex == TEAM_HEX and s.vehicle == "panzer"
        assert at(png, s.ring_point()) == enemy
        assert at(png, s.link_point(0.5)) == enemy
    c, gn = spots["commander"].centre, spots["gunner"].centre
    assert abs(c[0] - gn[0]) > 2 * spots["commander"].radius  # side by side, both visible
    panel = view.vehicle_panel()
    rows = panel.mats[0].rows
    assert [r.position for r in rows] == list(CREW_POSITIONS)
    hatches = [theme.HATCH_COLOURS[h] for h in ("open", "closed", "none", "closed", "closed")]
    assert [at(png, vehicle_displays.hatch_chip_point(r)) for r in rows] == hatches
    marked = [at(png, vehicle_displays.marker_cell_point(r)) == enemy for r in rows]
    assert marked == [True, False, True, False, False]


@pytest.mark.parametrize("facing", [1, 2, 3, 4, 5, 6])
def test_vehicle_counter_front_points_along_its_facing(facing):
    """The hull's lighter glacis is ahead in the hull facing, not behind (direction 1 up, clockwise)."""
    import math

    g = new_game("example_of_play", seed=1, data=house_data())
    pz = g.state.vehicles["panzer"]
    pz.facing, pz.turret = facing, (facing + 2) % 6 + 1  # the gun points back, off the glacis
    s = 40
    surf = vehicle_counters.render_vehicle(g, pz, s, theme.Fonts())
    c = surf.get_width() / 2
    a = math.radians(-90 + 60 * (facing - 1))

    def pix(u, v):
        return at(
            surf, (c + (u * math.cos(a) - v * math.sin(a)) * s, c + (u * math.sin(a) + v * math.cos(a)) * s)
        )

    light = vehicle_counters.hull_colours(pz)["light"]
    assert pix(0.55, 0.15) == light
    assert pix(-0.55, 0.25) != light


@pytest.mark.parametrize("turret", [1, 2, 3, 4, 5, 6])
def test_turret_gun_points_along_the_turret_facing(turret):
    """The gun runs from the turret toward ``vehicle.turret`` whatever the hull facing (C2 31.6)."""
    import math

    g = new_game("example_of_play", seed=1, data=house_data())
    pz = g.state.vehicles["panzer"]
    pz.facing, pz.turret = 1, turret
    s = 40
    surf = vehicle_counters.render_vehicle(g, pz, s, theme.Fonts())
    c = surf.get_width() / 2
    tx, ty = c, c + 0.06 * s  # the turret sits a little behind the centre of a hull facing up
    a = math.radians(-90 + 60 * (turret - 1))
    gun = vehicle_counters.hull_colours(pz)["gun"]
    assert at(surf, (tx + math.cos(a) * 0.38 * s, ty + math.sin(a) * 0.38 * s)) == gun
    back = math.radians(-90 + 60 * (turret + 2))
    assert at(surf, (tx + math.cos(back) * 0.38 * s, ty + math.sin(back) * 0.38 * s)) != gun


def test_destroyed_vehicle_is_crossed_out_and_listed_as_damaged():
    """A destroyed vehicle shows the wreck cross over its centre, a KO tag and DESTROYED on its display;
    bookkeeping flags (force_*) are not shown (C2 31.10.8)."""
    g = new_game("example_of_play", seed=1, data=house_data())
    pz = g.state.vehicles["panzer"]
    fonts = theme.Fonts()
    live = vehicle_counters.render_vehicle(g, pz, 40, fonts)
    pz.destroyed = True
    pz.damage = ["immobilized", "force_bail_out:crew"]
    dead = vehicle_counters.render_vehicle(g, pz, 40, fonts)
    c = live.get_width() // 2
    assert at(dead, (c, c)) == theme.WRECK_CROSS != at(live, (c, c))
    assert [t for t, _c in vehicle_counters.counter_tags(pz)] == ["KO", "IMM"]
    assert vehicle_labels.damage_labels(pz) == ["Immobilized", "DESTROYED"]


def test_vehicle_counters_are_cached_until_what_they_show_changes():
    """Redrawing reuses the vehicle counter; turning the turret draws it once more."""
    g = example_with_markers()
    view, surface = drawn(g)
    n = view.vehicles.renders
    assert n == 1
    view.draw(surface)
    assert view.vehicles.renders == n
    g.state.vehicles["panzer"].turret = 2
    view.draw(surface)
    assert view.vehicles.renders == n + 1


def test_crew_aboard_are_not_counters_but_bailed_out_crew_are():
    """Crew in the Panzer have no counters; a bailed-out Commander is an ordinary counter, moved aside
    when he shares the vehicle's hex (C2 31.11.2)."""
    from solo.render.board import VEHICLE_HEX_SHIFT, counter_spots

    g = new_game("example_of_play", seed=1, data=house_data())
    view = GameView(g, SIZE)
    assert not any(cid.startswith("panzer_") for cid, _r in counter_spots(g, view.camera))
    cmd = g.char("panzer_commander")
    g.state.vehicles["panzer"].seats["commander"].occupant = None
    cmd.vehicle, cmd.seat = None, None
    spots = dict(counter_spots(g, view.camera))
    cx, cy = view.camera.centre(cmd.hex)
    shift = view.camera.scale * VEHICLE_HEX_SHIFT
    assert abs(spots["panzer_commander"].centerx - (cx + shift)) <= 1
    assert abs(spots["panzer_commander"].centery - (cy + shift)) <= 1


def test_men_aboard_a_vehicle_are_known():
    """Passengers on a display are face up (C2 31.3): not hidden while aboard, hidden again once off
    (if the engine left them Unknown)."""
    g = new_game("armour_in_the_rain", seed=1, data=house_data())
    red_1 = g.char("red_1")
    assert red_1.vehicle == "truck" and not red_1.revealed
    assert "red_1" not in Fog(g).hidden_ids
    red_1.vehicle = None
    assert "red_1" in Fog(g).hidden_ids


def test_v_key_hides_the_vehicle_displays_and_a_click_on_a_vehicle_shows_its_display(tmp_path):
    """V hides the displays (the log takes the column back); clicking the truck on the map shows them
    again with the truck's display; clicking a crew row selects that crewman."""
    s = new_session("armour_in_the_rain", seed=1, data=house_data())
    w = Window(s, size=(1100, 700), resizable=False)
    try:
        w.step([])
        view = w.view
        assert view.vehicle_panel() is not None and view.log_rect() != view.layout.log
        press(w, pygame.K_v)
        assert view.vehicle_panel() is None and view.log_rect() == view.layout.log
        truck = s.game.state.vehicles["truck"]
        pos = view.camera.centre(truck.hex)
        pos = (pos[0], pos[1] - view.camera.scale * 0.5)  # on the vehicle, above any counter
        click(w, pos)
        panel = view.vehicle_panel()
        assert panel is not None and view.ui.vehicle_tab == "truck"
        assert panel.shown in (None, "truck") and any(m.vehicle == "truck" for m in panel.mats)
        driver = next(
            r for m in panel.mats for r in m.rows if r.vehicle == "truck" and r.position == "driver"
        )
        click(w, driver.rect.center)
        assert view.ui.selected == truck.seats["driver"].occupant
    finally:
        w.close()


def test_vehicle_displays_use_tabs_when_they_do_not_fit():
    """In a small window the two displays of Armour in the Rain become tabs; a tab click shows its mat."""
    s = new_session("armour_in_the_rain", seed=1, data=house_data())
    w = Window(s, size=(900, 560), resizable=False)
    try:
        w.step([])
        panel = w.view.vehicle_panel()
        assert [t.action for t in panel.tabs] == [("vehicle", "panzer"), ("vehicle", "truck")]
        assert [m.vehicle for m in panel.mats] == ["panzer"]
        click(w, panel.tabs[1].rect.center)
        assert [m.vehicle for m in w.view.vehicle_panel().mats] == ["truck"]
    finally:
        w.close()


US_CREW = {
    "commander": "us_cmd_whitaker",
    "driver": "us_drv_mckee",
    "gunner": "us_gun_reyes",
    "loader": "us_ldr_nakamura",
    "co_driver": "us_cdr_gallo",
}


def sherman_window(tmp_path, crewman: str, order: str, directions: str | None = None):
    """A window on a Friendly Sherman in 15.14 (town, facing 1) facing a Known rifleman in 15.10, with
    ``crewman``'s activation (Action Phase, Impulse 1) as the pending decisions (C2 31.2, 31.6, 31.7.5)."""
    from conftest import make_game

    from solo.data.cards import DirectionString
    from solo.rules.state import Phase
    from solo.rules.vehicles import crew

    sc = {
        "id": "sherman_test",
        "name": "Sherman test",
        "map": "town",
        "turns": 2,
        "hand": 1,
        "friendly": [
            {
                "id": "able",
                "name": "Able",
                "characters": [
                    {
                        "id": "a1",
                        "name": "Sgt A",
                        "tq": 6,
                        "weapons": [{"weapon": "m1_garand", "ws": 5}],
                        "hex": "12.16",
                    }
                ],
            }
        ],
        "enemy": [
            {
                "id": "red",
                "name": "Red",
                "alert": True,
                "characters": [
                    {
                        "id": "r1",
                        "name": "Schtz. R",
                        "tq": 5,
                        "weapons": [{"weapon": "kar98k", "ws": 4}],
                        "hex": "15.10",
                        "revealed": True,
                    }
                ],
            }
        ],
        "vehicles": [
            {
                "id": "tank",
                "type": "m4a3_sherman",
                "side": "friendly",
                "name": "Sherman",
                "hex": "15.14",
                "facing": 1,
                "loaded": "he",
                "hatches": {"commander": "open"},
                "crew": dict(US_CREW),
            }
        ],
    }
    g = make_game(tmp_path, sc)
    g.state.flow.phase = Phase.ACTION
    g.state.flow.impulse = 1
    ch = g.char(crewman)
    g.set_order(ch, order, directions=DirectionString.parse(directions) if directions else None)
    g._gen = crew.activate(g, ch)
    g._advance(None)
    w = Window(Session(g, "sherman_test", 1), size=SIZE, resizable=False)
    w.step([])
    return w, g


def test_emergency_stop_button_and_e_key(tmp_path):
    """The Driver's Emergency Stop (a DUCK_BACK decision, key emergency_stop) is a red "Emergency Stop"
    button; E answers it, and the engine receives exactly that choice (C2 31.2)."""
    w, g = sherman_window(tmp_path, "tank_driver", "crawl", "1")
    try:
        d = g.pending
        assert d.kind.value == "duck_back" and "emergency_stop" in d.keys
        r = hotspot(w, "option", "emergency_stop")
        assert at(w.surface, (r.x + 2, r.centery)) == theme.EMERGENCY
        label = next(b for b in w.view.decision_layout().buttons if b.key == "emergency_stop").lines[0]
        assert label.endswith("Emergency Stop")
        press(w, pygame.K_e, unicode="e")
        assert g.inputs[-1] == {"decision": "duck_back", "actor": "tank_driver", "choice": "emergency_stop"}
        assert g.char("tank_driver").order.order == "emergency_stop"
    finally:
        w.close()


def test_target_marker_choice_is_a_click_on_a_ringed_hex(tmp_path):
    """A Friendly Commander's Target Marker hexes are ringed on the map; a click on 15.09 answers
    "15.09" and his marker is then drawn there, linked to the Sherman (C2 31.7.5)."""
    w, g = sherman_window(tmp_path, "tank_commander", "spot")
    try:
        d = g.pending
        assert d.kind.value == "order_target" and "15.09" in d.keys
        cam = w.view.camera
        ring = cam.corners(Hex.parse("15.09"), 0.86)[0]
        assert at(w.surface, (ring[0] - 1, ring[1])) == theme.TARGET_HINT
        click(w, cam.centre(Hex.parse("15.09")))
        assert g.inputs[-1] == {"decision": "order_target", "actor": "tank_commander", "choice": "15.09"}
        assert g.state.vehicles["tank"].seats["commander"].marker == Hex.parse("15.09")
        w.controller.dirty = True
        w.step([])
        (spot,) = target_markers.marker_spots(g, cam)
        assert spot.hex == Hex.parse("15.09") and spot.label == "C"
        assert at(w.surface, spot.ring_point()) == theme.MARKER_COLOURS["friendly"]
    finally:
        w.close()


def test_turret_turn_is_a_click_beside_the_vehicle(tmp_path):
    """A turret decision marks the turns beside the vehicle; a click on the hex in direction 6 answers
    "turn_6" (C2 31.6)."""
    w, g = sherman_window(tmp_path, "tank_gunner", "fire_main_gun")
    try:
        d = g.pending
        assert d.kind.value == "order_target" and "turn_6" in d.keys
        frm = g.state.vehicles["tank"].hex
        click(w, w.view.camera.centre(neighbour(frm, 6, g.board.map.stagger)))
        assert g.inputs[-1] == {"decision": "order_target", "actor": "tank_gunner", "choice": "turn_6"}
        assert g.state.vehicles["tank"].turret == 6
    finally:
        w.close()


def test_frame_measurement_covers_a_scenario_with_vehicles():
    """measure_frames on Armour in the Rain reports its two vehicles and a median frame time."""
    from solo.render.bench import VEHICLE_SCENARIO, measure_frames

    out = measure_frames(VEHICLE_SCENARIO, frames=5, advance=3)
    assert out["vehicles"] == 2 and out["median_ms"] > 0


def test_a_click_on_a_vehicle_names_it_as_the_target():
    """A fire decision's "vehicle:<id>" option points at the vehicle's hex (ringed); a click on the vehicle
    prefers it to the crewmen in the same hex (C2 31.10)."""
    from solo.engine.game import DecisionKind
    from solo.render import choices

    g = new_game("example_of_play", seed=1, data=house_data())
    pz = g.state.vehicles["panzer"]
    d = g.decision(
        DecisionKind.FIRE_TARGET,
        "fire at",
        [
            ("panzer_commander", "Ofw. Brandt (hatch)"),
            ("vehicle:panzer", "Panzer IVH"),
            ("hold", "Hold fire"),
        ],
        actor="buttermann",
    )
    assert choices.option_hexes(g, d) == {"panzer_commander": pz.hex, "vehicle:panzer": pz.hex}
    assert choices.keys_at(g, d, pz.hex, vehicle="panzer") == ["vehicle:panzer"]
    assert choices.keys_at(g, d, pz.hex) == ["panzer_commander", "vehicle:panzer"]


def test_a_click_on_the_markers_own_hex_keeps_it():
    """Moving a Target Marker: a click on the hex it already marks answers "keep" (C2 31.7.5)."""
    from solo.engine.game import DecisionKind
    from solo.render import choices

    g = example_with_markers()
    d = g.decision(
        DecisionKind.ORDER_TARGET,
        "Target Marker for Ofw. Brandt",
        [("keep", "Keep it on 20.08"), ("20.09", "Move to 20.09, TQC")],
        actor="panzer_commander",
    )
    assert choices.keys_at(g, d, TEAM_HEX) == ["keep"]
    assert choices.keys_at(g, d, Hex.parse("20.09")) == ["20.09"]
    assert choices.keys_at(g, d, Hex.parse("20.10")) == []


# -- issue 6 in the window: branch logs, solo play --from, undo, review, Branch here, bookmarks ---------


def parent_log(tmp_path, n=40, seed=1):
    """A first_contact log of ``n`` simple-policy inputs (turn 2 by input 40 with seed 1)."""
    g = new_game("first_contact", seed=seed, data=house_data())
    policy = SimplePolicy()
    for _ in range(n):
        g.apply(policy(g, g.pending))
    path = tmp_path / "parent.jsonl"
    Session(g, "first_contact", seed).save(path)
    return g, path


def branch_log_with_forced_die(tmp_path):
    """A branch of the parent at #10 whose first spotting d10 is forced to 9 (the parent rolled 3),
    played on 6 inputs and saved; returns (branch game, its log path)."""
    from solo.playtest.history import History
    from solo.playtest.history_branch import save_game

    _, path = parent_log(tmp_path)
    b = History.from_log(path, data=house_data()).branch(10, forced_dice=[9])
    policy = SimplePolicy()
    for _ in range(6):
        b.apply(policy(b, b.pending))
    out = tmp_path / "branch.jsonl"
    save_game(b, out)
    return b, out


def test_loading_a_branch_log_with_forced_dice_rebuilds_and_draws_the_branched_game(tmp_path):
    """load_session applies the header's forced dice at their input (issue 6): the loaded game is the
    branch (Taylor stays Hidden after the forced 9), not the parent (Spotted after its 3)."""
    b, out = branch_log_with_forced_die(tmp_path)
    loaded = load_session(out, data=house_data()).game
    assert [e.text for e in loaded.events] == [e.text for e in b.events]
    assert loaded.char("able_1").revealed == b.char("able_1").revealed is False
    view, surface = drawn(loaded)
    assert view.game is loaded and surface.get_size() == SIZE


def test_saving_a_loaded_branch_keeps_parent_forced_bookmarks_and_sandbox(tmp_path):
    """Ctrl+S of a loaded branch log writes its lineage back: parent, forced results, bookmarks,
    sandbox (header_for from the game's recipe)."""
    from solo.playtest.play import recipe_of

    _, out = branch_log_with_forced_die(tmp_path)
    s = load_session(out, data=house_data())
    recipe_of(s.game).bookmarks["b1"] = 11
    recipe_of(s.game).sandbox = True
    s.save(tmp_path / "again.jsonl")
    header, _ = read_log(tmp_path / "again.jsonl")
    before, _ = read_log(out)
    assert header.parent == before.parent and header.parent["at_input"] == 10
    assert [(f["at_input"], f["dice"]) for f in header.forced] == [(10, (9,))]
    assert header.bookmarks == {"b1": 11} and header.sandbox is True
    assert replay(tmp_path / "again.jsonl").ok


def test_solo_play_from_a_point_opens_the_branch_and_exits_0(tmp_path):
    """`solo play --from LOG@2.1 --frames 1` (SDL dummy driver) opens the branch and exits 0."""
    _, path = parent_log(tmp_path)
    assert main(["play", "--from", f"{path}@2.1", "--frames", "1"]) == 0


@pytest.mark.parametrize("point", ["9.1", "#999", "3.x", "nosuchmark"])
def test_solo_play_from_a_bad_point_says_one_line_and_exits_2(tmp_path, capsys, point):
    """A point past the end of the log, malformed, or an unknown bookmark: one line, exit 2."""
    _, path = parent_log(tmp_path)
    assert main(["play", "--from", f"{path}@{point}", "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_solo_play_from_another_data_version_exits_2(tmp_path, capsys):
    """A parent log from another data version is refused with one line (exit 2)."""
    _, path = parent_log(tmp_path, n=5)
    lines = path.read_text().splitlines()
    lines[0] = lines[0].replace('"data_version": "', '"data_version": "x')
    path.write_text("\n".join(lines) + "\n")
    assert main(["play", "--from", f"{path}@#2", "--frames", "1"]) == 2
    assert "data version" in capsys.readouterr().err


def test_branch_session_saves_beside_its_parent_never_over_it(tmp_path):
    """A branch's default save path is a new file next to the parent, and its header names the parent."""
    from solo.render.session import branch_session

    _, path = parent_log(tmp_path)
    s = branch_session(path, "#12", data=house_data())
    target = s.default_save_path()
    assert target != path and target.parent == path.parent
    s.save(target)
    header, _ = read_log(target)
    assert header.parent["path"] == str(path) and header.parent["at_input"] == 12
    assert replay(target).ok


def test_ctrl_z_undoes_an_order_choice_made_before_any_new_information(window):
    """Card, then Taylor's Hide (no die between): Ctrl+Z takes back the Hide; he is asked again."""
    press(window, pygame.K_1)
    press(window, pygame.K_SPACE)
    assert window.view.game.inputs[-1]["choice"] == "hide"
    press(window, pygame.K_z, pygame.KMOD_CTRL)
    g = window.view.game
    assert len(g.inputs) == 1 and g.inputs[0]["decision"] == "play_card"
    assert g.pending.kind.value == "give_order" and g.pending.actor == "able_1"
    assert window.controller.session.game is g


def test_ctrl_z_is_refused_across_a_roll_and_the_status_says_why(window):
    """After the last order, the Enemy card and spotting die are known: undo is refused (status shows
    the blocker, the game is unchanged); the Sandbox toggle then allows it and marks the log."""
    policy = SimplePolicy()
    for _ in range(11):
        window.controller.answer(policy(window.view.game, window.view.game.pending))
    g = window.view.game
    inputs = list(g.inputs)
    press(window, pygame.K_z, pygame.KMOD_CTRL)
    assert window.view.game is g and g.inputs == inputs
    assert window.view.ui.status.startswith("Cannot undo: since that choice")
    click(window, hotspot(window, "tool", "sandbox").center)
    assert window.view.ui.sandbox
    press(window, pygame.K_z, pygame.KMOD_CTRL)
    assert window.view.game.inputs == inputs[:-1]
    assert window.controller.session.header().sandbox is True


def test_review_steps_back_a_decision_and_branch_here_plays_from_there(window):
    """H shows the history read-only; Left steps back one decision; Branch here makes the window play a
    game whose inputs are the parent's up to that point."""
    press(window, pygame.K_1)
    for _ in range(4):
        press(window, pygame.K_SPACE)
    live = window.view.game
    parent_inputs = list(live.inputs)
    press(window, pygame.K_h)
    assert window.controller.review is not None and window.view.game is not live
    press(window, pygame.K_LEFT)
    shown = window.view.game
    assert window.controller.review.index == len(parent_inputs) - 1
    assert shown.inputs == parent_inputs[:-1]
    press(window, pygame.K_SPACE)  # read-only: no answer is taken
    assert shown.inputs == parent_inputs[:-1] and live.inputs == parent_inputs
    click(window, hotspot(window, "tool", "branch").center)
    g = window.view.game
    assert window.controller.review is None and window.controller.session.game is g
    assert g.inputs == parent_inputs[:-1]
    assert window.controller.session.header().parent["at_input"] == len(parent_inputs) - 1
    press(window, pygame.K_SPACE)
    assert len(g.inputs) == len(parent_inputs)


def test_review_steps_by_impulse_and_turn_and_esc_returns_to_the_live_game(window):
    """Shift+Left goes back to an earlier Impulse, PgUp to an earlier turn; Esc shows the live game."""
    press(window, pygame.K_n)
    press(window, pygame.K_n)
    live = window.view.game
    press(window, pygame.K_h)
    hist = window.controller.review.history
    start = hist.position(window.controller.review.index)
    press(window, pygame.K_LEFT, pygame.KMOD_SHIFT)
    after = hist.position(window.controller.review.index)
    assert after.point < start.point
    press(window, pygame.K_PAGEUP)
    assert hist.position(window.controller.review.index).turn < start.turn
    press(window, pygame.K_ESCAPE)
    assert window.controller.review is None and window.view.game is live


def test_b_bookmarks_the_point_shown_and_the_save_keeps_it(window, tmp_path):
    """B in review names the point shown b1; Ctrl+S writes it into the log header."""
    press(window, pygame.K_1)
    press(window, pygame.K_SPACE)
    press(window, pygame.K_SPACE)
    press(window, pygame.K_h)
    press(window, pygame.K_LEFT)
    press(window, pygame.K_b)
    press(window, pygame.K_ESCAPE)
    window.controller.save_path = tmp_path / "s.jsonl"
    press(window, pygame.K_s, pygame.KMOD_CTRL)
    header, _ = read_log(tmp_path / "s.jsonl")
    assert header.bookmarks == {"b1": 2}


def test_minefield_is_drawn_on_its_hex(first_contact):
    """A scenario's minefield hex shows its mines (theme.MINE) below its centre (C2 31.5)."""
    import attrs

    g = first_contact.game
    view, surface = drawn(g)
    busy = {c.hex for c in g.state.characters.values()} | set(g.board.map.road_hexes)
    h = next(
        h
        for h in g.board.hexes
        if h not in busy and view.layout.map.inflate(-200, -200).collidepoint(view.camera.centre(h))
    )
    cx, cy = view.camera.centre(h)
    mine = (cx, cy + 0.4 * view.camera.scale)
    assert at(surface, mine) != theme.MINE
    g.scenario = attrs.evolve(g.scenario, minefields=str(h))
    surface.fill((0, 0, 0))
    view.draw(surface)
    assert at(surface, mine) == theme.MINE


def test_rubble_is_drawn_over_the_building_it_was(first_contact):
    """A Building hit in play (base-rules §14) is drawn as Rubble with its tag over the map's layer,
    which is not drawn again; the map's own board keeps its Building."""
    g = first_contact.game
    view, surface = drawn(g)
    busy = {c.hex for c in g.state.characters.values()}
    h = next(
        h
        for h in g.board.hexes
        if h not in busy
        and g.board.terrain_of(h).id == "building"
        and not g.board.map.level[h]
        and view.layout.map.inflate(-200, -200).collidepoint(view.camera.centre(h))
    )
    cx, cy = view.camera.centre(h)
    side = (cx + 0.1 * view.camera.scale, cy - 0.25 * view.camera.scale)  # off the tag and patterns
    assert at(surface, side) == theme.terrain_colour("building")
    renders = view.map_layer.renders
    base = g.board
    g.change_terrain(h, "rubble")
    surface.fill((0, 0, 0))
    view.draw(surface)
    assert at(surface, side) == theme.terrain_colour("rubble")
    assert view.map_layer.renders == renders and view.map_layer.board is base
    assert base.terrain_of(h).id == "building"
