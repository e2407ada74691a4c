"""Exact odds of the next Enemy card during a game, for playtesters (base-rules §5.3, §5.5).

* :func:`next_card_odds` / :func:`game_next_card_odds`: what the next card drawn from the draw
  pile gives an Enemy character (his morale row, Cover/Open; a Berserk or Routed man reads the
  berserk or rout string, §5.3 step 6), counted over the cards left;
* :func:`next_vom_odds`: the same for a vehicle crewman reading the VOM (C2 31.11.3).

May import: :mod:`solo.data` and :mod:`solo.core`, :mod:`solo.playtest.odds_deck` and
:mod:`~solo.playtest.odds_vom`; :mod:`solo.engine` and :mod:`solo.rules` (to read a game).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from solo.data.cards import CardRow, EnemyDeckDef, EnemyOrderCard
from solo.data.tables import MoraleState
from solo.data.vehicle_types import Role
from solo.data.vom import Vom, VomColumn
from solo.playtest.odds_deck import FLAG_LABELS, FLAGS, _column_odds, _ranked, _share, column_label
from solo.playtest.odds_vom import VomCellOdds, _vom_cell_odds

if TYPE_CHECKING:
    from solo.engine.game import Game
    from solo.rules.state import Character

__all__ = [
    "CardContext",
    "NextCardOdds",
    "game_enemy_odds",
    "game_next_card_odds",
    "next_card_odds",
    "next_vom_odds",
]


# ---------------------------------------------------------------------------
# The next card during a game (base-rules §5.3, §5.5)


@attrs.frozen
class CardContext:
    """What an Enemy character reads on a card: his Morale State and Cover/Open (base-rules §5.3)."""

    morale: MoraleState
    in_cover: bool


_FORCED: dict[MoraleState, tuple[str, str]] = {
    MoraleState.BERSERK: ("charge", "berserk"),
    MoraleState.ROUT: ("evade", "rout"),
}
"""Berserk → Charge along the berserk string; Rout → Evade along the rout string (base-rules §5.3 step 6)."""


@attrs.frozen
class NextCardOdds:
    """The exact odds of what the next Enemy card gives one character (base-rules §5.3, §5.5).

    For a morale row the keys of ``orders`` are card order codes (``"RG"``); a Berserk or
    Routed character reads no row (§5.3 step 6): ``orders`` is ``(("charge", n),)`` or
    ``(("evade", n),)`` and ``directions`` holds the berserk or rout strings.
    """

    context: CardContext
    pile: tuple[str, ...]
    """The card ids the next card may be, sorted."""
    reading: str
    """``"cover/normal"`` (a row), ``"berserk"`` or ``"rout"`` (a string)."""
    orders: tuple[tuple[str, int], ...]
    """Orders with their cards, zero counts left out (codes in :class:`~solo.data.cards.OrderCode` order)."""
    flags: tuple[tuple[str, int], ...]
    """Cards per flag set ``""``, ``"G"``, ``"C"``, ``"GC"`` (all ``""`` for a string reading)."""
    directions: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    """Per move order (or the forced order): its direction strings, most first."""

    @property
    def total(self) -> int:
        """Cards the next one may be."""
        return len(self.pile)

    def count(self, order: str) -> int:
        """Cards giving ``order`` (a code like ``"RG"``, or ``"charge"``/``"evade"``); 0 if none."""
        return dict(self.orders).get(order, 0)

    def probability(self, order: str) -> Fraction:
        """The exact chance that the next card gives ``order``."""
        return Fraction(self.count(order), self.total)

    def flag_probability(self, flag: str) -> Fraction:
        """The chance of a G (``"G"``) or C (``"C"``) check on the next card, alone or together.

        Raises ``ValueError`` for another flag.
        """
        if flag not in ("G", "C"):
            raise ValueError(f"a flag is 'G' or 'C', got {flag!r}")
        n = sum(count for flags, count in self.flags if flag in flags)
        return Fraction(n, self.total)

    def summary(self) -> str:
        """One line for a player: ``"Next card (37 left, Cover/Normal): AF 41%, HI 16%, …; G 30%, C 0%"``.

        A string reading: ``"Next card (37 left, berserk string): charge along 5/6 27%, 6 27%, …"``.
        """
        head = f"Next card ({self.total} left"
        forced = _FORCED.get(self.context.morale)
        if forced is not None:
            strings = ", ".join(f"{d} {_pct_text(n, self.total)}" for d, n in self.directions[0][1])
            return f"{head}, {forced[1]} string): {forced[0]} along {strings}"
        where = column_label(CardRow(self.context.morale.value), in_cover=self.context.in_cover)
        parts = [f"{o} {_pct_text(n, self.total)}" for o, n in sorted(self.orders, key=lambda kv: -kv[1])]
        g = _pct_text_fraction(self.flag_probability("G"))
        c = _pct_text_fraction(self.flag_probability("C"))
        return f"{head}, {where}): " + ", ".join(parts) + f"; G {g}, C {c}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict."""
        return {
            "morale": self.context.morale.value,
            "in_cover": self.context.in_cover,
            "reading": self.reading,
            "pile": list(self.pile),
            "total": self.total,
            "orders": {o: _share(n, self.total) for o, n in self.orders},
            "flags": {FLAG_LABELS[f]: _share(n, self.total) for f, n in self.flags},
            "directions": {o: dict(strings) for o, strings in self.directions},
        }


