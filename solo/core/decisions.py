"""What the Friendly player is asked: a :class:`Decision` with its legal :class:`Option` keys.

A rule that needs the player yields a :class:`Decision` (built by
:meth:`solo.rules.context.GameContext.decision`); the engine stops there until
:meth:`solo.engine.game.Game.apply` gives one of its keys.
"""

from __future__ import annotations

import enum
import functools
import operator
from typing import NamedTuple

import attrs


class DecisionKind(enum.Enum):
    """What the Friendly player is asked."""

    PLAY_CARD = "play_card"
    """Step 1 d): play a card from hand to the Initiative Track."""
    DISCARD = "discard"
    """Step 1 c): discard down to five cards."""
    GIVE_ORDER = "give_order"
    """Step 2: an order for one Friendly character."""
    ORDER_DIRECTION = "order_direction"
    """The direction string of a move order just given (base-rules §6)."""
    ORDER_TARGET = "order_target"
    """The target of an order that aims (Grenade: a hex; Charge: an enemy)."""
    MAY_MOVE = "may_move"
    """An ``m`` step of a Friendly character's track: move this hex or stay (base-rules §6.7)."""
    DUCK_BACK = "duck_back"
    """Step 4 a) iii): switch this character's order to Duck Back (7.19)?"""
    CARD_EFFECT = "card_effect"
    """Who or what a played card's effect goes to (§18), when it needs a choice."""
    INITIATIVE_SWAP = "initiative_swap"
    """Which teams a Friendly–Enemy initiative swap card exchanges (§18)."""
    FIRE_TARGET = "fire_target"
    """A fire action: which Known enemy to fire at (13.0; C2 23.2)."""
    WOUND_CARD = "wound_card"
    """Tough or Deadly (C2 24.1): which of two drawn wound cards applies (keys: card ids)."""
    GUARD = "guard"
    """Which Friendly in the hex is the designated Guard of a new prisoner (C2 30.1)."""


class Option(NamedTuple):
    """One legal answer to a decision: a ``key`` to give back and a readable ``label``.

    A named pair (``Option("hold", "Hold fire") == ("hold", "Hold fire")``): the rules hand
    :meth:`~solo.rules.context.GameContext.decision` plain ``(key, label)`` tuples and
    :attr:`Decision.options` wraps them only when someone asks (issue 10).
    """

    key: str
    label: str


_KEY = operator.itemgetter(0)
_AS_OPTION = functools.partial(tuple.__new__, Option)
"""``(key, label) -> Option`` without a Python-level call per option."""


def _keys_of(decision: Decision) -> tuple[str, ...]:
    return tuple(map(_KEY, decision.pairs))


@attrs.frozen
class Decision:
    """A stop where the Friendly player must choose one of ``options`` (by key).

    Built with ``Decision(kind, prompt, options, actor, turn, impulse)``; ``options`` is a
    tuple of :class:`Option` or of plain ``(key, label)`` pairs, kept as given in
    :attr:`pairs` (no object per option on the hot path: a policy reads :attr:`keys`).
    """

    kind: DecisionKind
    prompt: str
    pairs: tuple[tuple[str, str], ...] = attrs.field(alias="options")
    """The legal answers as given, ``(key, label)`` each, in order (init argument ``options``)."""
    actor: str | None = None
    """The character (or team) the decision is about."""
    turn: int = 0
    impulse: int = 0
    keys: tuple[str, ...] = attrs.field(
        init=False, eq=False, repr=False, default=attrs.Factory(_keys_of, takes_self=True)
    )
    """The legal keys, in order (asked by the policy and by ``apply``)."""

    @functools.cached_property
    def options(self) -> tuple[Option, ...]:
        """The legal answers as :class:`Option` objects, in order (built on first use)."""
        return tuple(map(_AS_OPTION, self.pairs))
