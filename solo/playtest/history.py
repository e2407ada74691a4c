"""Playtester tools over a game log: points in a game, replay navigation, branches and undo (issue 6).

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

- :func:`rebuild` and :func:`summary_at`: the game at a point, and what a
  player sees of it (``solo inspect``).
- :class:`History`: a navigator for the window: the positions of a log, the
  game at any of them, steps by decision, activation, Impulse or turn, named
  bookmarks stored in the log header.
- :func:`branch`: a new game that starts as its parent up to a point and then
  goes its own way, optionally with forced dice and cards for the next draws;
  its log header names the parent and the branch point, and ``solo replay``
  replays it exactly (``solo branch``).
- :func:`undo` / :func:`can_undo`: take back the last choice, unless new
  information came to light since (a card drawn, a die rolled, an Unknown
  revealed), except in sandbox mode, which marks the log (``sandbox: true``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from solo.core.errors import SoloError
from solo.core.events import Event
from solo.core.log import Header, LogError, data_version, inputs_of, read_log, write_log
from solo.data.house import HouseData, load_data
from solo.engine.game import Game
from solo.playtest.play import (
    check_header,
    force_due,
    force_next,
    game_from_header,
    information,
    new_game,
    recipe_of,
)
from solo.rules.state import Character, Side, Status

__all__ = [
    "STEPS",
    "History",
    "PointError",
    "Position",
    "UndoRefused",
    "branch",
    "can_undo",
    "header_of",
    "is_hidden",
    "parse_point",
    "rebuild",
    "save_game",
    "split_log_point",
    "summary_at",
    "undo",
    "undo_blocker",
]

Point = tuple[int, int]
"""``(turn, impulse)``: turn 1+, impulse 0-4 (0: before Impulse 1)."""

STEPS = ("decision", "activation", "impulse", "turn")
"""What :meth:`History.next` and :meth:`History.prev` step by."""

UNKNOWN = "Unknown enemy"
"""What a hidden enemy's name reads as (without spoilers)."""

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
# Hidden information


def is_hidden(game: Game, ch: Character) -> bool:
    """Whether ``ch``'s identity is hidden from the Friendly player: an Enemy not Known, still in play.

    As the window shows it (solo.render.logview): dummies are hidden until
    removed; crews and passengers sit face up on their vehicle (C2 31.3, 31.7).
    """
    if ch.side is not Side.ENEMY or ch.revealed or ch.vehicle is not None:
        return False
    if ch.dummy and ch.id in game.state.flags.get("removed_dummies", ()):
        return False
    return ch.status is Status.ACTIVE


def _fog(game: Game) -> re.Pattern[str] | None:
    """A pattern matching the names of hidden enemies (None when none is hidden)."""
    names = sorted({c.name for c in game.state.characters.values() if c.name and is_hidden(game, c)}, key=len)
    if not names:
        return None
    return re.compile("|".join(re.escape(n) for n in reversed(names)))


def _clean(pattern: re.Pattern[str] | None, text: str) -> str:
    return pattern.sub(UNKNOWN, text) if pattern is not None else text


# ---------------------------------------------------------------------------
# Positions and navigation


@attrs.frozen
class Position:
    """One point of a log: decision ``index`` (after ``index`` inputs), where it stands, what it asks."""

    index: int
    """Inputs given before this point (0 .. the number of inputs; the last is the log's end)."""
    turn: int
    impulse: int
    """1-4 in the Action Phase, else 0."""
    phase: str
    """The phase of the sequence of play (a solo.rules.state.Phase value: ``"friendly_order"``,
    ``"action"``...)."""
    kind: str | None
    """The decision's kind (solo.engine.game.DecisionKind value), or None where the game is over."""
    actor: str | None
    """The character the decision is about, if any."""
    active: str | None
    """Whose activation it is: the active character, else the decision's actor, else None."""
    prompt: str
    """The decision's question ("" where the game is over), hidden names cleaned."""
    choice: str | None
    """The input the log gives here (None at its end)."""
    label: str
    """One line for a list: ``"#41 3.2 Pvt Diaz (Sneak): Duck Back? → no"``."""
    activation: str
    """The activation it belongs to: ``"3.2 Pvt Diaz"``, ``"1.0 Friendly Order Phase"``."""

    @property
    def point(self) -> Point:
        """``(turn, impulse)``."""
        return (self.turn, self.impulse)

    def key(self, by: str) -> Any:
        """What stays the same within one ``by`` step (see :data:`STEPS`)."""
        if by == "decision":
            return self.index
        if by == "activation":
            return (self.turn, self.impulse, self.phase, self.active)
        if by == "impulse":
            return (self.turn, self.impulse)
        if by == "turn":
            return self.turn
        raise ValueError(f"cannot step by {by!r} (expected one of: {', '.join(STEPS)})")


_PHASE_NAMES = {
    "setup": "Set-up",
    "friendly_card": "Friendly Card Phase",
    "friendly_order": "Friendly Order Phase",
    "enemy_card_order": "Enemy Card and Order Phase",
    "action": "Action Phase",
    "end": "End Phase",
    "over": "game over",
}