def _pct_text(count: int, total: int) -> str:
    return _pct_text_fraction(Fraction(count, total))


def _pct_text_fraction(p: Fraction) -> str:
    return f"{float(100 * p):.0f}%"


def next_card_odds(deck: EnemyDeckDef, drawn: Iterable[str], context: CardContext) -> NextCardOdds:
    """The exact odds of the next card's order for an Enemy character (base-rules §5.3, §5.5).

    ``drawn``: the card ids *not* in the draw pile (out this turn and discarded, not yet
    reshuffled); the next card is any other card, each equally likely. A Berserk or Routed
    character reads the berserk or rout string (§5.3 step 6); any other reads the row of his
    morale in the Cover or Open table (steps 7, §5.4). The G/C checks and the §4 conversions
    that may follow depend on the board and are not applied. Raises ``ValueError`` for an
    unknown or repeated card id, or when every card is drawn.
    """
    ids = {c.id for c in deck.cards}
    out: set[str] = set()
    for card_id in drawn:
        if card_id not in ids:
            raise ValueError(f"card {card_id!r} is not in the deck {deck.source}")
        if card_id in out:
            raise ValueError(f"card {card_id!r} is drawn twice")
        out.add(card_id)
    pile = [c for c in deck.cards if c.id not in out]
    if not pile:
        raise ValueError("every card is drawn: no next card (reshuffle the discards first, base-rules §5.5)")
    return _next_odds(pile, context)


def _next_odds(pile: Sequence[EnemyOrderCard], context: CardContext) -> NextCardOdds:
    forced = _FORCED.get(context.morale)
    ids = tuple(sorted(c.id for c in pile))
    if forced is not None:
        order, which = forced
        strings = Counter(str(getattr(c, which)) for c in pile)
        return NextCardOdds(
            context=context,
            pile=ids,
            reading=which,
            orders=((order, len(pile)),),
            flags=tuple((f, len(pile) if f == "" else 0) for f in FLAGS),
            directions=((order, _ranked(strings)),),
        )
    col = _column_odds(pile, CardRow(context.morale.value), context.in_cover)
    return NextCardOdds(
        context=context,
        pile=ids,
        reading=col.name,
        orders=tuple((c.value, n) for c, n in col.orders if n),
        flags=col.flags,
        directions=tuple((c.value, strings) for c, strings in col.directions),
    )


def next_vom_odds(
    vom: Vom,
    deck: EnemyDeckDef,
    drawn: Iterable[str],
    role: Role | str,
    column: VomColumn | str,
    morale: MoraleState | str,
) -> VomCellOdds:
    """The exact VOM odds for a crewman's next card, given the cards not in the draw pile (C2 31.11.3).

    Raises ``ValueError`` as :func:`next_card_odds`, and for an unknown role, column or state.
    """
    out = set(drawn)
    unknown = sorted(out - {c.id for c in deck.cards})
    if unknown:
        raise ValueError(f"card {unknown[0]!r} is not in the deck {deck.source}")
    pile = [c for c in deck.cards if c.id not in out]
    if not pile:
        raise ValueError("every card is drawn: no next card")
    return _vom_cell_odds(vom, pile, Role(role), VomColumn(column), MoraleState(morale))


def _next_pile(game: Game) -> tuple[str, ...]:
    """The card ids the next Enemy draw may give: the draw pile, or the discards if it is empty (§5.5)."""
    pile = game.enemy_deck.in_draw_pile()
    return pile if pile else tuple(sorted(game.enemy_deck.discards))


def game_next_card_odds(game: Game, ch: Character) -> NextCardOdds | None:
    """The odds of the next Enemy card's order for Enemy character ``ch`` now (base-rules §5.3, §5.5).

    Reads the game: the draw pile (``game.enemy_deck.in_draw_pile()``; when it is empty the
    next draw reshuffles the discards, so those), ``ch``'s Morale State and Cover/Open
    (``game.in_cover``). Returns ``None`` when ``ch`` reads no Enemy card row: not an Enemy,
    not active or off the map, a vehicle crewman (the VOM, :func:`next_vom_odds`), or no card
    left to draw. The draw pile's order is never looked at.
    """
    from solo.rules.state import Side

    if ch.side is not Side.ENEMY or not ch.is_active or ch.hex is None or ch.vehicle is not None:
        return None
    ids = set(_next_pile(game))
    pile = [c for c in game.data.enemy_deck.cards if c.id in ids]
    if not pile:
        return None
    return _next_odds(pile, CardContext(ch.morale, game.in_cover(ch)))


def game_enemy_odds(game: Game) -> tuple[tuple[str, NextCardOdds], ...]:
    """:func:`game_next_card_odds` for each active on-map Enemy who reads a card row, in roster order."""
    from solo.rules.state import Side

    out = []
    for ch in game.state.active(Side.ENEMY):
        odds = game_next_card_odds(game, ch)
        if odds is not None:
            out.append((ch.id, odds))
    return tuple(out)
