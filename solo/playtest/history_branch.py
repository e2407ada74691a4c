"""Games from a point of a log: the game rebuilt there, a branch that goes its own way, saving a log.

- :func:`rebuild`: the live game of a log at a point (``solo inspect``);
- :func:`branch`: a new game that starts as its parent up to a point and then
  goes its own way, optionally with forced dice and cards for the next draws;
  its log header names the parent and the branch point, and ``solo replay``
  replays it exactly (``solo branch``);
- :func:`header_of` / :func:`save_game`: the log of any game made by
  :func:`solo.playtest.play.new_game`, a :class:`~solo.playtest.history.History`,
  a branch or an undo, with its lineage (parent, forced results, sandbox, bookmarks).

May import: :mod:`solo.engine` and below, :mod:`solo.playtest.play`,
:mod:`~solo.playtest.history`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from solo.core.errors import SoloError
from solo.core.events import Event
from solo.core.log import Header, inputs_of, write_log
from solo.data.house import HouseData
from solo.engine.game import Game
from solo.playtest.history import History, PointError, _check_choice, _fmt
from solo.playtest.history_view import Point
from solo.playtest.play import (
    force_due,
    game_data_version,
    game_file_versions,
    game_from_header,
    header_results,
    recipe_of,
)

__all__ = ["branch", "header_of", "rebuild", "save_game"]


# ---------------------------------------------------------------------------
# Rebuild and summary


def _history(log: History | Path | str | tuple[Header, Sequence[Event]], data: HouseData | None) -> History:
    if isinstance(log, History):
        return log
    if isinstance(log, tuple):
        header, events = log
        return History(header, inputs_of(events), events=events, data=data)
    return History.from_log(log, data=data)


def rebuild(
    log: History | Path | str | tuple[Header, Sequence[Event]],
    *,
    to: Point | None = None,
    inputs: int | None = None,
    data: HouseData | None = None,
) -> Game:
    """The live game of ``log`` (a path, a :class:`History`, or ``(header, events)``) at a point.

    ``to=(turn, impulse)``: the first decision at or after that point (the
    engine stops only at decisions; a turn and Impulse without a Friendly
    decision gives the next decision); ``inputs=n``: after the first ``n``
    inputs; neither: the end of the log. Raises :class:`PointError` for a
    point past the end of the log, :class:`~solo.core.log.LogError` for a log that
    cannot be read, diverges or comes from another data version.
    """
    if to is not None and inputs is not None:
        raise ValueError("give to= or inputs=, not both")
    hist = _history(log, data)
    if inputs is not None:
        return hist.at(inputs)
    if to is None:
        return hist.at(hist.last)
    if isinstance(log, History):
        return hist.at(hist.index_of(to))
    # One pass: stop at the first decision at or after the point.
    where = hist.source or "log"
    with header_results(where):
        game = game_from_header(hist.header_in, data=hist.data)
        forced = hist.header_in.forced
        for i, choice in enumerate(hist.inputs):
            force_due(game, forced)
            d = game.pending
            if d is not None and (d.turn, d.impulse) >= to:
                return game
            _check_choice(game, i, choice, where)
            game.apply(choice)
        force_due(game, forced)
    d = game.pending
    end = (game.events[-1].turn, game.events[-1].impulse) if game.events else (0, 0)
    if (d is not None and (d.turn, d.impulse) >= to) or to <= end:
        return game
    raise PointError(
        f"{where}: point {_fmt(to)} is past the end of the log (it ends at {_fmt(end)}, "
        f"decision #{len(hist.inputs)})"
    )


# ---------------------------------------------------------------------------
# Branches


def branch(
    parent_log: History | Path | str,
    at: Point | int | str,
    *,
    forced_dice: Sequence[int] = (),
    forced_cards: Mapping[str, Sequence[str]] | None = None,
    data: HouseData | None = None,
) -> Game:
    """A new game that is ``parent_log`` up to the point ``at``, waiting there for new choices.

    ``at`` is a decision index, ``(turn, impulse)`` (the first decision at or
    after it), or text (``"3.2"``, ``"#41"``, a bookmark). ``forced_dice``
    (physical readings: d10 0-9, d6 1-6, %D 0-99, a pick 1..n) and
    ``forced_cards`` (``{"enemy": ["e07"]}``) are the NEXT results, then the
    parent's seeded source goes on from its state at that point
    (:func:`solo.playtest.play.force_next`). Save it with :func:`save_game`: the
    header names the parent (``path``, ``data_version``) and the branch point
    (``at_input``, ``turn``, ``impulse``) and records the forced results, so
    ``solo replay`` reproduces it exactly. Raises :class:`PointError` for a
    point past the end of the log or where the game is over, LogError for a
    log from another data version, ChanceError for a bad forced result.
    """
    return _history(parent_log, data).branch(at, forced_dice=forced_dice, forced_cards=forced_cards)


def header_of(game: Game, *, policy: str = "") -> Header:
    """The log header that rebuilds ``game`` (made by new_game, a History, branch or undo).

    Raises SoloError for a game without a recipe (a table-mode game).
    """
    recipe = recipe_of(game)
    if recipe is None:
        raise SoloError("this game was not made by solo.playtest.play.new_game: no header can rebuild it")
    return Header(
        scenario=recipe.scenario,
        seed=recipe.seed,
        data_version=game_data_version(recipe.card_set, recipe.map_set, recipe.scenario),
        files=game_file_versions(recipe.card_set, recipe.map_set, recipe.scenario),
        options=dict(recipe.options),
        dice=tuple(recipe.dice),
        cards={k: tuple(v) for k, v in recipe.cards.items()},
        policy=policy,
        turns=recipe.turns,
        card_set=recipe.card_set,
        map_set=recipe.map_set,
        parent=dict(recipe.parent) if recipe.parent is not None else None,
        forced=tuple(recipe.forced),
        sandbox=recipe.sandbox,
        bookmarks=dict(recipe.bookmarks),
    )


def save_game(game: Game, path: Path | str, *, policy: str = "") -> Path:
    """Write ``game``'s log (:func:`header_of` + its events) atomically to ``path``."""
    write_log(path, header_of(game, policy=policy), game.events)
    return Path(path)
