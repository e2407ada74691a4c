"""Issue 10: an Enemy infantry order builds its event's words and data only for someone who reads them."""

from __future__ import annotations

import pytest

from solo.data.house import load_data
from solo.enemy import order_lookup
from solo.playtest.play import new_game
from solo.rules.state import AmmoState, Side

_ORDER_EVENT = order_lookup._order_event


def _orders(monkeypatch: pytest.MonkeyPatch, mode: str) -> tuple[list, list, list, int]:
    """Every churchyard Enemy on the map x the first 12 cards through ``order_for``; one with No Ammo.

    ``mode``: ``kept`` (the game keeps events), ``heard`` (batch, a listener of ``enemy_order``
    only) or ``quiet`` (batch, no listener). Returns (orders, events heard, trace parts per event
    built, events numbered)."""
    data = load_data()
    g = new_game("the_churchyard", seed=3, data=data, record_rolls=False, keep_events=mode == "kept")
    heard: list = []
    g.listeners[:] = []
    if mode != "quiet":

        def listener(ev):
            heard.append(ev)

        listener.kinds = ("enemy_order",)
        g.listeners.append(listener)
    parts: list = []
    real = _ORDER_EVENT

    def spy(game, ch, order_id, trace, *args):
        parts.append(list(trace.parts))
        real(game, ch, order_id, trace, *args)

    monkeypatch.setattr(order_lookup, "_order_event", spy)
    enemies = [c for c in g.state.active(Side.ENEMY) if c.hex is not None and c.vehicle is None]
    enemies[0].ammo = AmmoState.NO  # 10.10: a fire order becomes Reload (a conversion)
    seq = g._seq
    given = []
    for card in data.enemy_deck.cards[:12]:
        for ch in enemies:
            ch.alert = True
            ch.order = None
            given.append(order_lookup.order_for(g, ch, card))
    return given, heard, parts, g._seq - seq


def test_enemy_order_words_and_data_only_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Same orders, same numbering and same data whoever listens; words only when the game narrates."""
    kept, kept_events, kept_parts, kept_n = _orders(monkeypatch, "kept")
    heard, heard_events, heard_parts, heard_n = _orders(monkeypatch, "heard")
    quiet, quiet_events, quiet_parts, quiet_n = _orders(monkeypatch, "quiet")
    assert kept == heard == quiet and len(kept) == kept_n == heard_n == quiet_n
    assert any(o.order == "reload" for o in kept)  # the conversion path was taken
    assert [(e.seq, e.rule, e.actor, e.data) for e in kept_events] == [
        (e.seq, e.rule, e.actor, e.data) for e in heard_events
    ]
    assert any(e.data["conversions"] for e in kept_events)
    # Every kept event has its words; a card read leaves its steps (a Melee, read off no card, has none).
    assert all(e.text for e in kept_events)
    assert all(p for p, e in zip(kept_parts, kept_events, strict=True) if e.data["card"] is not None)
    assert {e.text for e in heard_events} == {""} and heard_parts == [[]] * len(heard)
    assert quiet_events == [] and quiet_parts == []  # nothing built, every event numbered
