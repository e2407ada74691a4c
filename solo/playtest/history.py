"""Playtester tools over a game log: points in a game, replay navigation and undo (issue 6).

A *point* in a game is a decision: decision ``n`` is where the game stands
after the player's first ``n`` inputs (``n`` from 0 to the number of inputs;
the last one is the end of the log). A point is also named by turn and
Impulse, ``(turn, impulse)`` (impulse 0 = the Friendly Card and Order Phases,
before Impulse 1): that names the *first decision at or after it*, because
the engine runs on its own between decisions and only stops where the player
must choose (solo.engine.game). A turn and Impulse with no Friendly decision in it
is passed over to the next decision.

A :class:`~solo.engine.game.Game` is a generator in the middle of the sequence of
play and cannot be copied, so every point is rebuilt from the log's header by
replaying the inputs (about 0.1 s for the whole of the largest shipped
scenario, see :class:`History`).

- :class:`History`: a navigator for the window: the positions of a log, the
  game at any of them, steps by decision, activation, Impulse or turn, named
  bookmarks stored in the log header; points read by :func:`parse_point`.
- :func:`undo` / :func:`can_undo`: take back the last choice, unless new
  information came to light since (a card drawn, a die rolled, an Unknown
  revealed), except in sandbox mode, which marks the log (``sandbox: true``).

What the player sees at a point (hidden enemies, the positions' labels,
``solo inspect``'s summary) is in :mod:`solo.playtest.history_view`; the
one-shot game at a point, branches and saving a game's log in
:mod:`solo.playtest.history_branch`.

May import: :mod:`solo.engine` and below, :mod:`solo.playtest.play`,
:mod:`~solo.playtest.history_view`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from solo.core.errors import LogError, SoloError
from solo.core.events import Event
from solo.core.log import Header, inputs_of, read_log, write_log
from solo.core.log_schema import show
from solo.data.house import HouseData, load_data
from solo.engine.game import Game
from solo.playtest.history_view import Point, Position, _clean, _fog, _position, summary_at
from solo.playtest.play import (
    check_header,
    data_for,
    force_due,
    force_next,
    game_from_header,
    header_results,
    information,
    new_game,
    recipe_of,
)
from solo.rules.state import Side

__all__ = [
    "History",
    "PointError",
    "UndoRefused",
    "can_undo",
    "parse_point",
    "split_log_point",
    "undo",
    "undo_blocker",
]


_BOOKMARK = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,39}")
_POINT = re.compile(r"(\d+)(?:\.(\d+))?")
_POINT_FORMS = (
    "TURN.IMPULSE (e.g. 3.2; impulse 0-4, 0 = before Impulse 1), "
    "#N (the N-th decision, from 0) or a bookmark name"
)
_REVEAL_KINDS = ("spot", "reveal", "dummy_removed", "reinforcements")
"""Event kinds that show the player something new without a die (issue 6 item 2)."""


class PointError(LogError):
    """A point that is not in the log: malformed, past its end, an unknown bookmark."""

    located = False
    """A point is the player's argument, not a line of the log."""


