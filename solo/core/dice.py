"""The one source of chance: dice, random picks and card decks.

Every die roll, random pick and card draw in ``solo`` goes through one
:class:`Dice`, which the game state holds, and every one of them gives back a
small frozen record (:class:`Roll`, :class:`Pick`, :class:`Draw`,
:class:`Shuffle`) naming its *purpose* and its sequence number ``seq``. The
:class:`Dice` keeps the ordered history of the records (``keep_history``) and
hands each one to an optional ``listener``, so the log can show every roll.

Dice (base-rules "Dice", C2 23.1, C2 23.7):

- **d10**: faces 0-9 (a natural 9 always fails, C2 23.1; that rule is the
  caller's, not ours).
- **d6**: faces 1-6.
- **d3**: a d6 read 1-2 -> 1, 3-4 -> 2, 5-6 -> 3 (C2 23.7). The record keeps the
  d6 face in ``faces`` and the d3 result in ``total``.
- **%D**: two d10, one nominated the tens and one the units, read 00-99
  (C2 23.7). It is ONE record with two faces ``(tens, units)`` and
  ``total = 10 * tens + units``.
- **expressions**: ``"1d6+4"``, ``"5+1d6"``, ``"2d6"``, ``"2+1d3"``: see
  :class:`DiceExpression`.
- **random selection** among ties (C2 23.2 "chosen by random selection"):
  :meth:`Dice.choice` picks among ``n`` options with a die of ``n`` faces
  numbered 1..n (at the table: a d6 read as d2/d3 for 2 or 3 options, a d6 for 6,
  otherwise a d10 re-rolled until it shows 1..n, a 0 counting as 10); the
  :class:`Pick` holds the 0-based ``index`` into the options.

In every record ``faces`` are the physical faces read from the dice and
``total`` is the game value.

Three sources stand behind one :class:`ChanceSource` interface:

- :class:`SeededSource` (the default): a ``random.Random(seed)`` held inside the
  source. Each bounded integer in ``0..n-1`` is drawn from ``getrandbits(32)``
  by rejection sampling (a draw at or above the largest multiple of ``n`` below
  ``2**32`` is drawn again, then the remainder modulo ``n`` is taken), and
  shuffles are Fisher-Yates over that function. ``getrandbits(32)`` is one
  Mersenne Twister output and integer seeding is fixed by CPython, so the
  stream does not depend on the machine, on ``PYTHONHASHSEED`` or on how
  ``random.choice``/``random.shuffle`` are implemented in a Python version.
- :class:`ScriptedSource`: forced results in order (tests, the rulebook's
  worked examples) and forced card draws by card id, optionally followed by a
  seeded fallback ("what if I roll a 9 here").
- :class:`TableSource`: table mode; a callback asks the player for the physical
  result of every roll and which card was drawn.

Scripted results and table answers are always the *physical* reading: a d10
face 0-9, a d6 face 1-6 (also for a d3), a %D reading 0-99 (one value, the two
dice read as a number), a choice face 1..n, a card id.

:class:`Deck` holds card ids (strings) in a draw pile and a discard pile; its
shuffles and draws go through the :class:`Dice`, so in table mode the player is
asked which card they drew. A deck never shows the order of its draw pile
(peek-free) except through :meth:`Deck.to_dict`.

Everything serialises to plain JSON-able dicts (``to_dict``/``from_dict``) and
the round trip is exact, RNG state included; record history is not part of the
state (the log keeps the records it needs, via :meth:`record_to_dict`).
"""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from solo.core.errors import ChanceError, SoloError

__all__ = [
    "FORMAT",
    "ChanceRecord",
    "ChanceRequest",
    "ChanceSource",
    "Deck",
    "DeckError",
    "Dice",
    "DiceExpression",
    "DiceExpressionError",
    "DiceTerm",
    "Draw",
    "Pick",
    "Roll",
    "ScriptedSource",
    "SeededSource",
    "Shuffle",
    "TableSource",
    "d3_of_d6",
    "record_from_dict",
    "record_to_dict",
    "source_from_dict",
]

FORMAT = 1
"""Version of the dict layout written by ``to_dict`` (dice, sources, decks)."""

_TWO32 = 1 << 32


class DiceExpressionError(SoloError, ValueError):
    """A dice expression that cannot be read (``"1d7"``, ``"2d6+"``, ``""``)."""