def _position(game: Game, index: int, choice: str | None) -> Position:
    st = game.state
    d = game.pending
    fl = st.flow
    fog = _fog(game)
    turn, impulse = (d.turn, d.impulse) if d is not None else (fl.turn, fl.impulse)
    active = fl.active_character or (d.actor if d is not None else None)
    if active is not None and active in st.characters:
        ch = st.characters[active]
        who = UNKNOWN if is_hidden(game, ch) else ch.name
    else:
        who = _PHASE_NAMES.get(fl.phase.value, fl.phase.value)
    prompt = _clean(fog, d.prompt) if d is not None else ""
    if d is None:
        text = "end of the log: game over" if game.over else "end of the log"
    else:
        label = next((o.label for o in d.options if o.key == choice), choice) if choice is not None else None
        text = prompt + (f" → {_clean(fog, label)}" if label is not None else " (no choice logged)")
    return Position(
        index=index,
        turn=turn,
        impulse=impulse,
        phase=fl.phase.value,
        kind=d.kind.value if d is not None else None,
        actor=d.actor if d is not None else None,
        active=active,
        prompt=prompt,
        choice=choice,
        label=f"#{index} {turn}.{impulse} {text}",
        activation=f"{turn}.{impulse} {who}",
    )


def _play_inputs(game: Game, inputs: Sequence[str], forced: Sequence[Mapping[str, Any]], source: str) -> Game:
    """Apply ``inputs`` to ``game`` (forced results at their points); LogError if the log diverges."""
    start = len(game.inputs)
    for i, choice in enumerate(inputs, start):
        force_due(game, forced)
        _check_choice(game, i, choice, source)
        game.apply(choice)
    force_due(game, forced)
    return game


def _check_choice(game: Game, i: int, choice: str, source: str) -> None:
    if game.pending is None:
        raise LogError(
            f"{source}: choice #{i} ({choice!r}) comes after the end of the game: the log diverges"
        )
    if choice not in game.legal():
        raise LogError(
            f"{source}: choice #{i} ({choice!r}) is not legal at {game.pending.prompt!r}: the log diverges"
        )


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
        if header.card_set:
            data = load_data(Path(header.card_set))
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
            game = game_from_header(self.header_in, data=self.data)
            forced = self.header_in.forced
            out = []
            for i, choice in enumerate(self.inputs):
                force_due(game, forced)
                _check_choice(game, i, choice, where)
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
        """A new game that is this log up to ``point``, then waits for new choices (see :func:`branch`)."""
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


def summary_at(game: Game, *, spoilers: bool = False) -> str:
    """What the game looks like now, in plain lines (``solo inspect``).

    Turn, Impulse and phase; the pending decision; the Initiative Track;
    weather; the Friendly hand; every character (hex, Morale State, order,
    wounds, ammo, Spotted/Hidden or Known/Unknown, Alert/Waiting) and vehicle
    (hex, hull and turret facing, hatches, Target Markers, damage); map
    markers; victory points. An Unknown enemy (or a dummy not yet removed)
    shows only as ``?`` with his team and hex unless ``spoilers``.
    """
    st = game.state
    fl = st.flow
    fog = None if spoilers else _fog(game)
    lines = []
    where = f"Turn {fl.turn}" + (f", Impulse {fl.impulse}" if fl.impulse else "")
    lines.append(
        f"{where} · {_PHASE_NAMES.get(fl.phase.value, fl.phase.value)} · scenario {game.scenario.name}"
    )
    d = game.pending
    if d is not None:
        opts = ", ".join(_clean(fog, o.label) for o in d.options[:8]) + (" ..." if len(d.options) > 8 else "")
        lines.append(f"Pending: {_clean(fog, d.prompt)} [{opts}]")
    elif game.over:
        lines.append(f"Game over: winner {st.winner or 'undecided'}.")
    if fl.track:
        track = []
        for tid in fl.track:
            t = st.teams[tid]
            mark = "*" if tid == fl.active_team else ""
            ini = f" {t.initiative:02d}" if t.initiative is not None else ""
            track.append(f"{mark}{t.name}{ini}")
        lines.append("Initiative Track: " + " · ".join(track))
    if fl.active_character and fl.active_character in st.characters:
        ch = st.characters[fl.active_character]
        lines.append(f"Active: {ch.name if spoilers or not is_hidden(game, ch) else UNKNOWN}")
    los = f", max LOS {st.max_los}" if st.max_los is not None else ""
    lines.append(f"Weather {st.weather}, ground {st.ground}, wind {st.wind}{los}.")
    cards = st.cards
    hand = ", ".join(cards.hand) or "none"
    lines.append(f"Friendly hand: {hand}" + (f"; played {cards.played}" if cards.played else "") + ".")
    for side in (Side.FRIENDLY, Side.ENEMY):
        lines.append(f"{side.value.capitalize()}:")
        for ch in st.roster(side):
            line = _character_line(game, ch, spoilers=spoilers)
            if line:
                lines.append("  " + line)
    if st.vehicles:
        lines.append("Vehicles:")
        for v in st.vehicles.values():
            lines.append("  " + _vehicle_line(game, v, spoilers=spoilers))
    marks = _marker_lines(game)
    if marks:
        lines.append("Markers: " + "; ".join(marks) + ".")
    lines.append(f"Victory points: Friendly {st.vp.get('friendly', 0)}, Enemy {st.vp.get('enemy', 0)}.")
    return "\n".join(lines)