class UndoRefused(SoloError):
    """Undo would take back a choice made before new information came to light (issue 6 item 2).

    ``revealed`` lists what came to light since that choice, in the order it did.
    """

    def __init__(self, message: str, revealed: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.revealed: tuple[str, ...] = tuple(revealed)


# ---------------------------------------------------------------------------
# Points


def parse_point(text: str) -> Point | int | str:
    """Read a point: ``"3.2"`` → (3, 2), ``"3"`` → (3, 0), ``"#41"`` → 41, a bookmark name → the name.

    Raises :class:`PointError` for anything else (``"3.x"``, ``"3.7"``, ``"0.1"``, ``"#"``).
    """
    t = text.strip()
    if t.startswith("#"):
        if t[1:].isdigit():
            return int(t[1:])
        raise PointError(f"malformed point {text!r}: expected {_POINT_FORMS}")
    m = _POINT.fullmatch(t)
    if m:
        turn, impulse = int(m.group(1)), int(m.group(2) or 0)
        if turn < 1 or impulse > 4:
            raise PointError(f"malformed point {text!r}: turn from 1, impulse 0-4 (expected {_POINT_FORMS})")
        return (turn, impulse)
    if _BOOKMARK.fullmatch(t):
        return t
    raise PointError(f"malformed point {text!r}: expected {_POINT_FORMS}")


def split_log_point(text: str) -> tuple[str, Point | int | str]:
    """``"game.jsonl@3.2"`` → ("game.jsonl", (3, 2)); PointError without ``@POINT``."""
    path, sep, point = text.rpartition("@")
    if not sep or not path:
        raise PointError(f"expected LOG@POINT (e.g. game.jsonl@3.2), got {text!r}; a point is {_POINT_FORMS}")
    return path, parse_point(point)


def _fmt(point: Point) -> str:
    return f"{point[0]}.{point[1]}"


# ---------------------------------------------------------------------------
# Navigation


def _play_inputs(game: Game, inputs: Sequence[str], forced: Sequence[Mapping[str, Any]], source: str) -> Game:
    """Apply ``inputs`` to ``game`` (forced results at their points); LogError if the log diverges."""
    start = len(game.inputs)
    for i, choice in enumerate(inputs, start):
        force_due(game, forced)
        _check_choice(game, i, choice, source)
        game.apply(choice)
    force_due(game, forced)
    return game


def _check_choice(game: Game, i: int, choice: str, source: str, line: int | None = None) -> None:
    """LogError when choice #``i`` cannot be given here: ``source:line: ...`` when its line is known."""
    where = f"{source}:{line}" if line is not None else source
    err = None
    if game.pending is None:
        err = LogError(
            f"{where}: choice #{i} {show(choice)} comes after the end of the game: the log diverges"
        )
    elif choice not in game.legal():
        err = LogError(
            f"{where}: choice #{i} {show(choice)} is not one the game offers at {show(game.pending.prompt)}: "
            "the log diverges"
        )
    if err is not None:
        err.located = line is not None
        raise err


class History:
    """A navigator over a log for the window and ``solo inspect`` (issue 6 item 1).

    ``History(header, inputs)`` (or :meth:`from_log`); :meth:`positions` lists
    every decision once (one replay of the log), :meth:`at` gives the game at
    any of them, :meth:`next`/:meth:`prev` step by decision, activation,
    Impulse or turn, :meth:`add_bookmark` names a point and :meth:`save`
    writes the bookmarks into the log header. :meth:`branch` plays on from a
    point.

    Speed: a :class:`~solo.engine.game.Game` cannot be copied mid-generator, so
    :meth:`at` rebuilds from the start each time: about 0.05 s for the middle
    of the largest shipped scenario (the_churchyard, ~340 decisions) on the
    reference machine; :meth:`positions` costs one full replay (~0.1 s).
    The games :meth:`at` returns are fresh: the caller may play on them.

    Raises :class:`~solo.core.log.LogError` for a log from another data version.
    """

    def __init__(
        self,
        header: Header,
        inputs: Sequence[str],
        *,
        events: Sequence[Event] | None = None,
        data: HouseData | None = None,
        source: str | None = None,
    ) -> None:
        where = source or "log"
        check_header(header, where)
        self.header_in = header
        """The header as read (its bookmarks as they were)."""
        self.inputs: tuple[str, ...] = tuple(inputs)
        self.source = source
        """The log's path, if it came from a file (a branch's header names it as its parent)."""
        self._events = tuple(events) if events is not None else None
        self._input_lines: tuple[int, ...] | None = None
        """The log line of each choice (event seq + 2), when the log came from a file."""
        if events is not None and source is not None:
            self._input_lines = tuple(ev.seq + 2 for ev in events if ev.kind == "choice" and not ev.automatic)
        if header.card_set or header.map_set:
            data = data_for(header.card_set, header.map_set)
        self.data: HouseData = data if data is not None else load_data()
        self._bookmarks = dict(header.bookmarks)
        for name, index in self._bookmarks.items():
            if index > len(self.inputs):
                raise LogError(
                    f"{where}:1: bookmark {name!r} is decision #{index}, "
                    f"the log has {len(self.inputs)} choices"
                )
        self._positions: tuple[Position, ...] | None = None
        self._end_point: Point = (0, 0)

    @classmethod
    def from_log(cls, path: Path | str, *, data: HouseData | None = None) -> History:
        """The history of a log file; LogError if it cannot be read or is from other data."""
        header, events = read_log(path)
        return cls(header, inputs_of(events), events=events, data=data, source=str(path))

    # -- where things are ----------------------------------------------------

    @property
    def last(self) -> int:
        """The index of the last point (the end of the log) = the number of inputs."""
        return len(self.inputs)

    @property
    def header(self) -> Header:
        """The log header with the bookmarks as they are now."""
        return attrs.evolve(self.header_in, bookmarks=dict(self._bookmarks))

    def positions(self) -> tuple[Position, ...]:
        """Every point of the log, ``positions()[n]`` = decision ``n``; one replay, then cached.

        Raises LogError when the log diverges (a choice that is not legal where it is logged).
        """
        if self._positions is None:
            where = self.source or "log"
            with header_results(where):
                game = game_from_header(self.header_in, data=self.data)
                forced = self.header_in.forced
                out = []
                lines = self._input_lines
                for i, choice in enumerate(self.inputs):
                    force_due(game, forced)
                    at = lines[i] if lines is not None and i < len(lines) else None
                    _check_choice(game, i, choice, where, at)
                    out.append(_position(game, i, choice))
                    game.apply(choice)
                force_due(game, forced)
            out.append(_position(game, len(self.inputs), None))
            last = game.events[-1] if game.events else None
            self._end_point = (last.turn, last.impulse) if last is not None else (0, 0)
            self._positions = tuple(out)
        return self._positions

    def position(self, index: int) -> Position:
        """The point ``index`` (PointError outside 0 .. :attr:`last`)."""
        self._check_index(index)
        return self.positions()[index]

    def _check_index(self, index: int) -> None:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= self.last:
            raise PointError(
                f"{self.source or 'log'}: decision #{index} is past the end of the log "
                f"(decisions #0-#{self.last})"
            )

    def index_of(self, point: Point) -> int:
        """The first decision at or after ``(turn, impulse)`` (the engine stops only at decisions).

        A point after the last decision but not after the log's last event is its end;
        PointError for a point past the end of the log.
        """
        positions = self.positions()
        for p in positions:
            if p.kind is not None and p.point >= point:
                return p.index
        if point <= self._end_point:
            return self.last
        end = positions[-1]
        raise PointError(
            f"{self.source or 'log'}: point {_fmt(point)} is past the end of the log "
            f"(it ends at {_fmt(self._end_point)}, decision #{end.index})"
        )

    def resolve(self, point: Point | int | str) -> int:
        """A decision index from an index, ``(turn, impulse)``, or text (``"3.2"``, ``"#41"``, a bookmark)."""
        if isinstance(point, str):
            point = parse_point(point)
            if isinstance(point, str):
                if point not in self._bookmarks:
                    known = ", ".join(sorted(self._bookmarks)) or "none"
                    raise PointError(
                        f"{self.source or 'log'}: no bookmark named {point!r} (bookmarks: {known})"
                    )
                return self._bookmarks[point]
        if isinstance(point, tuple):
            return self.index_of(point)
        self._check_index(point)
        return point

    def next(self, index: int, by: str = "decision") -> int:
        """The first point after ``index`` that starts another ``by`` (decision, activation, Impulse,
        turn); the log's end when there is none."""
        positions = self.positions()
        self._check_index(index)
        key = positions[index].key(by)
        for p in positions[index + 1 :]:
            if p.key(by) != key:
                return p.index
        return self.last

    def prev(self, index: int, by: str = "decision") -> int:
        """The start of the ``by`` step before ``index``: from inside a step, its own start; from a
        step's start, the previous step's start; 0 at the start."""
        positions = self.positions()
        self._check_index(index)
        if index == 0:
            return 0
        j = index - 1
        key = positions[j].key(by)
        while j > 0 and positions[j - 1].key(by) == key:
            j -= 1
        return j

    # -- games -----------------------------------------------------------------

    def at(self, point: Point | int | str) -> Game:
        """A fresh game at ``point`` (index, ``(turn, impulse)``, or text), rebuilt from the log's header."""
        index = self.resolve(point)
        with header_results(self.source or "log"):
            game = game_from_header(self.header_in, data=self.data)
            _play_inputs(game, self.inputs[:index], self.header_in.forced, self.source or "log")
        recipe = recipe_of(game)
        if recipe is not None:
            recipe.bookmarks = dict(self._bookmarks)
        return game

    def summary(self, point: Point | int | str, *, spoilers: bool = False) -> str:
        """:func:`summary_at` the game at ``point``, headed by the decision number."""
        index = self.resolve(point)
        game = self.at(index)
        return f"Decision #{index} of {self.last}.\n" + summary_at(game, spoilers=spoilers)

    def branch(
        self,
        point: Point | int | str,
        *,
        forced_dice: Sequence[int] = (),
        forced_cards: Mapping[str, Sequence[str]] | None = None,
    ) -> Game:
        """A new game that is this log up to ``point``, then waits for new choices (see
        :func:`solo.playtest.history_branch.branch`)."""
        index = self.resolve(point)
        pos = self.position(index)
        if pos.kind is None:
            raise PointError(
                f"{self.source or 'log'}: decision #{index} ({_fmt(pos.point)}) is the end of the game: "
                "there is nothing to choose there"
            )
        header = attrs.evolve(
            self.header_in,
            forced=tuple(f for f in self.header_in.forced if f["at_input"] < index),
        )
        with header_results(self.source or "log"):
            game = game_from_header(header, data=self.data)
            _play_inputs(game, self.inputs[:index], header.forced, self.source or "log")
        recipe = recipe_of(game)
        assert recipe is not None
        recipe.parent = {
            "path": self.source,
            "data_version": self.header_in.data_version,
            "at_input": index,
            "turn": pos.turn,
            "impulse": pos.impulse,
        }
        recipe.bookmarks = {n: i for n, i in self._bookmarks.items() if i <= index}
        force_next(game, forced_dice, forced_cards)
        return game

    # -- bookmarks -------------------------------------------------------------

    @property
    def bookmarks(self) -> dict[str, int]:
        """Named points: ``{name: decision index}`` (a copy)."""
        return dict(self._bookmarks)

    def add_bookmark(self, name: str, point: Point | int | str) -> int:
        """Name the point (letters, digits, ``_``, ``-``; a letter first); returns its index.

        Replaces a bookmark of the same name. PointError for a bad name or point.
        """
        if not isinstance(name, str) or not _BOOKMARK.fullmatch(name):
            raise PointError(
                f"bad bookmark name {name!r}: up to 40 letters, digits, '_' or '-', starting with a letter"
            )
        index = self.resolve(point)
        self._bookmarks[name] = index
        return index

    def remove_bookmark(self, name: str) -> None:
        """Forget a bookmark; PointError if there is none of that name."""
        if name not in self._bookmarks:
            raise PointError(f"no bookmark named {name!r}")
        del self._bookmarks[name]

    def save(self, path: Path | str | None = None) -> Path:
        """Write the log (header with the bookmarks, same events) atomically to ``path``.

        ``path`` defaults to the log the history was read from; SoloError when there is none.
        """
        target = Path(path) if path is not None else (Path(self.source) if self.source else None)
        if target is None:
            raise SoloError("this history has no log file: give a path to save to")
        events = self._events if self._events is not None else self.at(self.last).events
        write_log(target, self.header, events)
        return target


# ---------------------------------------------------------------------------
# Undo (issue 6 item 2)


def _last_choice(game: Game) -> int | None:
    """The index in ``game.events`` of the last player input, or None."""
    events = game.events
    for i in range(len(events) - 1, -1, -1):
        ev = events[i]
        if ev.kind == "choice" and not ev.automatic:
            return i
    return None


def _news(game: Game) -> list[str]:
    """What came to light since the last choice: cards drawn, dice rolled, enemies revealed."""
    i = _last_choice(game)
    if i is None:
        return []
    fog = _fog(game)
    news = []
    for ev in game.events[i + 1 :]:
        if ev.kind == "roll":
            t = ev.data.get("type")
            if t == "shuffle" or (t == "pick" and ev.data.get("size", 2) <= 1):
                continue  # a shuffle shows nothing; one option is taken without a roll
            news.append(_clean(fog, ev.text))
        elif ev.kind in _REVEAL_KINDS:
            news.append(_clean(fog, ev.text))
    recipe = recipe_of(game)
    if recipe is not None and recipe.seen is not None:
        before_revealed, before_removed, before_size = recipe.seen
        now_revealed, now_removed, now_size = information(game)
        chars = game.state.characters
        for cid in now_revealed:
            if cid not in before_revealed:
                ch = chars[cid]
                text = f"{ch.name} became {'Known' if ch.side is Side.ENEMY else 'Spotted'}"
                if not any(ch.name in n for n in news):
                    news.append(text)
        for cid in now_removed:
            if cid not in before_removed and not any("dummy" in n.lower() for n in news):
                news.append("a dummy was removed")
        if now_size != before_size:
            news.append(f"{now_size - before_size} new character(s) came on the map")
    return news


def undo_blocker(game: Game) -> str | None:
    """Why the last choice cannot be undone outside sandbox mode (None: it can be)."""
    if recipe_of(game) is None:
        return "this game cannot be rebuilt (table mode or not made by solo.playtest.play.new_game)"
    if not game.inputs:
        return "there is no choice to undo"
    if _last_choice(game) is None:
        return "the game keeps no events, so what came to light cannot be told"
    news = _news(game)
    if news:
        return (
            "since that choice: "
            + "; ".join(news[:3])
            + (f" (and {len(news) - 3} more)" if len(news) > 3 else "")
        )
    return None


def can_undo(game: Game, *, sandbox: bool = False) -> bool:
    """Whether :func:`undo` would take back the last choice (in sandbox mode: whenever there is one)."""
    if sandbox:
        return recipe_of(game) is not None and bool(game.inputs)
    return undo_blocker(game) is None


def undo(game: Game, *, sandbox: bool = False) -> Game:
    """A new game: ``game`` rebuilt without its last input, waiting again at that decision.

    Refused (:class:`UndoRefused`, naming what came to light) when, since that
    choice, a card was drawn, a die rolled (or a random pick made) or an
    Unknown revealed (issue 6 item 2). With ``sandbox=True`` it is allowed
    anyway and the new game is marked: its log header says ``sandbox: true``.
    The old game is left as it was. Forced results and bookmarks past the
    new point are dropped.
    """
    recipe = recipe_of(game)
    if recipe is None or not game.inputs:
        raise UndoRefused(f"cannot undo: {undo_blocker(game)}")
    news = _news(game) if _last_choice(game) is not None else ["(the game keeps no events)"]
    last = game.inputs[-1]
    if news and not sandbox:
        raise UndoRefused(
            f"cannot undo the {last['decision']} choice {last['choice']!r}: since then "
            + "; ".join(news[:3])
            + (f" (and {len(news) - 3} more)" if len(news) > 3 else "")
            + ". Only sandbox mode goes back past new information (and marks the log).",
            news,
        )
    keep = len(game.inputs) - 1
    fresh = new_game(
        recipe.scenario,
        seed=recipe.seed,
        data=recipe.data,
        dice=recipe.dice,
        cards={k: list(v) for k, v in recipe.cards.items()},
        options=recipe.options,
        turns=recipe.turns,
    )
    forced = [f for f in recipe.forced if f["at_input"] <= keep]
    _play_inputs(fresh, [i["choice"] for i in game.inputs[:keep]], forced, "undo")
    new = recipe_of(fresh)
    assert new is not None
    new.card_set = recipe.card_set
    new.map_set = recipe.map_set
    new.parent = dict(recipe.parent) if recipe.parent is not None else None
    if new.parent is not None and new.parent.get("at_input", 0) > keep:
        # Undone past the branch point: the parent's inputs now end earlier.
        d = fresh.pending
        new.parent.update(at_input=keep, turn=d.turn if d else 0, impulse=d.impulse if d else 0)
    new.bookmarks = {n: i for n, i in recipe.bookmarks.items() if i <= keep}
    new.sandbox = recipe.sandbox or bool(news)
    return fresh
