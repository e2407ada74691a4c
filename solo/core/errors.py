"""The typed errors of ``solo``.

Bad data is reported as :class:`DataError`, which carries every
:class:`Problem` found at once, each with the file, the line and a message
(``path:line: message``). Bad choices through the engine API raise subclasses
of :class:`ChoiceError` and leave the game unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs


@attrs.frozen(order=True)
class Problem:
    """One problem in a data file: where it is and what is wrong."""

    path: str
    """The file, as given to the loader (``"cards/terrain.yaml"``)."""
    line: int | None
    """1-based line in the file, or ``None`` when no line can be named."""
    message: str
    """What is wrong, with what was expected."""

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


class SoloError(Exception):
    """Base class of every error ``solo`` raises on purpose."""


class LogError(SoloError):
    """A log (a save) that cannot be read or replayed: not a log, a field the schema refuses,
    another data version, a choice the game does not offer. The message starts with
    ``path:line:`` when :attr:`located` (the CLI then prints it as it is)."""

    located: bool = True


class DataError(SoloError):
    """One or more problems in data files (YAML decks, tables, maps, scenarios).

    ``problems`` lists every problem found, sorted by file and line; ``str()``
    gives one ``path:line: message`` per line, ready to print.
    """

    def __init__(self, problems: Iterable[Problem]):
        self.problems: tuple[Problem, ...] = tuple(sorted(set(problems), key=_problem_key))
        super().__init__("\n".join(str(p) for p in self.problems) or "invalid data")


def _problem_key(p: Problem) -> tuple[str, int, str]:
    return (p.path, p.line if p.line is not None else 0, p.message)


class GeometryError(SoloError, ValueError):
    """A malformed hex id, an unknown direction, a hex outside a map."""


class NotPlacedError(SoloError):
    """A rule asked where a piece stands while it has no place: the hex of a character or
    vehicle off the map (in a cup, exited, eliminated), or the Initiative Track value of a team
    before it is set. An engine bug, never a player's mistake."""


class ChoiceError(SoloError):
    """A choice the engine cannot take; the game state is unchanged."""


class MalformedChoiceError(ChoiceError, ValueError):
    """The choice is not of the form the decision expects."""


class IllegalChoiceError(ChoiceError):
    """The choice is well formed but is not among the decision's legal options."""


class ChanceError(SoloError):
    """A scripted or table-mode source cannot give the roll or card asked for."""
