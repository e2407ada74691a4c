"""Games for the window: new, loaded from a log, replayed to a point, saved (no pygame here).

A :class:`Session` is a game plus what its save header needs (scenario, seed,
options, forced dice). In table mode the dice are the player's, so a save
writes every result they gave as the header's forced dice and cards
(:func:`recorded_chance`): the log then replays with ``solo replay`` like any
other, and ``solo play --load`` rebuilds the game without asking again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from solo.core.dice import ChanceRequest, Dice, ScriptedSource, TableSource
from solo.core.events import Event
from solo.core.log import Header, LogError, inputs_of, read_log, write_log
from solo.core.log_schema import show
from solo.core.options import Options
from solo.data.house import HouseData
from solo.data.scenario import load_scenario
from solo.engine.game import Game
from solo.playtest.history import History
from solo.playtest.play import (
    check_policy,
    data_difference,
    data_for,
    force_due,
    game_data_version,
    game_file_versions,
    game_from_header,
    header_for,
    header_results,
    new_game,
    recipe_of,
)

ChanceCallback = Callable[[ChanceRequest], object]


@attrs.define
class Session:
    """A game and the facts its save header needs."""

    game: Game
    scenario: str
    seed: int
    options: dict[str, Any] = attrs.field(factory=dict)
    turns: int | None = None
    dice: tuple[int, ...] = ()
    cards: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    table: bool = False
    """Table mode: the player gives every die and card (solo.core.dice.TableSource)."""
    source_log: str | None = None
    """The log this game was loaded from, if any."""
    warnings: list[str] = attrs.field(factory=list)
    parent_log: str | None = None
    """For a branch (``solo play --from``, Branch here): the parent log, if it came from a file."""
    auto: dict[int, str] = attrs.field(factory=dict)
    """Inputs answered by a standing choice: input index → the setting (solo.playtest.standing)."""
    card_set: str | None = None
    """Table mode: the ``--cards DIR`` folder the game was set up with (a game made by new_game
    keeps its folders in its Recipe instead)."""
    map_set: str | None = None
    """Table mode: the ``--maps DIR`` folder the game was set up with."""
    window: dict[str, Any] = attrs.field(factory=dict)
    """The window's settings kept with the save (pace, standing choices: Header.window)."""
    standing: dict[str, Any] = attrs.field(factory=dict)
    """The window's standing choices (StandingChoices.to_dict), kept in the save's header."""

    def header(self) -> Header:
        """The log header that rebuilds this game (table mode: the player's results as forced dice)."""
        dice, cards = recorded_chance(self.game.events) if self.table else (list(self.dice), dict(self.cards))
        header = header_for(
            self.game,
            self.scenario,
            self.seed,
            policy="window" + (" (table)" if self.table else ""),
            dice=dice,
            cards=cards,
            options=self.options,
            turns=self.turns,
        )
        n = len(self.game.inputs)
        auto = {str(i): why for i, why in sorted(self.auto.items()) if i < n}
        header = attrs.evolve(
            header, auto={**header.auto, **auto}, window=dict(self.window), standing=dict(self.standing)
        )
        if recipe_of(self.game) is None:  # table mode: the data folders are the session's
            header = attrs.evolve(
                header,
                card_set=self.card_set,
                map_set=self.map_set,
                data_version=game_data_version(self.card_set, self.map_set, self.scenario),
                files=game_file_versions(self.card_set, self.map_set, self.scenario),
            )
        return header

    def save(self, path: Path | str) -> Path:
        """Write the log (header + every event) atomically to ``path`` (solo.core.log.write_log).

        The header keeps the game's lineage (parent, forced results, sandbox, bookmarks: header_for).
        """
        path = Path(path)
        write_log(path, self.header(), self.game.events)
        return path

    def default_save_path(self) -> Path:
        """Where Ctrl+S writes: the loaded log, else ``solo-<scenario>-seed<N>.jsonl`` here.

        A branch never overwrites its parent: it saves to ``<parent>-branch<K>.jsonl`` beside it,
        ``K`` the branch point (decision index), with ``-2``, ``-3``... if that file exists.
        """
        if self.source_log:
            return Path(self.source_log)
        recipe = recipe_of(self.game)
        name = Path(self.scenario).stem if self.scenario.endswith(".yaml") else self.scenario
        if self.parent_log or (recipe is not None and recipe.parent is not None):
            parent = Path(self.parent_log or f"solo-{name}-seed{self.seed}.jsonl")
            at = recipe.parent.get("at_input", 0) if recipe is not None and recipe.parent else 0
            path = parent.with_name(f"{parent.stem}-branch{at}.jsonl")
            n = 2
            while path.exists():
                path = parent.with_name(f"{parent.stem}-branch{at}-{n}.jsonl")
                n += 1
            return path
        return Path(f"solo-{name}-seed{self.seed}.jsonl")


