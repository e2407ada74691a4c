"""Issue 10: a plain given order is built once per (order, source) a game; orders stay frozen values."""

from __future__ import annotations

import attrs
import pytest

from solo.playtest.play import new_game
from solo.rules.state import GivenOrder, Side


def test_plain_order_is_one_frozen_value_per_order_and_source() -> None:
    """Same (order, source) → the same instance, equal to a new one; other sources, directions or
    targets → their own; a shared order cannot be changed in place."""
    g = new_game("the_churchyard", seed=1, record_rolls=False, keep_events=False)
    a, b, c = g.state.active(Side.FRIENDLY)[:3]
    g.set_order(a, "hide", source="player")
    g.set_order(b, "hide", source="player")
    assert a.order is b.order and a.order == GivenOrder("hide", None, None, "player")
    g.set_order(c, "hide", source="card f03")
    assert c.order is not a.order and c.order != a.order and c.order.source == "card f03"
    g.set_order(c, "hide", target=b.id, source="player")
    assert c.order == GivenOrder("hide", None, b.id, "player") and c.order != a.order
    g2 = new_game("the_churchyard", seed=1, record_rolls=False, keep_events=False)
    x = g2.state.active(Side.FRIENDLY)[0]
    g2.set_order(x, "hide", source="player")
    assert x.order == a.order and x.order is not a.order  # kept per game, not across games
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        a.order.source = "changed"  # type: ignore[misc]
    moved = attrs.evolve(a.order, order="sneak")
    assert b.order.order == "hide" and moved.order == "sneak"


def test_enemy_plain_order_is_the_games_kept_instance() -> None:
    """An Enemy order with no directions or target is the instance ``set_order`` would give."""
    from solo.enemy import order_lookup

    g = new_game("the_churchyard", seed=3, record_rolls=False, keep_events=False)
    ch = next(c for c in g.state.active(Side.ENEMY) if c.hex is not None and c.vehicle is None)
    ch.alert = True
    plain = []
    for card in g.data.enemy_deck.cards:
        ch.order = None
        given = order_lookup.order_for(g, ch, card)
        assert given is not None
        if given.directions is None and given.target is None:
            assert given is g.plain_order(given.order, given.source) and given.source == f"card {card.id}"
            plain.append(given)
        else:
            assert given is not g.plain_order(given.order, given.source)
    assert plain  # the deck has plain orders (fire, Hide...)
