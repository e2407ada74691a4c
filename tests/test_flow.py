"""A game that flows (issue 12 item 2): standing choices, team orders, the cleared Initiative Track,
the legend in its own strip with the map's terrain."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame
import pytest
from conftest import house_data

from solo.core.decisions import DecisionKind
from solo.core.log import read_log
from solo.playtest.play import new_game, replay
from solo.playtest.policies import SimplePolicy
from solo.playtest.standing import DuckBackChoice, StandingChoices, count_asked, fired_on
from solo.render import panels, theme
from solo.render.app import Window
from solo.render.frame import GameView
from solo.render.session import load_session, new_session
from solo.rules.state import Phase, Side

SIZE = (1600, 1000)


def press(w, key, mod=0):
    """Post a key press and run a frame."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=""))
    w.step()


def click(w, pos):
    """Post a left click at ``pos`` and run two frames."""
    pos = (round(pos[0]), round(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    w.step()
    w.step()


def hotspot(w, kind, key):
    for hs in w.view.hotspots():
        if hs.action == (kind, key):
            return hs.rect
    raise AssertionError(f"no hotspot {kind} {key}")


def to_decision(game, kind, policy=None):
    """Play ``game`` with the simple policy until a decision of ``kind`` is pending."""
    policy = policy or SimplePolicy()
    while game.pending is not None and game.pending.kind is not kind:
        game.apply(policy(game, game.pending))
    assert game.pending is not None
    return game.pending


@pytest.fixture
def churchyard_window():
    w = Window(new_session("the_churchyard", seed=1, data=house_data()), size=SIZE, resizable=False)
    w.step([])
    yield w
    w.close()


# -- standing choices, pure ----------------------------------------------------------------


def test_all_off_answers_nothing():
    """With every standing choice off, Duck Back and an m step are asked."""
    g = new_game("the_churchyard", seed=1, data=house_data())
    st = StandingChoices()
    assert st.answer(g, to_decision(g, DecisionKind.DUCK_BACK)) is None
    assert st.answer(g, to_decision(g, DecisionKind.MAY_MOVE)) is None


def test_duck_back_never_and_carry_on():
    """Duck Back: never answers "no"; carry on moving answers an m step with "move"."""
    g = new_game("the_churchyard", seed=1, data=house_data())
    st = StandingChoices(duck_back=DuckBackChoice.NEVER, carry_on=True)
    assert st.answer(g, to_decision(g, DecisionKind.DUCK_BACK)) == ("no", "Duck Back: never")
    assert st.answer(g, to_decision(g, DecisionKind.MAY_MOVE)) == ("move", "Carry on moving")


def test_duck_back_when_fired_on_follows_known_enemy_fire():
    """ "If fired on": yes exactly when a Known enemy who sees the man holds a fire order (7.19)."""
    g = new_game("the_churchyard", seed=1, data=house_data())
    st = StandingChoices(duck_back=DuckBackChoice.WHEN_HURT)
    seen = set()
    for _ in range(400):
        d = g.pending
        if d is None:
            break
        if d.kind is DecisionKind.DUCK_BACK and d.keys == ("no", "yes"):
            ch = g.char(d.actor)
            key, _why = st.answer(g, d)
            assert key == ("yes" if fired_on(g, ch) else "no")
            seen.add(key)
            g.apply(key)
            continue
        g.apply(SimplePolicy()(g, d))
    assert seen == {"yes", "no"}


def test_fired_on_ignores_unknown_enemies():
    """An enemy the player does not know of (Unknown) never makes Duck Back "yes"."""
    g = new_game("the_churchyard", seed=1, data=house_data())
    d = to_decision(g, DecisionKind.DUCK_BACK)
    ch = g.char(d.actor)
    for e in g.opponents(ch):
        e.revealed = False
    assert not fired_on(g, ch)


def test_standing_choices_cut_decisions_per_churchyard_turn():
    """The churchyard with standing choices on and team orders asks under a third as often, and
    no Duck Back or m step at all."""
    off = count_asked(new_game("the_churchyard", seed=1, data=house_data()), SimplePolicy(), None)
    on_game = new_game("the_churchyard", seed=1, data=house_data())
    on = count_asked(on_game, SimplePolicy(), StandingChoices.on(), team_orders=True)
    turns = on_game.state.flow.turn
    assert "duck_back" not in on and "may_move" not in on
    assert off["duck_back"] > 0 and off["may_move"] > 0
    assert sum(on.values()) * 3 < sum(off.values())
    assert sum(on.values()) / turns <= 10


def test_team_order_answers_the_rest_of_the_team_this_turn_only():
    """After T, the team's next man gets the same order; another team's man is still asked."""
    g = new_game("the_churchyard", seed=1, data=house_data())
    d = to_decision(g, DecisionKind.GIVE_ORDER)
    first = g.char(d.actor)
    g.apply("hide")
    st = StandingChoices()
    to = st.team_order_from_last(g)
    assert (to.team, to.order, to.direction) == (first.team, "hide", None)
    d = g.pending
    nxt = g.char(d.actor)
    if nxt.team == first.team:
        team = g.state.teams[first.team].name
        assert team != first.team  # the name the player reads, not the id
        assert st.answer(g, d) == ("hide", f"Team order ({team}): hide")
    mates = [c for c in g.state.active(Side.FRIENDLY) if c.team != first.team]
    assert mates
    st.team_orders[first.team] = type(to)(g.state.flow.turn - 1, first.team, "hide")
    assert st.answer(g, d) is None  # last turn's team order is not this turn's


# -- in the window -----------------------------------------------------------------------


def test_keys_set_standing_choices_and_the_answers_are_logged_and_replay(churchyard_window, tmp_path):
    """D (never), M (carry on): the window answers those decisions itself; the save names them in
    ``auto`` and `solo replay` matches."""
    w = churchyard_window
    press(w, pygame.K_d)
    press(w, pygame.K_d)  # ask -> never -> if fired on
    assert w.view.ui.standing.duck_back is DuckBackChoice.WHEN_HURT
    press(w, pygame.K_d)
    press(w, pygame.K_d)
    assert w.view.ui.standing.duck_back is DuckBackChoice.NEVER
    press(w, pygame.K_m)
    assert w.view.ui.standing.carry_on
    g = w.controller.live
    policy = SimplePolicy()
    for _ in range(60):
        d = g.pending
        assert d is not None
        assert d.keys != ("no", "yes")  # no Duck Back is asked
        assert d.kind is not DecisionKind.MAY_MOVE
        assert w.controller.answer(policy(g, d))
        if g.state.flow.turn >= 2:
            break
    auto = w.controller.session.auto
    assert auto and set(auto.values()) <= {"Duck Back: never", "Carry on moving"}
    for i, why in auto.items():
        assert g.inputs[i]["choice"] == ("no" if why.startswith("Duck") else "move")
    w.controller.save_path = tmp_path / "s.jsonl"
    press(w, pygame.K_s, pygame.KMOD_CTRL)
    header, _events = read_log(tmp_path / "s.jsonl")
    assert header.auto == {str(i): why for i, why in auto.items()}
    assert replay(tmp_path / "s.jsonl").ok
    assert load_session(tmp_path / "s.jsonl").auto == auto


def test_toolbar_button_sets_duck_back(churchyard_window):
    """The Duck Back toolbar button cycles the setting and its caption says so."""
    w = churchyard_window
    click(w, hotspot(w, "tool", "duck").center)
    assert w.view.ui.standing.duck_back is DuckBackChoice.NEVER
    assert any(hs.label.startswith("Duck Back: never") for hs in w.view.hotspots())


def test_t_gives_the_order_to_the_whole_team(churchyard_window):
    """T after one man's order: the rest of his team get it without being asked."""
    w = churchyard_window
    g = w.controller.live
    to_decision(g, DecisionKind.GIVE_ORDER)
    first = g.char(g.pending.actor)
    team = [c.id for c in g.state.active(Side.FRIENDLY) if c.team == first.team]
    assert len(team) > 1
    assert w.controller.answer("hide")
    press(w, pygame.K_t)
    assert all(g.char(c).order is not None and g.char(c).order.order == "hide" for c in team)
    assert g.pending is None or g.char(g.pending.actor).team != first.team


# -- Initiative Track and legend -----------------------------------------------------------


def test_initiative_track_is_cleared_at_the_turns_start():
    """Turn 2's Friendly Card Phase shows no team on the track; after the card, Friendly only."""
    g = new_game("the_churchyard", seed=1, data=house_data())
    policy = SimplePolicy()
    while not (g.state.flow.turn == 2 and g.pending.kind is DecisionKind.PLAY_CARD):
        g.apply(policy(g, g.pending))
    assert g.state.flow.phase is Phase.FRIENDLY_CARD
    assert any(t.initiative is not None for t in g.state.teams.values())  # the engine kept them
    assert panels.track_teams(g) == []
    g.apply(policy(g, g.pending))
    shown = panels.track_teams(g)
    assert shown and all(t.side is Side.FRIENDLY for t in shown)
    to_decision(g, DecisionKind.DUCK_BACK)
    assert {t.side for t in panels.track_teams(g)} == {Side.FRIENDLY, Side.ENEMY}


def test_legend_has_its_own_strip_under_the_map_with_the_terrain():
    """The legend strip lies under the map (no overlap); it names the map's terrain types."""
    pygame.font.init()
    g = new_game("the_churchyard", seed=1, data=house_data())
    view = GameView(g, SIZE)
    surface = pygame.Surface(SIZE)
    view.draw(surface)
    lay = view.layout
    assert not lay.legend.colliderect(lay.map)
    assert lay.legend.top == lay.map.bottom and lay.legend.bottom <= lay.hand.top
    names = [name for _c, name, _side in panels.map_terrain_keys(g)]
    assert "Building" in names and "Hedge" in names
    # the top-left hex of the map is drawn, not covered by a key box
    corner = (lay.map.x + 20, lay.map.y + 20)
    assert tuple(surface.get_at(corner))[:3] != (20, 20, 20)
    # the building swatch is drawn in the strip, in the building colour
    found = any(
        tuple(surface.get_at((x, y)))[:3] == theme.TERRAIN_COLOURS["building"]
        for x in range(lay.legend.x, lay.legend.right, 2)
        for y in range(lay.legend.y + 22, lay.legend.bottom - 2, 2)
    )
    assert found


def test_shift_letter_gives_the_order(churchyard_window):
    """Shift+H while an order is asked gives Hide; Shift+M (Melee) not offered is refused, no change."""
    w = churchyard_window
    g = w.controller.live
    to_decision(g, DecisionKind.GIVE_ORDER)
    man = g.pending.actor
    assert "melee" not in g.pending.keys
    n = len(g.inputs)
    press(w, pygame.K_m, pygame.KMOD_SHIFT)
    assert len(g.inputs) == n and not w.view.ui.standing.carry_on
    press(w, pygame.K_h, pygame.KMOD_SHIFT)
    assert g.inputs[n] == {"decision": "give_order", "actor": man, "choice": "hide"}


def test_hovering_a_stack_fans_it_out():
    """The mouse on a stack of three: its counters lie side by side, none overlapping; moving onto
    the outermost fanned counter keeps the fan, and that counter is the one hit."""
    from solo.render import board

    pygame.font.init()
    g = new_game("the_churchyard", seed=2, data=house_data())  # seed 2: a stack of three forms
    policy = SimplePolicy()
    while not any(len(cs) > 2 for cs in board.on_map(g).values()):
        assert g.pending is not None, "the game ended before a stack of three formed"
        g.apply(policy(g, g.pending))
    h, chars = next((h, cs) for h, cs in board.on_map(g).items() if len(cs) > 2)
    view = GameView(g, SIZE)
    ids = {c.id for c in chars}
    stacked = [r for cid, r in board.counter_spots(g, view.camera) if cid in ids]
    assert any(a.colliderect(b) for a in stacked for b in stacked if a is not b)
    centre = tuple(round(v) for v in view.camera.centre(h))
    view.update_fan(centre)
    assert view.fan_hex() == h
    fanned = [(cid, r) for cid, r in board.counter_spots(g, view.camera, fan=h) if cid in ids]
    rects = [r for _cid, r in fanned]
    assert not any(a.colliderect(b) for a in rects for b in rects if a is not b)
    last_id, last = fanned[-1]
    view.update_fan(last.center)
    assert view.fan_hex() == h
    assert view.counter_at(last.center) == last_id