def recorded_chance(events: Sequence[Event]) -> tuple[list[int], dict[str, list[str]]]:
    """The dice results and card draws of a game, in order, as forced results for its header.

    Read from the ``roll`` events: a die gives its physical faces (a d3 its d6
    face), %D its reading 00-99, a random pick among n > 1 its face 1..n, a
    draw its card id under its deck; shuffles give nothing (draws are forced by id).
    """
    dice: list[int] = []
    cards: dict[str, list[str]] = {}
    for ev in events:
        if ev.kind != "roll":
            continue
        d = ev.data
        t = d.get("type")
        if t == "roll":
            if d.get("kind") == "%D":
                dice.append(int(d["total"]))
            else:
                dice.extend(int(f) for f in d.get("faces", ()))
        elif t == "pick":
            if int(d.get("size", 1)) > 1:
                dice.append(int(d["index"]) + 1)
        elif t == "draw":
            cards.setdefault(str(d["deck"]), []).append(str(d["card"]))
    return dice, cards


class ReplayThenTable:
    """A chance source that gives a log's recorded results first, then asks the player (table mode).

    Shuffles are silent while recorded draws remain (the recorded draws name
    their cards, so the pile's order does not matter).
    """

    def __init__(
        self, rolls: Sequence[int], cards: dict[str, Sequence[str]], callback: ChanceCallback
    ) -> None:
        self.recorded = ScriptedSource(list(rolls), cards={k: list(v) for k, v in cards.items()})
        self.table = TableSource(callback)
        self._decks = tuple(cards)

    def _replaying(self) -> bool:
        return bool(self.recorded.remaining) or any(self.recorded.remaining_cards(d) for d in self._decks)

    def value(self, kind: str, low: int, count: int, purpose: str, detail: str = "") -> int:
        """A recorded result while any is left, else the player's."""
        if self.recorded.remaining:
            return self.recorded.value(kind, low, count, purpose, detail)
        return self.table.value(kind, low, count, purpose, detail)

    def choose(self, labels: tuple[str, ...], purpose: str) -> int:
        """A recorded pick while any is left, else the player's."""
        if self.recorded.remaining:
            return self.recorded.choose(labels, purpose)
        return self.table.choose(labels, purpose)

    def card(self, deck: str, pile: Sequence[str], purpose: str) -> int:
        """A recorded draw of ``deck`` while any is left, else the player's."""
        if self.recorded.remaining_cards(deck):
            return self.recorded.card(deck, pile, purpose)
        return self.table.card(deck, pile, purpose)

    def shuffle(self, deck: str, pile: list[str], purpose: str, detail: str = "") -> None:
        """Silent while replaying; afterwards the player is told to shuffle."""
        if not self._replaying():
            self.table.shuffle(deck, pile, purpose, detail)

    def to_dict(self) -> dict[str, Any]:
        """As a table source (the callback is given again on load)."""
        return self.table.to_dict()


def new_session(
    scenario: str,
    *,
    seed: int = 1,
    data: HouseData | None = None,
    table: ChanceCallback | None = None,
    card_set: str | None = None,
    map_set: str | None = None,
    options: dict[str, Any] | None = None,
) -> Session:
    """A new game of ``scenario``; with ``table`` the player gives every die and card through it.

    ``card_set``/``map_set`` are the ``--cards DIR``/``--maps DIR`` folders (None: shipped data);
    ``options`` house options changed for this game (as ``--option``; kept in the save header).
    Raises ValueError for an unknown option or value (Options.from_dict).
    """
    options = dict(options or {})
    if table is None:
        game = new_game(scenario, seed=seed, data=data, card_set=card_set, map_set=map_set, options=options)
        return Session(game, str(scenario), seed, options=options)
    data = data if data is not None else data_for(card_set, map_set)
    sc = load_scenario(scenario, data)
    opts = Options.from_dict({**sc.options, **options})
    game = Game(sc, data, dice=Dice(TableSource(table), keep_history=False), options=opts)
    return Session(game, str(scenario), seed, table=True, options=options, card_set=card_set, map_set=map_set)


