"""Forced results read from a file: ``--dice FILE`` of ``solo run`` and ``solo branch``.

The file is a YAML list of physical die readings, or ``{dice: [...], cards: {deck: [card ids]}}``;
:mod:`solo.playtest.play` forces them before the seed (``new_game``) or at a branch point
(``force_next``). A bad file raises :class:`~solo.core.errors.DataError` naming its lines.

May import: :mod:`solo.core` (nothing of the other commands: :mod:`solo.cli.main` and
:mod:`solo.cli.history` both import it).
"""

from __future__ import annotations

from pathlib import Path

from solo.core.errors import DataError


def _read_dice_file(path: str) -> tuple[list[int], dict[str, list[str]]]:
    """Forced results for ``--dice``: a YAML list of d10/d6 faces, or {dice: [...], cards: {deck: [...]}}."""
    from solo.core.datafile import read
    from solo.core.errors import Problem

    doc = read(Path(path))
    data = doc.data
    if isinstance(data, list):
        data = {"dice": data}
    if not isinstance(data, dict):
        raise DataError(
            [Problem(doc.name, 1, "expected a list of dice results or {dice: [...], cards: {...}}")]
        )
    dice = data.get("dice", [])
    cards = data.get("cards", {})
    bad = [
        Problem(doc.name, doc.line_of(("dice", i)), f"a forced result must be an integer, got {v!r}")
        for i, v in enumerate(dice)
        if not isinstance(v, int) or isinstance(v, bool)
    ]
    if not isinstance(cards, dict) or not all(isinstance(v, list) for v in cards.values()):
        bad.append(
            Problem(doc.name, doc.line_of(("cards",)), "cards must map a deck name to a list of card ids")
        )
    if bad:
        raise DataError(bad)
    return list(dice), {k: [str(c) for c in v] for k, v in cards.items()}
