"""Headless games: play a scenario with a policy, write its log, replay a log (issue 3 item 6)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from solo.data import HouseData, load_data
from solo.dice import Dice, ScriptedSource
from solo.engine import Game
from solo.log import Header, LogError, comparable, data_version, inputs_of, read_log
from solo.options import Options
from solo.scenario import Scenario, load_scenario
from solo.state import Side, Status

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
) -> Game:
    """A new game of ``scenario`` (shipped id or path) with ``seed``; forced ``dice``/``cards`` first."""
    data = data if data is not None else load_data()
    sc: Scenario = _scenario(scenario, data)
    if turns is not None:
        sc = attrs.evolve(sc, turns=turns)
    opts = Options.from_dict({**sc.options, **(options or {})})
    if dice or cards:
        source: Any = ScriptedSource(
            list(dice), cards={k: list(v) for k, v in (cards or {}).items()}, fallback=seed
        )
        d = Dice(source, keep_history=False)
    else:
        d = Dice(seed, keep_history=False)
    return Game(sc, data, dice=d, options=opts, record_rolls=record_rolls, keep_events=keep_events)


_SCENARIOS: dict[tuple[str, int], tuple[HouseData, Scenario]] = {}


def _scenario(scenario: str | Path, data: HouseData) -> Scenario:
    """Load a scenario once per data set (batch runs play the same one many times)."""
    key = (str(scenario), id(data))
    hit = _SCENARIOS.get(key)
    if hit is not None and hit[0] is data:
        return hit[1]
    sc = load_scenario(scenario, data)
    if len(_SCENARIOS) > 64:
        _SCENARIOS.clear()
    _SCENARIOS[key] = (data, sc)
    return sc


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
    """The log header that rebuilds ``game``."""
    return Header(
        scenario=str(scenario),
        seed=seed,
        data_version=data_version(),
        options=dict(options or {}),
        dice=tuple(dice),
        cards={k: tuple(v) for k, v in (cards or {}).items()},
        policy=policy,
        turns=turns,
    )


@attrs.frozen
class ReplayResult:
    """The outcome of a replay: ``ok`` if every event matched."""

    ok: bool
    events: int
    mismatch: str | None = None


def replay(path: Path | str, *, data: HouseData | None = None) -> ReplayResult:
    """Rebuild the game of a log, feed its choices back and compare every event.

    Raises :class:`LogError` for an unreadable log or one made with another data version.
    """
    header, logged = read_log(path)
    if header.card_set and not Path(header.card_set).is_dir():
        raise LogError(f"{path}:1: the log was played with the card set {header.card_set}, which is not here")
    if header.data_version != data_version(header.card_set):
        raise LogError(
            f"{path}:1: the log was made with data version {header.data_version}, these data are "
            f"{data_version(header.card_set)}; replaying it would diverge"
        )
    if data is None or header.card_set:
        data = load_data(Path(header.card_set) if header.card_set else None)
    game = new_game(
        header.scenario,
        seed=header.seed,
        data=data,
        dice=header.dice,
        cards={k: list(v) for k, v in header.cards.items()},
        options=header.options,
        turns=header.turns,
    )
    for choice in inputs_of(logged):
        if game.pending is None:
            return ReplayResult(False, len(game.events), "the log has more choices than the game asks for")
        if choice not in game.legal():
            return ReplayResult(
                False, len(game.events), f"choice {choice!r} is not legal at event {len(game.events)}"
            )
        game.apply(choice)
    got = game.events
    for i, (a, b) in enumerate(zip(logged, got, strict=False)):
        if comparable(a) != comparable(b):
            return ReplayResult(
                False, i, f"event {i} differs: logged {a.kind} {a.text!r}, replayed {b.kind} {b.text!r}"
            )
    if len(logged) != len(got):
        return ReplayResult(
            False, min(len(logged), len(got)), f"{len(logged)} events logged, {len(got)} replayed"
        )
    return ReplayResult(True, len(got))


def summary(game: Game) -> str:
    """A short human-readable summary: turns, casualties, victory points, winner."""
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
    lines.append(f"  Victory points: {vp.get('friendly', 0)}; winner: {st.winner or 'undecided'}.")
    return "\n".join(lines)