def load_session(
    path: Path | str,
    *,
    data: HouseData | None = None,
    table: ChanceCallback | None = None,
    stop: Callable[[Game], bool] | None = None,
) -> Session:
    """Rebuild the game of a log and apply its choices (as ``solo replay`` does).

    ``stop(game)`` is asked before each choice; True stops there (snapshots of
    a turn and impulse). With ``table`` the game goes on in table mode after
    the log's recorded results. Raises :class:`LogError` for a bad log and
    when a logged choice is not legal (the log diverges: ``path:line:`` of that choice).
    """
    header, events = read_log(path)
    check_policy(header, path)
    warnings = []
    here = game_data_version(header.card_set, header.map_set, header.scenario)
    if header.data_version != here:
        warnings.append(f"{path}:1: {data_difference(header, here)}; the game may diverge")
    with header_results(path):
        game = _replayed(path, header, events, data=data, table=table, stop=stop)
    return Session(
        game,
        header.scenario,
        header.seed,
        options=dict(header.options),
        turns=header.turns,
        dice=tuple(header.dice),
        cards={k: tuple(v) for k, v in header.cards.items()},
        table=table is not None,
        source_log=str(path),
        warnings=warnings,
        auto={int(k): v for k, v in header.auto.items() if k.isdigit()},
        card_set=header.card_set,
        map_set=header.map_set,
        window=dict(header.window),
        standing=dict(header.standing),
    )


def _replayed(
    path: Path | str,
    header: Header,
    events: Sequence[Event],
    *,
    data: HouseData | None,
    table: ChanceCallback | None,
    stop: Callable[[Game], bool] | None,
) -> Game:
    """The game of a log with its choices applied (:func:`load_session`'s replay)."""
    cards: dict[str, Sequence[str]] = {k: list(v) for k, v in header.cards.items()}
    forced = header.forced
    if table is None:
        # the header's lineage (parent, forced results, sandbox, bookmarks) goes into the game's
        # Recipe, so a save keeps it; forced results are applied at their input index (issue 6)
        game = game_from_header(header, data=data)
    else:
        forced = ()
        data = data if data is not None else data_for(header.card_set, header.map_set)
        sc = load_scenario(header.scenario, data)
        if header.turns is not None:
            sc = attrs.evolve(sc, turns=header.turns)
        opts = Options.from_dict({**sc.options, **header.options})
        source = ReplayThenTable(header.dice, cards, table)
        game = Game(sc, data, dice=Dice(source, keep_history=False), options=opts)
    lines = [ev.seq + 2 for ev in events if ev.kind == "choice" and not ev.automatic]
    for i, choice in enumerate(inputs_of(events)):
        force_due(game, forced)
        if game.pending is None or (stop is not None and stop(game)):
            break
        if choice not in game.legal():
            raise LogError(
                f"{path}:{lines[i]}: logged choice {i + 1} {show(choice)} is not one the game offers at "
                f"{show(game.pending.prompt)}: the log diverges"
            )
        game.apply(choice)
    force_due(game, forced)
    return game


def session_from_history(history: History, game: Game, *, parent_log: str | None = None) -> Session:
    """A session playing ``game``, a game rebuilt from ``history``'s log (a branch, an undo)."""
    h = history.header_in
    return Session(
        game,
        h.scenario,
        h.seed,
        options=dict(h.options),
        turns=h.turns,
        dice=tuple(h.dice),
        cards={k: tuple(v) for k, v in h.cards.items()},
        parent_log=parent_log,
    )


def branch_session(
    path: Path | str, point: tuple[int, int] | int | str, *, data: HouseData | None = None
) -> Session:
    """``solo play --from LOG@POINT``: a new game that is the log up to ``point``, then the player's.

    ``point`` as solo.playtest.history.parse_point gives it (``(turn, impulse)``, ``#N`` index, bookmark).
    The game's header names the parent log and the branch point (solo.playtest.history.History.branch); a
    save goes to a new file (:meth:`Session.default_save_path`). Raises LogError (PointError) for
    an unreadable log, a log from other data, or a point past its end or where the game is over.
    """
    history = History.from_log(path, data=data)
    game = history.branch(point)
    return session_from_history(history, game, parent_log=str(path))


def reached(game: Game, turn: int | None, impulse: int | None) -> bool:
    """Whether the game's flow is at or past turn ``turn``, impulse ``impulse`` (None: any)."""
    if turn is None:
        return False
    fl = game.state.flow
    if fl.turn != turn:
        return fl.turn > turn
    if impulse is None:
        return True
    return fl.impulse >= impulse


def is_log(path: str) -> bool:
    """Whether ``path`` names a game log (a file whose first line is a solo-log header)."""
    p = Path(path)
    if not p.is_file() or p.suffix in (".yaml", ".yml"):
        return False
    try:
        with p.open(encoding="utf-8") as f:
            first = f.readline()
    except (OSError, UnicodeDecodeError):
        return False
    return '"solo-log"' in first


__all__ = [
    "LogError",
    "ReplayThenTable",
    "Session",
    "branch_session",
    "is_log",
    "load_session",
    "new_session",
    "reached",
    "recorded_chance",
    "session_from_history",
]
