"""C2 24.1 Tough and Deadly picks as the player's decisions (``wound_card``), and Deadly in melee."""

from __future__ import annotations

import pytest
from test_combat import build, events, man, move, order, script, stamps

from solo.data.friendly_deck import WoundStamp
from solo.engine.game import DecisionKind, Game
from solo.rules import fire_action, melee, wounds
from solo.rules.state import Status


@pytest.fixture
def close(tmp_path) -> Game:
    """Friendly able_1 (TQ 5, Garand WS 5) at 02.06; Enemy red_1 (TQ 5, Kar98k WS 4) at 02.08, Open."""
    g = build(tmp_path, [man("able_1", "02.06")], [man("red_1", "02.08", weapon="kar98k", ws=4)])
    order(g, g.char("red_1"), "aimed_fire")
    order(g, g.char("able_1"), "aimed_fire")
    return g


def _fire(g: Game, who: str):
    return fire_action.fire_step(g, g.char(who), g.data.orders.get("aimed_fire"))


def test_friendly_tough_picks_his_card(close):
    """C2 24.1: a Friendly Tough man hit draws two cards; the player picks one (the worse here: his call)."""
    close.char("able_1").skills = ("tough",)
    kia, light = stamps(close, WoundStamp.KIA)[0], stamps(close, WoundStamp.LIGHT)[0]
    script(close, [0], [kia, light])  # a natural-0 hit
    gen = _fire(close, "red_1")
    d = next(gen)
    assert d.kind is DecisionKind.WOUND_CARD and d.keys == (kia, light)
    with pytest.raises(StopIteration):
        gen.send(kia)
    assert close.char("able_1").status is Status.DEAD
    assert events(close, "wound_draw")[-1].data["how"].endswith(f"(the player chose {kia})")


def test_no_decision_when_both_cards_match(close):
    """C2 24.1: two cards with the same stamp leave nothing to choose: no decision."""
    close.char("able_1").skills = ("tough",)
    kias = stamps(close, WoundStamp.KIA, 2)
    script(close, [0], kias)
    with pytest.raises(StopIteration):
        next(_fire(close, "red_1"))
    assert close.char("able_1").status is Status.DEAD


def test_friendly_deadly_firer_picks(close):
    """C2 24.1: a Friendly Deadly firer's hit: the player picks one of two cards for the Enemy."""
    close.char("able_1").skills = ("deadly",)
    cc, bad = stamps(close, WoundStamp.CLOSE_CALL)[0], stamps(close, WoundStamp.BAD)[0]
    script(close, [0, 9, 9], [cc, bad])
    gen = _fire(close, "able_1")
    next(gen)  # the target
    d = gen.send("red_1")
    assert d.kind is DecisionKind.WOUND_CARD and d.prompt.startswith("Deadly") and d.actor == "able_1"
    with pytest.raises(StopIteration):
        gen.send(bad)
    assert events(close, "wound_draw")[-1].data["stamp"] == "bad"


def test_friendly_deadly_against_tough_picks_twice_then_the_lesser(close):
    """C2 24.1: Deadly against Tough: the player picks from each of two pairs; the lesser applies."""
    close.char("able_1").skills = ("deadly",)
    close.char("red_1").skills = ("tough",)
    cc, bad = stamps(close, WoundStamp.CLOSE_CALL)[0], stamps(close, WoundStamp.BAD)[0]
    light, kia = stamps(close, WoundStamp.LIGHT)[0], stamps(close, WoundStamp.KIA)[0]
    script(close, [0, 9, 9, 9], [cc, bad, light, kia])
    gen = _fire(close, "able_1")
    next(gen)  # the target
    assert gen.send("red_1").keys == (cc, bad)
    assert gen.send(bad).keys == (light, kia)
    with pytest.raises(StopIteration):
        gen.send(kia)
    assert events(close, "wound_draw")[-1].data["stamp"] == "bad"


def test_enemy_deadly_in_melee_takes_the_worse(tmp_path):
    """C2 24.1 'on a successful hit': an Enemy Deadly man's melee hit draws two cards; the worse applies."""
    g = build(tmp_path, [man("able_1", "05.05")], [man("red_1", "05.06", skills=["deadly"])])
    move(g, red_1="05.05")
    r = g.char("red_1")
    order(g, r, "melee")
    cc, kia = stamps(g, WoundStamp.CLOSE_CALL)[0], stamps(g, WoundStamp.KIA)[0]
    script(g, [0], [cc, kia])
    with pytest.raises(StopIteration):
        next(melee.melee_step(g, r, g.data.orders.get("melee")))
    assert g.char("able_1").status is Status.DEAD
    assert events(g, "wound_draw")[-1].data["cards"] == [cc, kia]


def test_automatic_draw_outside_actions_keeps_the_house_pick(close):
    """C2 24.1 [house tough_automatic]: wound_draw (explosions, vehicles) picks for him: Tough the lesser."""
    t = close.char("able_1")
    t.skills = ("tough",)
    kia, light = stamps(close, WoundStamp.KIA)[0], stamps(close, WoundStamp.LIGHT)[0]
    script(close, [], [kia, light])
    assert wounds.wound_draw(close, t) is WoundStamp.LIGHT