class DeckError(SoloError):
    """A deck asked to do what its piles do not allow: draw from an empty deck,
    discard a card that is not out, hold one card id twice, load a bad state."""


def d3_of_d6(face: int) -> int:
    """The d3 result of a d6 face: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3 (C2 23.7)."""
    return (face + 1) // 2


# ---------------------------------------------------------------------------
# Records


@attrs.frozen
class Roll:
    """One die roll: d10, d6, d3, %D or a dice expression.

    Example: ``Roll(kind='d10', faces=(7,), total=7, purpose='spot: Sch. Ziegler
    -> Pvt Diaz', seq=12)``.
    """

    kind: str
    """``"d10"``, ``"d6"``, ``"d3"``, ``"%D"`` or a canonical expression (``"1d6+4"``)."""
    faces: tuple[int, ...]
    """Physical faces in the order rolled: d10 0-9, d6 1-6 (also for a d3),
    ``(tens, units)`` for %D."""
    total: int
    """The game value: the face, the d3 result, 00-99 for %D, the expression's sum."""
    purpose: str
    """Why the roll was made, for the log."""
    seq: int
    """0-based position among all records of the :class:`Dice`."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (``"type": "roll"``)."""
        return {
            "type": "roll",
            "kind": self.kind,
            "faces": list(self.faces),
            "total": self.total,
            "purpose": self.purpose,
            "seq": self.seq,
        }


