"""The one source of chance: the dice and the sources behind them (seeded, scripted, table mode).

Every die roll, random pick and card draw in ``solo`` goes through one
:class:`Dice`, which the game state holds, and every one of them gives back a
small frozen record (:mod:`solo.core.chance_records`: :class:`~solo.core.chance_records.Roll`,
:class:`~solo.core.chance_records.Pick`, :class:`~solo.core.chance_records.Draw`,
:class:`~solo.core.chance_records.Shuffle`) naming its *purpose* and its sequence number ``seq``. The
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
  :class:`~solo.core.dice_expressions.DiceExpression`.
- **random selection** among ties (C2 23.2 "chosen by random selection"):
  :meth:`Dice.choice` picks among ``n`` options with a die of ``n`` faces
  numbered 1..n (at the table: a d6 read as d2/d3 for 2 or 3 options, a d6 for 6,
  otherwise a d10 re-rolled until it shows 1..n, a 0 counting as 10); the
  :class:`~solo.core.chance_records.Pick` holds the 0-based ``index`` into the options.

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

Card decks (:class:`~solo.core.decks.Deck`) draw and shuffle through the
:class:`Dice`. The dice and their sources serialise to plain JSON-able dicts
(``to_dict``/``from_dict``) and the round trip is exact, RNG state included;
record history is not part of the state.

May import: :mod:`solo.core.chance_records`, :mod:`solo.core.dice_expressions`,
:mod:`solo.core.errors` and the standard library (never :mod:`solo.core.decks`,
which draws through these dice).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from solo.core.chance_records import ChanceRecord, Pick, Roll
from solo.core.dice_expressions import DiceExpression
from solo.core.errors import ChanceError

__all__ = [
    "FORMAT",
    "ChanceRequest",
    "ChanceSource",
    "Dice",
    "ScriptedSource",
    "SeededSource",
    "TableSource",
    "d3_of_d6",
    "source_from_dict",
]

FORMAT = 1
"""Version of the dict layout written by ``to_dict`` (dice, sources, decks)."""

_TWO32 = 1 << 32


def d3_of_d6(face: int) -> int:
    """The d3 result of a d6 face: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3 (C2 23.7)."""
    return (face + 1) // 2


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
        if isinstance(fallback, bool):
            raise TypeError("fallback must be a SeededSource, a seed or None, not a bool")
        if isinstance(fallback, int):
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
        return pile.index(answer)

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
    :class:`~solo.core.decks.Deck`) card draws, each returned as a frozen record.

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
