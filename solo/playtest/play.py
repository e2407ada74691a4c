"""Headless games: play a scenario with a policy, write its log, replay a log (issue 3 item 6).

Every game made by :func:`new_game` keeps its :class:`Recipe` (what rebuilds it:
scenario, seed, forced results, options) beside it, with its lineage for
issue 6: the parent of a branch, the results forced mid-game
(:func:`force_next`), the sandbox mark and the bookmarks. :func:`header_for`
writes them into the log header and :func:`replay` applies the forced results
at the same input index, so a branch log replays exactly.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from solo.core.dice import Dice, ScriptedSource
from solo.core.errors import ChanceError
from solo.core.events import Event
from solo.core.options import Options
from solo.core.resources import maps_dir
from solo.data import data_cache
from solo.data.house import HouseData, load_data
from solo.data.scenario import load_scenario, user_files
from solo.data.scenario_format import Scenario
from solo.engine.game import Game
from solo.rules.state import Side, Status

if TYPE_CHECKING:
    from solo.core.log import Header

# solo.core.log (JSON, hashing, temporary files) is imported where a log is read or written,
# not to start a game (issue 10, start-up).

DEFAULT_SCENARIO = "first_contact"


def new_game(
    scenario: str | Path,
    *,
    seed: int,
    data: HouseData | None = None,
    dice: Sequence[int] = (),
    cards: dict[str, Sequence[str]] | None = None,
    options: dict[str, Any] | None = None,
    turns: int | None = None,
    record_rolls: bool = True,
    keep_events: bool = True,
    card_set: str | Path | None = None,
    map_set: str | Path | None = None,
) -> Game:
    """A new game of ``scenario`` (shipped id or path) with ``seed``; forced ``dice``/``cards`` first.

    ``card_set``/``map_set`` (``--cards DIR``/``--maps DIR``) are the designer's folders the data
    come from: loaded when ``data`` is not given, and named in the log header either way.
    """
    if data is None:
        data = data_for(card_set, map_set)
    sc: Scenario = _scenario(scenario, data)
    if turns is not None:
        sc = attrs.evolve(sc, turns=turns)
    game = build_game(
        sc,
        data,
        seed=seed,
        dice=dice,
        cards=cards,
        options=options,
        record_rolls=record_rolls,
        keep_events=keep_events,
    )
    recipe = Recipe(
        scenario=str(scenario),
        seed=seed,
        data=data,
        dice=tuple(dice),
        cards={k: tuple(v) for k, v in (cards or {}).items()},
        options=dict(options or {}),
        turns=turns,
        card_set=str(card_set) if card_set else None,
        map_set=str(map_set) if map_set else None,
    )
    _RECIPES[game] = recipe
    if keep_events:
        game.listeners.append(_InformationWatch(weakref.ref(game), recipe))
    return game


def build_game(
    sc: Scenario,
    data: HouseData,
    *,
    seed: int,
    dice: Sequence[int] = (),
    cards: Mapping[str, Sequence[str]] | None = None,
    options: Mapping[str, Any] | None = None,
    record_rolls: bool = True,
    keep_events: bool = True,
) -> Game:
    """The game of a loaded scenario ``sc`` with ``seed`` (forced ``dice``/``cards`` first), no recipe kept.

    What :func:`new_game` builds once it has loaded the data and the scenario; the batch
    workers (:func:`solo.playtest.batch.new_batch_game`), which receive them loaded, build on it too.
    """
    opts = Options.from_dict({**sc.options, **(options or {})})
    if dice or cards:
        source: Any = ScriptedSource(
            list(dice), cards={k: list(v) for k, v in (cards or {}).items()}, fallback=seed
        )
        d = Dice(source, keep_history=False)
    else:
        d = Dice(seed, keep_history=False)
    return Game(sc, data, dice=d, options=opts, record_rolls=record_rolls, keep_events=keep_events)


@attrs.define(eq=False)
class Recipe:
    """What rebuilds a game (:func:`new_game`'s arguments) and its lineage (issue 6).

    Kept beside every game :func:`new_game` makes (:func:`recipe_of`); the
    lineage fields are those of the log header (:class:`~solo.core.log.Header`).
    """

    scenario: str
    seed: int
    data: HouseData
    dice: tuple[int, ...] = ()
    cards: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    options: dict[str, Any] = attrs.field(factory=dict)
    turns: int | None = None
    card_set: str | None = None
    map_set: str | None = None
    parent: dict[str, Any] | None = None
    forced: list[dict[str, Any]] = attrs.field(factory=list)
    """The results forced mid-game so far, as in the header (``at_input``, ``dice``, ``cards``)."""
    sandbox: bool = False
    bookmarks: dict[str, int] = attrs.field(factory=dict)
    seen: tuple[Any, ...] | None = None
    """:func:`information` when the last choice was made (for undo, solo.playtest.history)."""


_RECIPES: weakref.WeakKeyDictionary[Game, Recipe] = weakref.WeakKeyDictionary()


def recipe_of(game: Game) -> Recipe | None:
    """The :class:`Recipe` of a game made by :func:`new_game`, or None (a table-mode game, a test's game)."""
    return _RECIPES.get(game)


def information(game: Game) -> tuple[Any, ...]:
    """What the Friendly player knows that spotting can change: who is Known/Spotted, the roster.

    A tuple ``(revealed ids, removed dummies, roster size)`` in roster order; compared before and
    after a choice to tell whether undoing it would unsee something (issue 6 item 2).
    """
    st = game.state
    revealed = tuple(c.id for c in st.roster() if c.revealed)
    return (revealed, tuple(st.flags.get("removed_dummies", ())), len(st.characters))


@attrs.define
class _InformationWatch:
    """An event listener noting :func:`information` each time the player makes a choice."""

    game: Any
    recipe: Recipe

    def __call__(self, ev: Event) -> None:
        if ev.kind == "choice" and not ev.automatic:
            game = self.game()
            if game is not None:
                self.recipe.seen = information(game)


def force_next(
    game: Game, dice: Sequence[int] = (), cards: Mapping[str, Sequence[str]] | None = None
) -> None:
    """Force the next results of ``game``: ``dice`` (physical readings, as ``--dice``) and card draws.

    The game's chance source becomes a :class:`~solo.core.dice.ScriptedSource` with
    these results whose fallback is the source the game had (its RNG state at
    this point), so after them the game rolls exactly as it would have. The
    forced results are noted in the game's :class:`Recipe` at the current input
    index (``len(game.inputs)``) and written to the log header (``forced``),
    which :func:`replay` applies at the same point. Raises
    :class:`~solo.core.errors.ChanceError` for a value that is not an integer 0-99,
    an unknown deck or a card not in that deck.
    """
    dice = list(dice)
    cards = {str(k): [str(c) for c in v] for k, v in (cards or {}).items()}
    for v in dice:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 99:
            raise ChanceError(f"a forced result must be a die reading 0-99, got {v!r}")
    decks = {game.friendly_deck.name: game.friendly_deck, game.enemy_deck.name: game.enemy_deck}
    for deck, ids in cards.items():
        if deck not in decks:
            raise ChanceError(f"no deck {deck!r} to force cards from (decks: {', '.join(decks)})")
        for c in ids:
            if c not in decks[deck].cards:
                raise ChanceError(f"card {c!r} is not in the {deck} deck")
    if not dice and not any(cards.values()):
        return
    game.dice.source = ScriptedSource(dice, cards=cards, fallback=game.dice.source)  # type: ignore[arg-type]  # any ChanceSource rolls on
    recipe = recipe_of(game)
    if recipe is not None:
        recipe.forced.append(
            {
                "at_input": len(game.inputs),
                "dice": tuple(dice),
                "cards": {k: tuple(v) for k, v in cards.items()},
            }
        )


def force_due(game: Game, forced: Iterable[Mapping[str, Any]]) -> None:
    """Apply the entries of a header's ``forced`` list due now (``at_input == len(game.inputs)``).

    Entries already applied to this game (counted in its :class:`Recipe`) are not applied twice.
    """
    n = len(game.inputs)
    due = [f for f in forced if f["at_input"] == n]
    if not due:
        return
    recipe = recipe_of(game)
    done = sum(1 for f in recipe.forced if f["at_input"] == n) if recipe is not None else 0
    for f in due[done:]:
        force_next(game, f.get("dice", ()), f.get("cards", {}))


def data_for(card_set: str | Path | None = None, map_set: str | Path | None = None) -> HouseData:
    """The data of a card set and a map set (``--cards DIR``, ``--maps DIR``; None: shipped only)."""
    return load_data(Path(card_set) if card_set else None, Path(map_set) if map_set else None)


def game_data_version(card_set: str | Path | None, map_set: str | Path | None, scenario: str | Path) -> str:
    """The data version a log of ``scenario`` records: every shipped data file, the card and map
    sets, and the scenario and map files given by path (:func:`solo.data.scenario.user_files`)."""
    from solo.core.log import data_version

    return data_version(card_set, map_set, user_files(scenario))


def game_file_versions(
    card_set: str | Path | None, map_set: str | Path | None, scenario: str | Path
) -> dict[str, str]:
    """The header's ``files`` of a game of ``scenario``: ``{path: short hash}`` of each file read
    outside the shipped data (:func:`solo.core.log.file_versions`); ``{}`` for shipped data only."""
    from solo.core.log import file_versions

    return file_versions(card_set, map_set, user_files(scenario))


def data_difference(header: Header, here: str) -> str:
    """Why a log's data version is not ``here``, in words: the files that changed when the header
    records them, else which data may differ."""
    from solo.core.log import changed_files

    now = game_file_versions(header.card_set, header.map_set, header.scenario)
    changed = changed_files(header.files, now) if header.files else []
    if changed:
        return f"{'; '.join(changed)} since the log was made"
    if header.files or not now:
        return (
            f"the shipped data are not those the log was made with (data version {header.data_version}, "
            f"here {here}: another version of solo?)"
        )
    return (
        f"the log was made with data version {header.data_version}, these data are {here} (one of "
        f"{', '.join(sorted(now))} or the shipped data changed)"
    )


@contextlib.contextmanager
def header_results(source: Path | str) -> Iterator[None]:
    """Within: a forced die or card of the log header that the game cannot take (a
    :class:`~solo.core.errors.ChanceError`: a face no die has, a card not in its deck) becomes
    a :class:`~solo.core.errors.LogError` at line 1 of ``source``."""
    from solo.core.errors import LogError

    try:
        yield
    except ChanceError as exc:
        raise LogError(f"{source}:1: the header's forced dice or cards do not fit this game: {exc}") from None


def check_policy(header: Header, source: Path | str) -> None:
    """Refuse a header naming a policy no solo writes (LogError ``source:1: ...``)."""
    from solo.core.errors import LogError
    from solo.core.log_schema import WINDOW_POLICIES
    from solo.playtest.policies import POLICY_NAMES

    known = (*POLICY_NAMES, *WINDOW_POLICIES)
    if header.policy not in ("", *known):
        raise LogError(
            f"{source}:1: the header names an unknown policy {header.policy!r} (known: {', '.join(known)})"
        )


def check_header(header: Header, source: Path | str) -> None:
    """Refuse a log made with another data version, or whose card or map set or scenario file
    (given by path, relative to the working folder) is not here (LogError, ``source:1: ...``)."""
    from solo.core.errors import LogError

    check_policy(header, source)
    for kind, folder in (("card set", header.card_set), ("map set", header.map_set)):
        if folder and not Path(folder).is_dir():
            raise LogError(f"{source}:1: the log was played with the {kind} {folder}, which is not here")
    scen = str(header.scenario)
    by_path = "/" in scen or "\\" in scen or Path(scen).suffix in (".yaml", ".yml")
    if by_path and not Path(scen).is_file():  # else the missing file would hash as "another version"
        raise LogError(f"{source}:1: scenario file {scen!r} not found (looked for {Path(scen).absolute()})")
    here = game_data_version(header.card_set, header.map_set, header.scenario)
    if header.data_version != here:
        raise LogError(f"{source}:1: {data_difference(header, here)}; replaying it would diverge")


def game_from_header(header: Header, *, data: HouseData | None = None) -> Game:
    """A new game as the header describes it (no input given yet), its lineage in its :class:`Recipe`.

    Forced results due before the first input are applied. Does not check the
    data version (:func:`check_header` does).
    """
    if data is None or header.card_set or header.map_set:
        data = data_for(header.card_set, header.map_set)
    game = new_game(
        header.scenario,
        seed=header.seed,
        data=data,
        dice=header.dice,
        cards={k: list(v) for k, v in header.cards.items()},
        options=header.options,
        turns=header.turns,
    )
    recipe = _RECIPES[game]
    recipe.card_set = header.card_set
    recipe.map_set = header.map_set
    recipe.parent = dict(header.parent) if header.parent is not None else None
    recipe.sandbox = header.sandbox
    recipe.bookmarks = dict(header.bookmarks)
    force_due(game, header.forced)
    return game


_SCENARIOS: dict[tuple[str, int], tuple[HouseData, Scenario]] = {}


def _scenario(scenario: str | Path, data: HouseData) -> Scenario:
    """Load a scenario once per data set (batch runs play the same one many times)."""
    key = (str(scenario), id(data))
    hit = _SCENARIOS.get(key)
    if hit is not None and hit[0] is data:
        return hit[1]
    sc = _load_scenario(scenario, data)
    if len(_SCENARIOS) > 64:
        _SCENARIOS.clear()
    _SCENARIOS[key] = (data, sc)
    return sc


def _load_scenario(scenario: str | Path, data: HouseData) -> Scenario:
    """:func:`load_scenario`, through the parsed-data cache for a shipped scenario named by id.

    Cached only when ``data`` came from the cache (its key is part of the scenario's, with the
    scenario file) and the scenario plays on one of the data's maps (a scenario with overlays
    holds a map of its own, built from the data's: loaded anew each time, as any other).
    """
    house_key = data_cache.key_for(data)
    p = Path(scenario)
    if house_key is None or p.suffix or p.exists() or p.name != str(scenario):
        return load_scenario(scenario, data)
    return data_cache.cached(
        f"scenario-{scenario}",
        [maps_dir() / "scenarios" / f"{scenario}.yaml"],
        lambda: load_scenario(scenario, data),
        extra=f"house {house_key}",
        keep=lambda sc: sc.map_def is None,
    )


def header_for(
    game: Game,
    scenario: str | Path,
    seed: int,
    *,
    policy: str = "",
    dice: Sequence[int] = (),
    cards: dict[str, Sequence[str]] | None = None,
    options: dict[str, Any] | None = None,
    turns: int | None = None,
) -> Header:
    """The log header that rebuilds ``game``, with its lineage (parent, forced results, sandbox,
    bookmarks) when it has a :class:`Recipe`."""
    from solo.core.log import Header

    recipe = recipe_of(game)
    lineage: dict[str, Any] = {}
    if recipe is not None:
        lineage = {
            "card_set": recipe.card_set,
            "map_set": recipe.map_set,
            "parent": dict(recipe.parent) if recipe.parent is not None else None,
            "forced": tuple(recipe.forced),
            "sandbox": recipe.sandbox,
            "bookmarks": dict(recipe.bookmarks),
        }
    return Header(
        scenario=str(scenario),
        seed=seed,
        data_version=game_data_version(lineage.get("card_set"), lineage.get("map_set"), scenario),
        files=game_file_versions(lineage.get("card_set"), lineage.get("map_set"), scenario),
        options=dict(options or {}),
        dice=tuple(dice),
        cards={k: tuple(v) for k, v in (cards or {}).items()},
        policy=policy,
        turns=turns,
        **lineage,
    )


@attrs.frozen
class ReplayResult:
    """The outcome of a replay: ``ok`` if every event matched."""

    ok: bool
    events: int
    mismatch: str | None = None
    ends_early: str | None = None
    """Set when the log stops before the game's end and all of it matches (a prefix)."""
    order_only: str | None = None
    """Set (with ``ok`` False and ``mismatch`` the first moved line) when the log records the same
    play as the replay and only the order of its lines differs: a log written by an older version
    (before an action's line came before its dice), :mod:`solo.playtest.same_play`."""


def replay(path: Path | str, *, data: HouseData | None = None) -> ReplayResult:
    """Rebuild the game of a log, feed its choices back and compare every event.

    A log that ends before the game's end (cut at a line boundary, or saved mid-game) replays
    as a prefix: ``ok`` with ``ends_early`` saying where it stops. Raises :class:`LogError` for
    an unreadable log (a last line cut mid-line says so) or one made with another data version.
    """
    from solo.core.log import inputs_of, read_log
    from solo.playtest.log_diff import replay_log

    header, logged = read_log(path)
    check_header(header, path)
    with header_results(path):
        game = game_from_header(header, data=data)
        mismatch, compared = replay_log(str(path), logged, game, lambda: force_due(game, header.forced))
        if mismatch is not None:
            older = _order_only(header, logged, data)
            return ReplayResult(False, compared, mismatch, order_only=older)
        force_due(game, header.forced)
    got = game.events
    stops_early = len(logged) < len(got) or (len(logged) == len(got) and game.pending is not None)
    if stops_early and not any(e.kind == "game_over" for e in logged):
        # A log that stops before the game's end (cut at a line, or saved mid-game): a prefix.
        last = logged[-1] if logged else None
        where = f"turn {last.turn}, impulse {last.impulse}" if last is not None else "the start"
        return ReplayResult(
            True,
            len(logged),
            ends_early=f"the log ends at decision {len(inputs_of(logged))} ({where}); "
            f"everything up to there matches",
        )
    if len(logged) != len(got):
        return ReplayResult(
            False,
            len(logged),
            f"{path}:{len(logged) + 1}: the log ends at event {len(logged) - 1} (game over), the replay "
            f"goes on to event {len(got) - 1}",
        )
    return ReplayResult(True, len(got))


def _order_only(header: Header, logged: Sequence[Event], data: HouseData | None) -> str | None:
    """How the lines of ``logged`` moved, when its choices played again give the same play in
    another order (:func:`solo.playtest.same_play.play_differences`); None when the play
    differs or the choices cannot be fed back. A log that stops before the game's end is
    compared with as many replayed events."""
    from solo.core.log import inputs_of
    from solo.playtest.same_play import moved_lines, play_differences

    game = game_from_header(header, data=data)
    for choice in inputs_of(logged):
        force_due(game, header.forced)
        if game.pending is None or choice not in game.legal():
            return None
        game.apply(choice)
    force_due(game, header.forced)
    got = [e.to_dict() for e in game.events]
    if not any(e.kind == "game_over" for e in logged):
        got = got[: len(logged)]
    old = [e.to_dict() for e in logged]
    moved = moved_lines(old, got)
    if not moved or play_differences(old, got):
        return None
    return (
        f"same play, narration order differs: written by an older version "
        f"({len(moved)} of {len(old)} event lines in another place, the first at line {moved[0] + 2})"
    )


def summary(game: Game) -> str:
    """A short human-readable summary: turns, casualties, victory points with their band (§19), winner."""
    st = game.state
    lines = [f"Scenario {game.scenario.name}: {st.flow.turn} turn(s) played."]
    for side in (Side.FRIENDLY, Side.ENEMY):
        chars = [c for c in st.on_side(side) if not c.dummy]
        counts = {s: sum(1 for c in chars if c.status is s) for s in Status}
        lost = ", ".join(
            f"{n} {s.value.replace('_', ' ')}" for s, n in counts.items() if n and s is not Status.ACTIVE
        )
        lines.append(
            f"  {side.value.capitalize()}: {counts[Status.ACTIVE]} of {len(chars)} still in action"
            + (f" ({lost})" if lost else "")
            + "."
        )
    vp = st.vp
    band = next((str(ev.data.get("band")) for ev in reversed(game.events) if ev.kind == "victory"), "")
    lines.append(
        f"  Victory points: {vp.get('friendly', 0)}"
        + (f", band: {band}" if band else "")
        + f"; winner: {st.winner or 'undecided'}."
    )
    return "\n".join(lines)
