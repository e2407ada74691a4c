"""Issue 10: a game that keeps no events does not build their text; play and data are the same."""

from __future__ import annotations

from solo.playtest.play import new_game
from solo.playtest.policies import SimplePolicy


def _play(keep: bool) -> tuple[list, object]:
    g = new_game("the_churchyard", seed=2, record_rolls=False, keep_events=keep)
    seen = []
    g.listeners.append(lambda ev: seen.append(ev))
    g.play(SimplePolicy())
    return seen, g


def test_batch_game_skips_text_but_not_play():
    kept, gk = _play(True)
    batch, gb = _play(False)
    assert gb.events == [] and gk.events[-len(kept) :] == kept  # listeners hear from the first decision on
    # Same events, kind for kind, data for data, in the same order: the text is the only difference.
    assert [(e.seq, e.kind, e.turn, e.impulse, e.rule, e.actor, e.data) for e in batch] == [
        (e.seq, e.kind, e.turn, e.impulse, e.rule, e.actor, e.data) for e in kept
    ]
    assert gb.state.flow.turn == gk.state.flow.turn
    for kind in ("move", "spot", "choice", "enemy_order", "friendly_order", "no_fire"):
        texts_kept = [e.text for e in kept if e.kind == kind]
        texts_batch = [e.text for e in batch if e.kind == kind]
        assert texts_kept and all(texts_kept), kind  # a kept log has the words
        assert set(texts_batch) == {""}, kind  # a batch game never built them
    assert gk.narrates and not gb.narrates
