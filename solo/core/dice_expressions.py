"""Dice expressions: ``"1d6+4"``, ``"5+1d6"``, ``"2d6"``, ``"2+1d3"`` (C2 23.7 d3; penetration
and damage dice of the data tables), read once and cached.

:meth:`DiceExpression.parse` reads the text (a :class:`DiceExpressionError` says
what is wrong); :meth:`solo.core.dice.Dice.roll` rolls one as a single record.

May import: :mod:`solo.core.errors` and the standard library.
"""

from __future__ import annotations

import re

import attrs

from solo.core.errors import SoloError

__all__ = [
    "DiceExpression",
    "DiceExpressionError",
    "DiceTerm",
]


class DiceExpressionError(SoloError, ValueError):
    """A dice expression that cannot be read (``"1d7"``, ``"2d6+"``, ``""``)."""


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
    ``d3`` dice are a d6 read by :func:`~solo.core.dice.d3_of_d6` (C2 23.7).
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
        plan: list[tuple[str, int, int, str, int, bool]] = []
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