def _character_line(game: Game, ch: Character, *, spoilers: bool) -> str:
    st = game.state
    team = st.teams.get(ch.team)
    team_name = team.name if team is not None else ch.team
    if not spoilers and is_hidden(game, ch):
        return f"? ({team_name}) at {ch.hex}" if ch.hex is not None else ""
    if ch.dummy and ch.id in st.flags.get("removed_dummies", ()):
        return f"{ch.name} ({ch.id}): dummy, removed"
    where = str(ch.hex) if ch.hex is not None else "off map"
    if ch.vehicle is not None:
        where += f" in {ch.vehicle}" + (f" ({ch.seat})" if ch.seat else "")
    bits = [f"{ch.name} ({ch.id}, {team_name}) {where}"]
    if ch.status is not Status.ACTIVE:
        bits.append(ch.status.value.replace("_", " "))
        return " · ".join(bits)
    bits.append(ch.morale.value.capitalize())
    if ch.order is not None:
        o = game.data.orders.get(ch.order.order)
        text = o.name if o is not None else ch.order.order
        if ch.order.directions:
            text += f" {ch.order.directions}"
        if ch.order.target:
            tgt = st.characters.get(ch.order.target)
            shown = UNKNOWN if tgt is not None and not spoilers and is_hidden(game, tgt) else ch.order.target
            text += f" at {shown}"
        bits.append(text)
    else:
        bits.append("no order")
    if ch.wounds:
        bits.append("wounds " + ", ".join(w.value for w in ch.wounds))
    if ch.ammo.value != "full":
        bits.append(f"ammo {ch.ammo.value}")
    if ch.side is Side.FRIENDLY:
        bits.append("Spotted" if ch.revealed else "Hidden")
    else:
        state = "Known" if ch.revealed else "Unknown"
        if ch.dummy:
            state += ", dummy"
        bits.append(state)
        bits.append("Alert" if ch.alert else "Waiting")
        if not ch.prepared:
            bits.append("Unprepared")
    return " · ".join(bits)


def _vehicle_line(game: Game, v: Any, *, spoilers: bool) -> str:
    where = str(v.hex) if v.hex is not None else "off map"
    text = f"{v.name} ({v.id}, {v.side.value}) {where} facing {v.facing}"
    if v.turret is not None:
        text += f", turret {v.turret}"
    state = [
        s for s, on in (("destroyed", v.destroyed), ("abandoned", v.abandoned), ("on fire", v.on_fire)) if on
    ]
    state += list(v.damage)
    if state:
        text += " · " + ", ".join(state)
    hatches = [f"{p} {s.hatch.value}" for p, s in v.seats.items() if s.hatch.value != "none"]
    if hatches:
        text += " · hatches: " + ", ".join(hatches)
    markers = [f"{p} → {h}" for p, h in v.markers()]
    if markers:
        text += " · Target Markers: " + ", ".join(markers)
    return text


def _marker_lines(game: Game) -> list[str]:
    m = game.state.markers
    out = []
    for h, kinds in m.smoke.items():
        if kinds:
            out.append(f"smoke {h} ({', '.join(kinds)})")
    for h, kind in m.fire.items():
        out.append(f"{kind} {h}")
    for g in m.grenades:
        out.append(f"{g.get('kind', 'grenade')} {g.get('hex')}")
    for h in m.illuminated:
        out.append(f"illumination {h}")
    return out


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
        data_version=data_version(recipe.card_set),
        options=dict(recipe.options),
        dice=tuple(recipe.dice),
        cards={k: tuple(v) for k, v in recipe.cards.items()},
        policy=policy,
        turns=recipe.turns,
        card_set=recipe.card_set,
        parent=dict(recipe.parent) if recipe.parent is not None else None,
        forced=tuple(recipe.forced),
        sandbox=recipe.sandbox,
        bookmarks=dict(recipe.bookmarks),
    )


def save_game(game: Game, path: Path | str, *, policy: str = "") -> Path:
    """Write ``game``'s log (:func:`header_of` + its events) atomically to ``path``."""
    write_log(path, header_of(game, policy=policy), game.events)
    return Path(path)


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
    new.parent = dict(recipe.parent) if recipe.parent is not None else None
    if new.parent is not None and new.parent.get("at_input", 0) > keep:
        # Undone past the branch point: the parent's inputs now end earlier.
        d = fresh.pending
        new.parent.update(at_input=keep, turn=d.turn if d else 0, impulse=d.impulse if d else 0)
    new.bookmarks = {n: i for n, i in recipe.bookmarks.items() if i <= keep}
    new.sandbox = recipe.sandbox or bool(news)
    return fresh