@attrs.frozen
class Pick:
    """One random selection among ``size`` options (C2 23.2 "random selection").

    ``index`` is 0-based into the options; the die face read was ``index + 1``.
    """

    size: int
    """How many options there were (the die had faces 1..size)."""
    index: int
    """The 0-based index of the chosen option."""
    label: str
    """``str()`` of the chosen option, for the log."""
    purpose: str
    seq: int

    @property
    def face(self) -> int:
        """The die face read, 1..size."""
        return self.index + 1

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (``"type": "pick"``)."""
        return {
            "type": "pick",
            "size": self.size,
            "index": self.index,
            "label": self.label,
            "purpose": self.purpose,
            "seq": self.seq,
        }


@attrs.frozen
class Draw:
    """One card drawn from a :class:`Deck`."""

    deck: str
    """The deck's name."""
    card: str
    """The card id drawn."""
    purpose: str
    seq: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (``"type": "draw"``)."""
        return {
            "type": "draw",
            "deck": self.deck,
            "card": self.card,
            "purpose": self.purpose,
            "seq": self.seq,
        }


@attrs.frozen
class Shuffle:
    """One shuffle of a :class:`Deck`'s draw pile (with its discards or not)."""

    deck: str
    size: int
    """Cards in the draw pile after the shuffle."""
    with_discards: bool
    """The discards were put into the draw pile before shuffling."""
    purpose: str
    seq: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (``"type": "shuffle"``)."""
        return {
            "type": "shuffle",
            "deck": self.deck,
            "size": self.size,
            "with_discards": self.with_discards,
            "purpose": self.purpose,
            "seq": self.seq,
        }


ChanceRecord = Roll | Pick | Draw | Shuffle
"""Any record a :class:`Dice` produces."""


def record_to_dict(record: ChanceRecord) -> dict[str, Any]:
    """A JSON-able dict of any record; :func:`record_from_dict` reads it back."""
    return record.to_dict()


def record_from_dict(data: Mapping[str, Any]) -> ChanceRecord:
    """The record written by :func:`record_to_dict`; ValueError on an unknown type."""
    d = dict(data)
    kind = d.pop("type", None)
    if kind == "roll":
        d["faces"] = tuple(d["faces"])
        return Roll(**d)
    if kind == "pick":
        return Pick(**d)
    if kind == "draw":
        return Draw(**d)
    if kind == "shuffle":
        return Shuffle(**d)
    raise ValueError(f"unknown chance record type {kind!r}")


# ---------------------------------------------------------------------------
# Dice expressions

_TERM_RE = re.compile(r"([+-]?)(?:(\d*)d(\d+)|(\d+))")
_SIDES = (3, 6, 10)
_MAX_COUNT = 100


@attrs.frozen
class DiceTerm:
    """One signed term of a :class:`DiceExpression`: ``count`` dice of ``sides``,
    or the constant ``count`` when ``sides`` is ``None``."""

    sign: int
    """+1 or -1."""
    count: int
    sides: int | None


@attrs.frozen
class DiceExpression:
    """A sum of dice and constants: ``"1d6+4"``, ``"5+1d6"``, ``"2d6"``, ``"2+1d3"``.

    Grammar: terms joined by ``+`` or ``-`` (the first term unsigned), each term
    ``NdS`` (N 1-100, omitted means 1; S one of 3, 6, 10) or an integer, with
    at least one die. Spaces and case are ignored. ``d10`` dice read 0-9 (the game's d10) and
    ``d3`` dice are a d6 read by :func:`d3_of_d6` (C2 23.7).
    """

    text: str
    """The canonical form (lower case, no spaces, ``"d6"`` written ``"1d6"``)."""
    terms: tuple[DiceTerm, ...]
    _plan: tuple[tuple[str, int, int, str, int, bool], ...] = attrs.field(init=False, repr=False, eq=False)
    """One (kind, low, count, detail, sign, is_d3) per die to roll, in order; built once."""
    _constant: int = attrs.field(init=False, repr=False, eq=False)
    """The sum of the signed constant terms."""

    def __attrs_post_init__(self) -> None:
        ndice = sum(t.count for t in self.terms if t.sides is not None)
        plan = []
        for t in self.terms:
            for _ in range(t.count if t.sides is not None else 0):
                detail = f"die {len(plan) + 1} of {ndice} of {self.text}"
                if t.sides == 10:
                    plan.append(("d10", 0, 10, detail, t.sign, False))
                elif t.sides == 6:
                    plan.append(("d6", 1, 6, detail, t.sign, False))
                else:
                    plan.append(("d6", 1, 6, detail + " (read as d3)", t.sign, True))
        object.__setattr__(self, "_plan", tuple(plan))
        constant = sum(t.sign * t.count for t in self.terms if t.sides is None)
        object.__setattr__(self, "_constant", constant)

    @classmethod
    def parse(cls, text: str) -> DiceExpression:
        """Read ``text``; DiceExpressionError (a ValueError) says what is wrong."""
        cached = _EXPR_CACHE.get(text) if isinstance(text, str) else None
        if cached is not None:
            return cached
        expr = _parse_expression(text)
        if len(_EXPR_CACHE) < 1024:
            _EXPR_CACHE[text] = expr
        return expr

    @property
    def minimum(self) -> int:
        """The smallest total the expression can give."""
        return sum(t.sign * (_term_min(t) if t.sign > 0 else _term_max(t)) for t in self.terms)

    @property
    def maximum(self) -> int:
        """The largest total the expression can give."""
        return sum(t.sign * (_term_max(t) if t.sign > 0 else _term_min(t)) for t in self.terms)

    def __str__(self) -> str:
        return self.text


_EXPR_CACHE: dict[str, DiceExpression] = {}


def _term_min(t: DiceTerm) -> int:
    if t.sides is None:
        return t.count
    return 0 if t.sides == 10 else t.count


def _term_max(t: DiceTerm) -> int:
    if t.sides is None:
        return t.count
    return t.count * (9 if t.sides == 10 else t.sides)


def _parse_expression(text: object) -> DiceExpression:
    if not isinstance(text, str):
        raise DiceExpressionError(f"dice expression must be a string, not {text!r}")
    squeezed = re.sub(r"\s+", "", text).lower()
    if not squeezed:
        raise DiceExpressionError("empty dice expression (expected e.g. '1d6+4')")
    terms: list[DiceTerm] = []
    parts: list[str] = []
    pos = 0
    while pos < len(squeezed):
        m = _TERM_RE.match(squeezed, pos)
        if m is None or (m.group(1) == "") != (pos == 0):
            raise DiceExpressionError(
                f"bad dice expression {text!r} at {squeezed[pos:]!r} "
                "(expected terms like '2d6', 'd3' or '4' joined by '+' or '-')"
            )
        sign_text, count_text, sides_text, const_text = m.groups()
        sign = -1 if sign_text == "-" else 1
        if const_text is not None:
            term = DiceTerm(sign, int(const_text), None)
            part = str(term.count)
        else:
            count = int(count_text) if count_text else 1
            sides = int(sides_text)
            if sides not in _SIDES:
                raise DiceExpressionError(
                    f"bad dice expression {text!r}: no d{sides} in the game (expected d3, d6 or d10)"
                )
            if not 1 <= count <= _MAX_COUNT:
                raise DiceExpressionError(
                    f"bad dice expression {text!r}: {count} dice (expected 1-{_MAX_COUNT})"
                )
            term = DiceTerm(sign, count, sides)
            part = f"{count}d{sides}"
        terms.append(term)
        parts.append(("-" if sign < 0 else "+" if pos else "") + part)
        pos = m.end()
    if all(t.sides is None for t in terms):
        raise DiceExpressionError(f"bad dice expression {text!r}: no dice in it")
    return DiceExpression("".join(parts), tuple(terms))


# ---------------------------------------------------------------------------
# Sources


@attrs.frozen
class ChanceRequest:
    """What table mode asks the player: a die to roll, a card drawn, a shuffle to make."""

    kind: str
    """``"d10"``, ``"d6"`` (also asked for a d3: type the d6 face), ``"%D"``
    (type the two dice read as 00-99), ``"choice"``, ``"card"``, or
    ``"shuffle"`` (a notice: shuffle the physical deck; the answer is ignored)."""
    purpose: str
    legal: tuple[int, ...] | tuple[str, ...]
    """The legal answers: faces, 0-99, 1..n, or the card ids in the draw pile (sorted)."""
    deck: str | None = None
    """The deck's name for ``"card"`` and ``"shuffle"``."""
    options: tuple[str, ...] = ()
    """For ``"choice"``: the options, face ``i`` choosing ``options[i - 1]``."""
    detail: str = ""
    """Extra words for the prompt (``"die 2 of 2 of 2d6"``, ``"with discards"``)."""
    error: str | None = None
    """Why the previous answer was refused, when re-asking."""


class ChanceSource(Protocol):
    """What the :class:`Dice` asks of a source. Sources are mutable and serialisable."""

    def value(self, kind: str, low: int, count: int, purpose: str, detail: str = "") -> int:
        """An integer in ``low .. low + count - 1`` for a die of ``kind``; ChanceError if none."""
        ...

    def choose(self, labels: tuple[str, ...], purpose: str) -> int:
        """A face 1..len(labels) for a random selection among the options."""
        ...

    def card(self, deck: str, pile: Sequence[str], purpose: str) -> int:
        """The index into ``pile`` (top at the end) of the card drawn."""
        ...

    def shuffle(self, deck: str, pile: list[str], purpose: str, detail: str = "") -> None:
        """Put ``pile`` into a new order in place."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict read back by :func:`source_from_dict`."""
        ...


class SeededSource:
    """Pseudo-random results from a ``random.Random(seed)`` held inside the source.

    ``seed`` must be an int (``random.Random`` seeds ints the same way on every
    machine and Python version). Bounded integers come from
    ``getrandbits(32)`` with rejection sampling and shuffles are Fisher-Yates
    over them (see the module docstring), so the stream is fixed by the seed
    alone. Card draws take the top of the (shuffled) draw pile.
    """

    __slots__ = ("_bits", "_rng", "seed")

    def __init__(self, seed: int):
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, not {seed!r}")
        self.seed: int = seed
        self._rng = random.Random(seed)
        self._bits = self._rng.getrandbits

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n - 1`` (1 <= n <= 2**32), by rejection sampling."""
        limit = _TWO32 - _TWO32 % n
        bits = self._bits
        r = bits(32)
        while r >= limit:
            r = bits(32)
        return r % n

    def value(self, kind: str, low: int, count: int, purpose: str, detail: str = "") -> int:
        """``low + below(count)``."""
        limit = _TWO32 - _TWO32 % count
        bits = self._bits
        r = bits(32)
        while r >= limit:
            r = bits(32)
        return low + r % count

    def choose(self, labels: tuple[str, ...], purpose: str) -> int:
        """A face ``1 + below(len(labels))``."""
        return 1 + self.below(len(labels))

    def card(self, deck: str, pile: Sequence[str], purpose: str) -> int:
        """The top card (the last index)."""
        return len(pile) - 1

    def shuffle(self, deck: str, pile: list[str], purpose: str, detail: str = "") -> None:
        """Fisher-Yates: for i from the last index down to 1 swap i with ``below(i + 1)``."""
        below = self.below
        for i in range(len(pile) - 1, 0, -1):
            j = below(i + 1)
            pile[i], pile[j] = pile[j], pile[i]

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "seeded", "seed": s, "state": [version, [625 ints], gauss_next]}``."""
        version, internal, gauss_next = self._rng.getstate()
        return {
            "type": "seeded",
            "seed": self.seed,
            "state": [version, list(internal), gauss_next],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeededSource:
        """The source written by :meth:`to_dict`, at the same point of its stream."""
        source = cls(data["seed"])
        version, internal, gauss_next = data["state"]
        try:
            source._rng.setstate((version, tuple(internal), gauss_next))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"bad seeded dice state: {exc}") from None
        return source

    def __repr__(self) -> str:
        return f"SeededSource({self.seed!r})"


class ScriptedSource:
    """Forced results in order, then (optionally) a seeded fallback.

    ``rolls`` are the physical readings (see the module docstring) used in
    order by every die roll and random pick; each is checked against the die
    asked for (a 7 for a d6 raises ChanceError naming the purpose, and is not
    used up). ``cards`` maps a deck name to the card ids its next draws must
    give (ChanceError if the card is not in the draw pile).

    When the rolls run out: with ``fallback`` (a :class:`SeededSource` or a
    seed) the fallback rolls; without, ChanceError naming the purpose of the
    roll that had no script. When a deck's forced cards run out its draws take
    the top of the draw pile. Shuffles use the fallback; without one they keep
    the pile's order, so a test can lay out a deck in the order it wants.
    """

    __slots__ = ("_cards", "_rolls", "fallback")

    def __init__(
        self,
        rolls: Iterable[int] = (),
        cards: Mapping[str, Iterable[str]] | None = None,
        *,
        fallback: SeededSource | int | None = None,
    ):
        self._rolls: deque[int] = deque(rolls)
        self._cards: dict[str, deque[str]] = {name: deque(ids) for name, ids in (cards or {}).items()}
        if isinstance(fallback, int) and not isinstance(fallback, bool):
            fallback = SeededSource(fallback)
        self.fallback: SeededSource | None = fallback

    @property
    def remaining(self) -> tuple[int, ...]:
        """The forced rolls not used yet, in order."""
        return tuple(self._rolls)

    def remaining_cards(self, deck: str) -> tuple[str, ...]:
        """The forced card ids not drawn yet from ``deck``, in order."""
        return tuple(self._cards.get(deck, ()))

    def value(self, kind: str, low: int, count: int, purpose: str, detail: str = "") -> int:
        """The next forced roll, checked to lie in ``low .. low + count - 1``."""
        if self._rolls:
            v = self._rolls[0]
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v < low + count:
                raise ChanceError(
                    f"scripted {v!r} is not a {kind} result ({low}-{low + count - 1}) for {purpose!r}"
                )
            self._rolls.popleft()
            return v
        if self.fallback is not None:
            return self.fallback.value(kind, low, count, purpose, detail)
        raise ChanceError(f"no scripted result left for the {kind} roll for {purpose!r}")

    def choose(self, labels: tuple[str, ...], purpose: str) -> int:
        """The next forced roll as a face 1..len(labels)."""
        return self.value("choice", 1, len(labels), purpose)

    def card(self, deck: str, pile: Sequence[str], purpose: str) -> int:
        """The next forced card of ``deck`` (which must be in the pile), else the top."""
        queue = self._cards.get(deck)
        if queue:
            wanted = queue[0]
            if wanted not in pile:
                raise ChanceError(
                    f"scripted card {wanted!r} is not in the draw pile of deck {deck!r} for {purpose!r}"
                )
            queue.popleft()
            return pile.index(wanted)
        if self.fallback is not None:
            return self.fallback.card(deck, pile, purpose)
        return len(pile) - 1

    def shuffle(self, deck: str, pile: list[str], purpose: str, detail: str = "") -> None:
        """The fallback's shuffle, or no change without a fallback."""
        if self.fallback is not None:
            self.fallback.shuffle(deck, pile, purpose, detail)

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "scripted", "rolls": [...], "cards": {deck: [...]}, "fallback": ...}``."""
        return {
            "type": "scripted",
            "rolls": list(self._rolls),
            "cards": {name: list(q) for name, q in self._cards.items()},
            "fallback": None if self.fallback is None else self.fallback.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScriptedSource:
        """The source written by :meth:`to_dict`, with what was left of its script."""
        fb = data.get("fallback")
        return cls(
            data["rolls"],
            data["cards"],
            fallback=None if fb is None else SeededSource.from_dict(fb),
        )

    def __repr__(self) -> str:
        return f"ScriptedSource({list(self._rolls)!r}, fallback={self.fallback!r})"


_D10 = tuple(range(10))
_D6 = tuple(range(1, 7))
_PERCENT = tuple(range(100))


class TableSource:
    """Table mode: ``callback(request) -> answer`` asks the player for each result.

    The callback gets a :class:`ChanceRequest` (kind, purpose, legal answers)
    and returns an int, a string of digits (``"07"``), or a card id. An answer
    that is not legal is re-asked: the callback is called again with the same
    request whose ``error`` says what was wrong. After ``max_attempts`` refused
    answers in a row, or at once when the callback returns ``None`` (the player
    gave up), ChanceError naming the purpose is raised. A ``"shuffle"`` request
    is a notice (shuffle the physical deck now); its answer is ignored and the
    engine's own order of that deck is not used.
    """

    __slots__ = ("callback", "max_attempts")

    def __init__(self, callback: Callable[[ChanceRequest], object], *, max_attempts: int = 3):
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self.callback = callback
        self.max_attempts = max_attempts

    def _ask(self, request: ChanceRequest) -> int | str:
        for _ in range(self.max_attempts):
            answer = self.callback(request)
            if answer is None:
                raise ChanceError(f"no answer to the {request.kind} for {request.purpose!r}")
            parsed = _read_answer(answer, request.legal)
            if parsed is not None:
                return parsed
            shown = _legal_text(request.legal)
            request = attrs.evolve(request, error=f"{answer!r} is not one of {shown}")
        raise ChanceError(
            f"{self.max_attempts} refused answers to the {request.kind} for "
            f"{request.purpose!r} (last: {request.error})"
        )

    def value(self, kind: str, low: int, count: int, purpose: str, detail: str = "") -> int:
        """Ask for a face (or a %D reading 0-99)."""
        if (low, count) == (0, 10):
            legal: tuple[int, ...] = _D10
        elif (low, count) == (1, 6):
            legal = _D6
        elif (low, count) == (0, 100):
            legal = _PERCENT
        else:
            legal = tuple(range(low, low + count))
        answer = self._ask(ChanceRequest(kind, purpose, legal, detail=detail))
        assert isinstance(answer, int)
        return answer

    def choose(self, labels: tuple[str, ...], purpose: str) -> int:
        """Ask for a face 1..n picking among the options (random selection, C2 23.2)."""
        legal = tuple(range(1, len(labels) + 1))
        answer = self._ask(ChanceRequest("choice", purpose, legal, options=labels))
        assert isinstance(answer, int)
        return answer

    def card(self, deck: str, pile: Sequence[str], purpose: str) -> int:
        """Ask which card was drawn; the legal answers are the draw pile's ids, sorted."""
        answer = self._ask(ChanceRequest("card", purpose, tuple(sorted(pile)), deck=deck))
        return pile.index(answer)  # type: ignore[arg-type]

    def shuffle(self, deck: str, pile: list[str], purpose: str, detail: str = "") -> None:
        """Tell the player to shuffle; the order kept by the engine is not used."""
        self.callback(ChanceRequest("shuffle", purpose, (), deck=deck, detail=detail))

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "table", "max_attempts": n}`` (the callback is given again on load)."""
        return {"type": "table", "max_attempts": self.max_attempts}

    def __repr__(self) -> str:
        return f"TableSource({self.callback!r}, max_attempts={self.max_attempts})"


def _read_answer(answer: object, legal: tuple[int, ...] | tuple[str, ...]) -> int | str | None:
    """The legal value an answer stands for, or None."""
    if not legal:
        return None
    if isinstance(legal[0], str):
        if isinstance(answer, str) and answer.strip() in legal:
            return answer.strip()
        return None
    if isinstance(answer, bool):
        return None
    if isinstance(answer, str):
        text = answer.strip()
        if not text.isdigit():
            return None
        answer = int(text)
    if isinstance(answer, int) and answer in legal:
        return answer
    return None


def _legal_text(legal: tuple[int, ...] | tuple[str, ...]) -> str:
    if legal and isinstance(legal[0], int) and len(legal) > 3:
        return f"{legal[0]}-{legal[-1]}"
    return ", ".join(str(v) for v in legal)


def source_from_dict(
    data: Mapping[str, Any], *, callback: Callable[[ChanceRequest], object] | None = None
) -> ChanceSource:
    """The source written by its ``to_dict``; table mode needs ``callback`` again."""
    kind = data.get("type")
    if kind == "seeded":
        return SeededSource.from_dict(data)
    if kind == "scripted":
        return ScriptedSource.from_dict(data)
    if kind == "table":
        if callback is None:
            raise ValueError("a table-mode dice state needs a callback to load")
        return TableSource(callback, max_attempts=data["max_attempts"])
    raise ValueError(f"unknown dice source type {kind!r}")


# ---------------------------------------------------------------------------
# Dice


class Dice:
    """The game's one source of chance: rolls, random picks and (through
    :class:`Deck`) card draws, each returned as a frozen record.

    ``Dice(12345)`` is seeded; ``Dice(ScriptedSource([7, 3]))`` or
    ``Dice(TableSource(ask))`` use another source. There is no default seed
    (none from the clock). Records are numbered by ``seq`` from 0, appended to
    :attr:`history` when ``keep_history`` (turn it off for batch games) and
    passed to ``listener`` when one is given.
    """

    __slots__ = ("_history", "_keep", "_seq", "listener", "source")

    def __init__(
        self,
        source: ChanceSource | int,
        *,
        keep_history: bool = True,
        listener: Callable[[ChanceRecord], object] | None = None,
    ):
        if isinstance(source, int) and not isinstance(source, bool):
            source = SeededSource(source)
        elif isinstance(source, bool) or not hasattr(source, "value"):
            raise TypeError(f"Dice needs an int seed or a chance source, not {source!r}")
        self.source: ChanceSource = source
        self.listener = listener
        self._keep = keep_history
        self._history: list[ChanceRecord] = []
        self._seq = 0

    @property
    def seq(self) -> int:
        """The ``seq`` the next record will get (how many records so far)."""
        return self._seq

    @property
    def history(self) -> tuple[ChanceRecord, ...]:
        """The records kept so far, oldest first."""
        return tuple(self._history)

    def take_history(self) -> list[ChanceRecord]:
        """The records kept so far, oldest first, leaving the history empty."""
        taken, self._history = self._history, []
        return taken

    def _emit(self, record: ChanceRecord) -> None:
        self._seq += 1
        if self._keep:
            self._history.append(record)
        if self.listener is not None:
            self.listener(record)

    def d10(self, purpose: str) -> Roll:
        """Roll a d10: faces 0-9 (base-rules "Dice"; a natural 9 fails, C2 23.1)."""
        face = self.source.value("d10", 0, 10, purpose)
        rec = Roll("d10", (face,), face, purpose, self._seq)
        self._emit(rec)
        return rec

    def d6(self, purpose: str) -> Roll:
        """Roll a d6: faces 1-6."""
        face = self.source.value("d6", 1, 6, purpose)
        rec = Roll("d6", (face,), face, purpose, self._seq)
        self._emit(rec)
        return rec

    def d3(self, purpose: str) -> Roll:
        """Roll a d3 as a d6 read 1-2 -> 1, 3-4 -> 2, 5-6 -> 3 (C2 23.7).

        ``faces`` holds the d6 face, ``total`` the d3 result 1-3; scripts and
        table answers give the d6 face.
        """
        face = self.source.value("d6", 1, 6, purpose, "read as d3")
        rec = Roll("d3", (face,), (face + 1) // 2, purpose, self._seq)
        self._emit(rec)
        return rec

    def percent(self, purpose: str) -> Roll:
        """Roll %D: two d10 read as tens and units, 00-99 (C2 23.7).

        One record, ``faces=(tens, units)``, ``total = 10 * tens + units``;
        scripts and table answers give the reading 0-99 as one value.
        """
        value = self.source.value("%D", 0, 100, purpose)
        tens, units = divmod(value, 10)
        rec = Roll("%D", (tens, units), value, purpose, self._seq)
        self._emit(rec)
        return rec

    def two_d6(self, purpose: str) -> Roll:
        """Roll 2d6 (two d6 values, one record of kind ``"2d6"``)."""
        return self.roll("2d6", purpose)

    def roll(self, expression: str | DiceExpression, purpose: str) -> Roll:
        """Roll a dice expression (``"1d6+4"``, ``"5+1d6"``, ``"2d6"``, ``"2+1d3"``).

        One record: ``kind`` is the canonical text, ``faces`` the physical faces
        in order (a d6 face for each d3), ``total`` the sum. Raises
        DiceExpressionError for an expression that cannot be read.
        """
        expr = expression if isinstance(expression, DiceExpression) else DiceExpression.parse(expression)
        faces: list[int] = []
        total = expr._constant
        value = self.source.value
        for kind, low, count, detail, sign, is_d3 in expr._plan:
            face = value(kind, low, count, purpose, detail)
            faces.append(face)
            total += sign * ((face + 1) // 2 if is_d3 else face)
        rec = Roll(expr.text, tuple(faces), total, purpose, self._seq)
        self._emit(rec)
        return rec

    def choice(self, options: Sequence[object], purpose: str) -> Pick:
        """Pick one of ``options`` at random (C2 23.2 "random selection").

        The source reads a die of ``len(options)`` faces 1..n (at the table: see
        the module docstring); the record's ``index`` is 0-based, use
        ``options[pick.index]``. One option is taken without a roll (still
        recorded). ValueError when ``options`` is empty.
        """
        n = len(options)
        if n == 0:
            raise ValueError(f"no options to choose from for {purpose!r}")
        if n == 1:
            index = 0
        else:
            labels = tuple(str(o) for o in options)
            face = self.source.choose(labels, purpose)
            index = face - 1
        rec = Pick(n, index, str(options[index]), purpose, self._seq)
        self._emit(rec)
        return rec

    def to_dict(self) -> dict[str, Any]:
        """The dice state as a JSON-able dict: source (RNG state, script) and ``seq``.

        The history is not included (the log keeps the records).
        """
        return {"format": FORMAT, "seq": self._seq, "source": self.source.to_dict()}

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any],
        *,
        callback: Callable[[ChanceRequest], object] | None = None,
        keep_history: bool = True,
        listener: Callable[[ChanceRecord], object] | None = None,
    ) -> Dice:
        """Dice written by :meth:`to_dict`, continuing exactly where they stopped.

        ``callback`` is needed again for table mode. ValueError on a bad dict.
        """
        if data.get("format") != FORMAT:
            raise ValueError(f"unknown dice state format {data.get('format')!r}")
        dice = cls(
            source_from_dict(data["source"], callback=callback),
            keep_history=keep_history,
            listener=listener,
        )
        dice._seq = int(data["seq"])
        return dice

    def __repr__(self) -> str:
        return f"Dice({self.source!r})"


# ---------------------------------------------------------------------------
# Decks


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

    __slots__ = ("_all", "_discards", "_members", "_pile", "name")

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
        held = set(self._pile)
        held.update(self._discards)
        return tuple(c for c in self._all if c not in held)

    def draw(self, dice: Dice, purpose: str) -> Draw:
        """Draw the next card; the card is then out until discarded.

        An empty draw pile is first replaced by the discards, shuffled (rulebook
        9.0; a :class:`Shuffle` record comes before the :class:`Draw`). In table
        mode the player is asked which card they drew. DeckError if the draw
        pile and the discards are both empty; ChanceError from the source.
        """
        if not self._pile:
            if not self._discards:
                raise DeckError(
                    f"deck {self.name!r} has no card to draw for {purpose!r} "
                    f"(all {len(self._all)} cards are out)"
                )
            self._reshuffle(dice, f"empty draw pile, before: {purpose}", with_discards=True)
        pile = self._pile
        index = dice.source.card(self.name, pile, purpose)
        card = pile.pop(index)
        rec = Draw(self.name, card, purpose, dice._seq)
        dice._emit(rec)
        return rec

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
        if card not in self._members:
            raise DeckError(f"card {card!r} is not in deck {self.name!r}")
        if card in self._pile or card in self._discards:
            raise DeckError(f"card {card!r} of deck {self.name!r} is not out, cannot discard it")
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
