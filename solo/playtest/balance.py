"""Scenario balance by measurement (issue 13 item 2): a batch per shipped scenario, summarised.

:func:`balance_row` turns the records of one scenario's batch into a :class:`BalanceRow`: the
Friendly win rate with a 95 % Wilson interval, the mean VP, the mean casualties per side and the
share of *empty* games (no casualty on either side). :func:`format_balance` prints the rows as a
Markdown table (the README's). ``tools/balance`` plays the batches.

May import: :mod:`solo.rules.state` and below, :mod:`solo.playtest.batch_records` and
:mod:`~solo.playtest.batch_stats`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import attrs

from solo.playtest.batch_records import GameRecord
from solo.playtest.batch_stats import Interval, wilson_interval
from solo.rules.state import Side

BAND = (0.25, 0.75)
"""The Friendly win rates a shipped scenario should land between (issue 13)."""
SKIPPED = ("example_of_play",)
"""Shipped scenarios not balanced: the worked example of C2 rule 32 is one scripted turn."""


@attrs.frozen
class BalanceRow:
    """One scenario under one policy: ``games`` games summarised (rates are 0-1)."""

    scenario: str
    policy: str
    games: int
    wins: Interval
    """Friendly wins (the winner ``friendly``), Wilson 95 %."""
    mean_vp: float
    friendly_casualties: float
    """Mean per game: killed + incapacitated + captured + routed off."""
    enemy_casualties: float
    empty: float
    """Share of games with no casualty on either side."""
    vp_counts: tuple[tuple[int, int], ...] = ()
    """How many games ended at each VP total, lowest first: ``((vp, games), ...)``."""
    bazooka_shots: float = 0.0
    """Mean Friendly Bazooka rockets fired per game (C2 32.1)."""

    def share_at_least(self, vp: int) -> float:
        """The share of games that reached ``vp`` or more (a win if the marginal band started there)."""
        return sum(n for v, n in self.vp_counts if v >= vp) / self.games

    @property
    def in_band(self) -> bool:
        """Whether the win rate lies within :data:`BAND`."""
        return BAND[0] <= self.wins.estimate <= BAND[1]


def balance_row(scenario: str, policy: str, records: Sequence[GameRecord]) -> BalanceRow:
    """Summarise ``records`` (one scenario, one policy). Raises ValueError if there are none."""
    n = len(records)
    if n == 0:
        raise ValueError(f"{scenario}: no games to summarise")
    wins = sum(1 for r in records if r.winner == "friendly")
    fc = [r.casualties(Side.FRIENDLY) for r in records]
    ec = [r.casualties(Side.ENEMY) for r in records]
    empty = sum(1 for f, e in zip(fc, ec, strict=True) if f == 0 and e == 0)
    return BalanceRow(
        scenario=scenario,
        policy=policy,
        games=n,
        wins=wilson_interval(wins, n),
        mean_vp=math.fsum(r.vp for r in records) / n,
        friendly_casualties=sum(fc) / n,
        enemy_casualties=sum(ec) / n,
        empty=empty / n,
        vp_counts=tuple(sorted(Counter(r.vp for r in records).items())),
        bazooka_shots=sum(r.bazooka_shots for r in records) / n,
    )


def format_balance(rows: Sequence[BalanceRow]) -> str:
    """A Markdown table of ``rows``: win % [95 % interval], mean VP, casualties, empty share and
    Friendly Bazooka shots a game (C2 32.1)."""
    head = (
        "| Scenario | Policy | Games | Friendly wins [95 %] | Mean VP | Friendly casualties "
        "| Enemy casualties | Empty games | Bazooka shots |\n|---|---|---|---|---|---|---|---|---|"
    )
    lines = [head]
    for r in rows:
        flag = "" if r.in_band else " ⚠"
        lines.append(
            f"| `{r.scenario}` | {r.policy} | {r.games} | {100 * r.wins.estimate:.0f} % "
            f"[{100 * r.wins.low:.0f}, {100 * r.wins.high:.0f}]{flag} | {r.mean_vp:+.2f} "
            f"| {r.friendly_casualties:.2f} | {r.enemy_casualties:.2f} | {100 * r.empty:.0f} % "
            f"| {r.bazooka_shots:.2f} |"
        )
    return "\n".join(lines)
