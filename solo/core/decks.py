"""Card decks: a named deck of card ids with a draw pile and a discard pile (rulebook 9.0,
base-rules 5.5, 5 e and 18).

:class:`Deck` holds card ids (strings) in a draw pile and a discard pile; its
shuffles and draws go through the :class:`~solo.core.dice.Dice`, so in table mode
the player is asked which card they drew, and each gives back a
:class:`~solo.core.chance_records.Draw` or :class:`~solo.core.chance_records.Shuffle`
record. A deck never shows the order of its draw pile (peek-free) except through
:meth:`Deck.to_dict`; the round trip through ``to_dict``/``from_dict`` is exact.

May import: :mod:`solo.core.dice`, :mod:`solo.core.chance_records`,
:mod:`solo.core.errors` and the standard library.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from solo.core.chance_records import Draw, Shuffle
from solo.core.dice import FORMAT, Dice
from solo.core.errors import SoloError

__all__ = [
    "Deck",
    "DeckError",
]


class DeckError(SoloError):
    """A deck asked to do what its piles do not allow: draw from an empty deck,
    discard a card that is not out, hold one card id twice, load a bad state."""


class Deck:
    """A named deck of card ids: a draw pile, a discard pile and the cards out.

    ``cards`` start in the draw pile in the order given, the first on top (call
    :meth:`shuffle` to shuffle them). Cards drawn are *out* (in a hand, on the
    Initiative Display) until :meth:`discard` puts them on the discards. An
    empty draw pile is replaced by the shuffled discards when a card is drawn
    (rulebook 9.0, base-rules 5.5); :meth:`shuffle_all` shuffles deck and
    discards together (Event cards, base-rules 5 e and 18). The order of the
    draw pile is not shown (peek-free) except by :meth:`to_dict`. Card ids are
    unique within a deck.
    """

    __slots__ = ("_all", "_discards", "_members", "_out", "_pile", "name")

    def __init__(self, name: str, cards: Iterable[str], *, discards: Iterable[str] = ()):
        self.name = name
        pile = list(cards)
        disc = list(discards)
        all_cards = pile + disc
        _check_ids(name, all_cards)
        self._all: tuple[str, ...] = tuple(sorted(all_cards))
        self._members = frozenset(all_cards)
        self._pile: list[str] = pile[::-1]  # top at the end
        self._discards: list[str] = disc  # oldest first
        self._out: set[str] = set()  # the cards drawn and not discarded (membership only)

    def __len__(self) -> int:
        return len(self._pile)

    @property
    def cards(self) -> tuple[str, ...]:
        """Every card id of the deck, sorted."""
        return self._all

    @property
    def discards(self) -> tuple[str, ...]:
        """The discard pile, oldest first (face up: its order is public)."""
        return tuple(self._discards)

    def in_draw_pile(self) -> tuple[str, ...]:
        """The card ids in the draw pile, sorted (not in draw order)."""
        return tuple(sorted(self._pile))

    def out(self) -> tuple[str, ...]:
        """The card ids drawn and not discarded, sorted."""
        out = self._out
        return tuple(c for c in self._all if c in out)

    def draw(self, dice: Dice, purpose: str) -> Draw:
        """Draw the next card; the card is then out until discarded.

        An empty draw pile is first replaced by the discards, shuffled (rulebook
        9.0; a :class:`Shuffle` record comes before the :class:`Draw`). In table
        mode the player is asked which card they drew. DeckError if the draw
        pile and the discards are both empty; ChanceError from the source.
        """
        pile = self._pile
        if not pile:
            self._refill(dice, purpose)
        card = pile.pop(dice.source.card(self.name, pile, purpose))
        self._out.add(card)
        rec = Draw(self.name, card, purpose, dice._seq)
        dice._emit(rec)
        return rec

    def draw_card(self, dice: Dice, purpose: str) -> str:
        """:meth:`draw`, giving the card id; the :class:`Draw` record is built only when the
        dice keep their history or have a listener (the draw counts in ``dice.seq`` either way).

        The same draw as :meth:`draw` (same source call, same piles, same ``seq``); for the
        hot paths that read only the card (an Enemy crewman's VOM card, C2 31.11.3).
        """
        pile = self._pile
        if not pile:
            self._refill(dice, purpose)
        card = pile.pop(dice.source.card(self.name, pile, purpose))
        self._out.add(card)
        if dice._keep or dice.listener is not None:
            dice._emit(Draw(self.name, card, purpose, dice._seq))
        else:
            dice._seq += 1
        return card

    def _refill(self, dice: Dice, purpose: str) -> None:
        """The empty draw pile replaced by the shuffled discards; DeckError if there are none."""
        if not self._discards:
            raise DeckError(
                f"deck {self.name!r} has no card to draw for {purpose!r} (all {len(self._all)} cards are out)"
            )
        self._reshuffle(dice, f"empty draw pile, before: {purpose}", with_discards=True)

    def shuffle(self, dice: Dice, purpose: str) -> Shuffle:
        """Shuffle the draw pile through ``dice`` (the discards stay apart)."""
        return self._reshuffle(dice, purpose, with_discards=False)

    def shuffle_all(self, dice: Dice, purpose: str) -> Shuffle:
        """Shuffle deck and discards together (the cards out stay out)."""
        return self._reshuffle(dice, purpose, with_discards=True)

    def _reshuffle(self, dice: Dice, purpose: str, *, with_discards: bool) -> Shuffle:
        if with_discards and self._discards:
            # The discard pile is turned over under the draw pile: its oldest card on top.
            self._pile[:0] = reversed(self._discards)
            self._discards.clear()
        dice.source.shuffle(self.name, self._pile, purpose, "with discards" if with_discards else "")
        rec = Shuffle(self.name, len(self._pile), with_discards, purpose, dice._seq)
        dice._emit(rec)
        return rec

    def discard(self, card: str) -> None:
        """Put a card that is out onto the discards; DeckError if it is not out."""
        out = self._out
        if card not in out:
            if card not in self._members:
                raise DeckError(f"card {card!r} is not in deck {self.name!r}")
            raise DeckError(f"card {card!r} of deck {self.name!r} is not out, cannot discard it")
        out.remove(card)
        self._discards.append(card)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict: ``name``, ``cards`` (all, sorted), ``draw_pile`` (top first),
        ``discards`` (oldest first)."""
        return {
            "format": FORMAT,
            "name": self.name,
            "cards": list(self._all),
            "draw_pile": self._pile[::-1],
            "discards": list(self._discards),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Deck:
        """The deck written by :meth:`to_dict`; DeckError if the piles do not add up."""
        if data.get("format") != FORMAT:
            raise DeckError(f"unknown deck state format {data.get('format')!r}")
        deck = cls(data["name"], data["draw_pile"], discards=data["discards"])
        everything = list(data["cards"])
        _check_ids(deck.name, everything)
        if not deck._members <= frozenset(everything):
            raise DeckError(f"deck {deck.name!r} state has piled cards not among its cards")
        deck._all = tuple(sorted(everything))
        deck._members = frozenset(everything)
        deck._out = set(everything).difference(deck._pile, deck._discards)
        return deck

    def __repr__(self) -> str:
        return (
            f"<Deck {self.name!r}: {len(self._pile)} to draw, "
            f"{len(self._discards)} discarded, {len(self._all)} in all>"
        )


def _check_ids(name: str, ids: list[str]) -> None:
    seen: set[str] = set()
    for card in ids:
        if not isinstance(card, str):
            raise DeckError(f"deck {name!r}: card id {card!r} is not a string")
        if card in seen:
            raise DeckError(f"deck {name!r}: card id {card!r} appears twice")
        seen.add(card)
