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


def _plain(e) -> str:
    return repr((e.kind, e.turn, e.impulse, e.text, e.rule, e.actor, sorted(e.data.items(), key=str)))


def test_batch_game_skips_text_but_not_play():
    kept, gk = _play(True)
    batch, gb = _play(False)
    assert gb.events == []
    # Listeners hear from the first decision on, each event once, in the order it was emitted; the
    # log holds the same events with a fire put before its effects (GameContext.mark).
    tail = gk.events[-len(kept) :]
    assert sorted(_plain(e) for e in tail) == sorted(_plain(e) for e in kept)
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


def test_event_data_is_built_only_for_an_event_that_is_built():
    """Issue 10: ``emit`` takes a callable ``data``: called once when the event is built (kept, or a
    listener hears its kind), never otherwise; a skipped event still takes its number."""

    def emit_counted(g, kind: str) -> list:
        calls = []
        g.emit(kind, lambda: "words", data=lambda: calls.append(kind) or {"n": len(calls)})
        return calls

    kept = new_game("the_churchyard", seed=2, record_rolls=False, keep_events=True)
    assert emit_counted(kept, "move") == ["move"]
    assert kept.events[-1].data == {"n": 1} and kept.events[-1].text == "words"

    batch = new_game("the_churchyard", seed=2, record_rolls=False, keep_events=False)
    heard = []

    def impulses(ev):
        heard.append(ev)

    impulses.kinds = ("impulse",)
    batch.listeners[:] = [impulses]
    seq = batch._seq
    assert emit_counted(batch, "move") == []  # no one hears "move": its data is never built
    assert emit_counted(batch, "impulse") == ["impulse"]
    assert [(e.seq, e.kind, e.data, e.text) for e in heard] == [(seq + 1, "impulse", {"n": 1}, "")]
    batch.listeners.append(lambda ev: heard.append(ev))  # hears every kind
    assert emit_counted(batch, "move") == ["move"]
    assert heard[-1].data == {"n": 1} and heard[-1].seq == seq + 2
