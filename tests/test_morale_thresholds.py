"""Morale and quality checks at their thresholds (base-rules §7, C2 23.1; mutation testing,
tools/mutate): d10 <= effective TQ + modifier passes, one more fails, a natural 9 always fails; a
passed MC keeps the order, a failed one is Duck Back (not in melee); morale changes are logged.

Map: tests/data/open_test.yaml."""

from __future__ import annotations

import pytest
from conftest import action_game, man, order, script

from solo.data.tables import CheckKind, MoraleState
from solo.rules import morale
from solo.rules.state import Status


def _game(tmp_path, tq: int = 5):
    game = action_game(tmp_path, [man("f1", "05.05", tq=tq)], [man("e1", "01.01")])
    order(game, "f1", "sneak", "4")
    return game


def _events(game, kind: str) -> list:
    return [e for e in game.events if e.kind == kind]


@pytest.mark.parametrize(
    ("roll", "modifier", "passed"),
    [(5, 0, True), (6, 0, False), (6, 1, True), (7, 1, False), (4, -1, True), (5, -1, False)],
)
def test_tqc_passes_at_tq_plus_modifier_and_fails_one_over(tmp_path, roll, modifier, passed):
    """§7: a check passes on d10 <= TQ + modifier (TQ 5): the target itself passes, one more fails;
    a TQC changes no morale."""
    game = _game(tmp_path)
    ch = game.char("f1")
    script(game, [roll])
    out = morale.check(game, ch, CheckKind.TQC, modifier=modifier, purpose="test")
    assert out.passed is passed and ch.morale is MoraleState.NORMAL
    ev = _events(game, "check")[-1]
    assert ev.data["target"] == 5 + modifier and ev.data["roll"] == roll and ev.data["modifier"] == modifier


def test_check_without_a_modifier_is_against_the_plain_tq(tmp_path):
    """§7: with no modifier the target is the effective TQ itself: TQ 5, a 6 fails."""
    game = _game(tmp_path)
    script(game, [6])
    assert not morale.check(game, game.char("f1"), CheckKind.TQC, purpose="test").passed


def test_natural_9_fails_even_under_the_target(tmp_path):
    """C2 23.1 "a natural 9 always fails": TQ 9 + 1, a 9 fails."""
    game = _game(tmp_path, tq=9)
    script(game, [9])
    out = morale.check(game, game.char("f1"), CheckKind.TQC, modifier=1, purpose="test")
    assert not out.passed and "natural 9, failed" in _events(game, "check")[-1].text


def test_failed_mc_drops_morale_and_names_it(tmp_path):
    """§7: a failed MC drops the Morale State one step, and the check event says so."""
    game = _game(tmp_path)
    ch = game.char("f1")
    script(game, [8])
    morale.check(game, ch, CheckKind.MC, purpose="test")
    ev = _events(game, "check")[-1]
    assert ch.morale is not MoraleState.NORMAL and ev.data["morale_after"] == ch.morale.value
    assert "; morale normal → " in ev.text


def test_apply_false_keeps_the_morale(tmp_path):
    """``apply=False``: the MC is rolled and reported, the Morale State does not change."""
    game = _game(tmp_path)
    ch = game.char("f1")
    script(game, [8])
    out = morale.check(game, ch, CheckKind.MC, purpose="test", apply=False)
    assert (
        not out.passed
        and ch.morale is MoraleState.NORMAL
        and "; morale" not in _events(game, "check")[-1].text
    )


def test_passed_mc_keeps_the_order(tmp_path):
    """§7: a passed MC (no morale change) keeps the man's order: no Duck Back."""
    game = _game(tmp_path)
    ch = game.char("f1")
    script(game, [5])
    out = morale.morale_check(game, ch, "test", "7")
    assert out.passed and out.morale_steps == 0
    assert ch.order.order == "sneak" and not _events(game, "duck_back")


def test_natural_0_mc_keeps_the_order(tmp_path):
    """§7: a natural 0 (morale up) keeps the order too."""
    game = _game(tmp_path)
    ch = game.char("f1")
    ch.morale = MoraleState.SHAKEN
    script(game, [0])
    out = morale.morale_check(game, ch, "test", "7")
    assert out.morale_steps > 0 and ch.order.order == "sneak"


def test_failed_mc_is_duck_back_except_in_melee(tmp_path):
    """§7: a failed MC gives Duck Back (7.19); in melee it does not."""
    game = _game(tmp_path)
    ch = game.char("f1")
    script(game, [6])
    morale.morale_check(game, ch, "test", "7")
    assert ch.order.order == "duck_back" and len(_events(game, "duck_back")) == 1
    order(game, "f1", "sneak", "4")
    script(game, [6])
    morale.morale_check(game, ch, "test", "7", melee=True)
    assert ch.order.order == "sneak"


def test_mc_modifier_moves_the_target(tmp_path):
    """§7: the MC's modifier adds to the TQ: TQ 5 - 1, a 5 fails, a 4 passes."""
    game = _game(tmp_path)
    ch = game.char("f1")
    script(game, [5])
    assert not morale.morale_check(game, ch, "test", "7", modifier=-1).passed
    script(game, [4])
    assert morale.morale_check(game, ch, "test", "7", modifier=-1).passed


def test_duck_back_only_once_and_never_without_an_order(tmp_path):
    """7.19: Duck Back replaces an order once; a man already ducking back, one without an order
    [house] or one out of play is not given it."""
    game = _game(tmp_path)
    ch = game.char("f1")
    assert morale.duck_back(game, ch, reason="r", rule="7.19") is True
    assert morale.duck_back(game, ch, reason="r", rule="7.19") is False
    ch.order = None
    assert morale.duck_back(game, ch, reason="r", rule="7.19") is False
    order(game, "f1", "sneak", "4")
    ch.status = Status.DEAD
    assert morale.duck_back(game, ch, reason="r", rule="7.19") is False
    assert len(_events(game, "duck_back")) == 1


def test_change_morale_logs_only_a_change(tmp_path):
    """§7: a morale change is one ``morale`` event; a step that changes nothing (at the cap) none."""
    game = _game(tmp_path)
    ch = game.char("f1")
    assert morale.change_morale(game, ch, -1, None, "r", "7") is not MoraleState.NORMAL
    assert len(_events(game, "morale")) == 1 and _events(game, "morale")[0].data["steps"] == -1
    ch.morale = MoraleState.NORMAL
    assert morale.change_morale(game, ch, 1, MoraleState.NORMAL, "r", "7") is MoraleState.NORMAL
    assert len(_events(game, "morale")) == 1
