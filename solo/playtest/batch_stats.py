"""Batch statistics: per-variant means and paired differences with confidence intervals.

:func:`compare` summarises the records of a batch: per variant the mean of each
measure with a 95% Student-t confidence interval (quantiles from ``scipy.stats``) (a Wilson interval for the
Friendly win rate), and per variant after the first the *paired* difference
from the first (the same seeds), with a t interval of the per-seed differences.
:func:`format_comparison` makes it a plain-text table.

May import: :mod:`solo.rules.state` and below, :mod:`solo.playtest.batch_setup`
and :mod:`~solo.playtest.batch_records`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence

import attrs

from solo.playtest.batch_records import GameRecord, order_columns
from solo.playtest.batch_setup import BatchError
from solo.rules.state import Side

CONFIDENCE = 0.95
"""The level of every interval :func:`compare` reports."""


@attrs.frozen
class Interval:
    """An estimate with a confidence interval (``low``/``high`` NaN when it cannot be computed)."""

    estimate: float
    low: float
    high: float
    n: int
    """The number of games (or of paired seeds) behind it."""

    @property
    def excludes_zero(self) -> bool:
        """True when the whole interval lies on one side of 0 (a difference unlikely to be chance)."""
        return not math.isnan(self.low) and (self.low > 0 or self.high < 0)


_NAN = float("nan")


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` > 0 degrees of freedom (``scipy.stats.t``)."""
    from scipy import stats  # imported when first needed: the window and ``solo run`` never need it

    return float(stats.t.cdf(t, df))


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` > 0 degrees of freedom (``scipy.stats.t``).

    Raises ValueError unless 0 < p < 1 and df > 0.
    """
    if not 0.0 < p < 1.0 or df <= 0:
        raise ValueError(f"t_quantile needs 0 < p < 1 and df > 0, got p={p}, df={df}")
    from scipy import stats

    return float(stats.t.ppf(p, df))


def _order_count(order_id: str) -> Callable[[GameRecord], float]:
    """How many times a game gave ``order_id`` (a column of the comparison)."""
    return lambda r: r.order_count(order_id)


def mean_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> Interval:
    """The mean of ``values`` with a Student-t interval (NaN bounds with fewer than 2 values)."""
    n = len(values)
    if n == 0:
        return Interval(_NAN, _NAN, _NAN, 0)
    m = math.fsum(values) / n
    if n == 1:
        return Interval(m, _NAN, _NAN, 1)
    sd = statistics.stdev(values)
    half = t_quantile(0.5 + confidence / 2.0, n - 1) * sd / math.sqrt(n)
    return Interval(m, m - half, m + half, n)


def wilson_interval(successes: int, n: int, confidence: float = CONFIDENCE) -> Interval:
    """A proportion ``successes / n`` with its Wilson score interval (good near 0 and 1, small ``n``)."""
    if n == 0:
        return Interval(_NAN, _NAN, _NAN, 0)
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2.0)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half), n)


def paired_interval(
    base: Mapping[int, float], other: Mapping[int, float], confidence: float = CONFIDENCE
) -> Interval:
    """Mean of ``other[s] - base[s]`` over the seeds in both, with a t interval of those differences.

    Pairing by seed removes the variation the variants share (the same dice and
    policy for the same seed), so the interval is much narrower than one from
    two independent samples.
    """
    common = sorted(set(base) & set(other))
    return mean_interval([other[s] - base[s] for s in common], confidence)


@attrs.frozen
class MetricRow:
    """One measure of a :class:`Comparison`: per variant, and each variant's paired difference."""

    name: str
    rate: bool
    """A proportion (Wilson intervals, shown in %), else a mean."""
    per_variant: tuple[Interval, ...]
    differences: tuple[Interval, ...]
    """``variants[i+1] - variants[0]`` over common seeds, for each i."""


@attrs.frozen
class Comparison:
    """The summary :func:`compare` makes of a batch."""

    variants: tuple[str, ...]
    games: tuple[int, ...]
    """Games per variant."""
    rows: tuple[MetricRow, ...]
    orders: tuple[MetricRow, ...]
    """Enemy orders given per game, by order id."""
    confidence: float = CONFIDENCE

    def row(self, name: str) -> MetricRow:
        """The row called ``name`` (KeyError if none)."""
        for r in (*self.rows, *self.orders):
            if r.name == name:
                return r
        raise KeyError(name)


METRICS: tuple[tuple[str, Callable[[GameRecord], float], bool], ...] = (
    ("VP", lambda r: r.vp, False),
    ("Friendly win rate", lambda r: 1.0 if r.winner == "friendly" else 0.0, True),
    ("Turns", lambda r: r.turns, False),
    ("Friendly casualties", lambda r: r.casualties(Side.FRIENDLY), False),
    ("Enemy casualties", lambda r: r.casualties(Side.ENEMY), False),
    ("Friendly vehicles lost", lambda r: r.friendly_vehicles_lost, False),
    ("Enemy vehicles lost", lambda r: r.enemy_vehicles_lost, False),
)
"""The measures :func:`compare` reports (vehicle rows only when a vehicle was lost)."""


def compare(
    records: Iterable[GameRecord],
    variants: Sequence[str] | None = None,
    *,
    order_ids: Sequence[str] | None = None,
    confidence: float = CONFIDENCE,
) -> Comparison:
    """Per-variant means with intervals and paired differences from the first variant.

    ``variants`` gives the order (default: by name; the first is the baseline).
    Means get Student-t intervals, the Friendly win rate a Wilson interval; each
    difference ``B - A`` is the mean over seeds played by both of (B's value -
    A's value) with a t interval of those per-seed differences (for the win rate,
    of the 0/1 differences). Raises :class:`BatchError` for a variant with no
    records.
    """
    records = list(records)
    names = tuple(variants) if variants is not None else tuple(sorted({r.variant for r in records}))
    by: dict[str, dict[int, GameRecord]] = {n: {} for n in names}
    for r in records:
        if r.variant in by:
            by[r.variant][r.seed] = r
    empty = [n for n in names if not by[n]]
    if empty:
        raise BatchError(f"no games for variant(s) {', '.join(empty)}")

    def row(name: str, get: Callable[[GameRecord], float], rate: bool) -> MetricRow:
        per = []
        values = {n: {s: float(get(r)) for s, r in by[n].items()} for n in names}
        for n in names:
            vs = [values[n][s] for s in sorted(values[n])]
            per.append(
                wilson_interval(round(sum(vs)), len(vs), confidence)
                if rate
                else mean_interval(vs, confidence)
            )
        diffs = tuple(paired_interval(values[names[0]], values[n], confidence) for n in names[1:])
        return MetricRow(name, rate, tuple(per), diffs)

    rows = [
        row(name, get, rate)
        for name, get, rate in METRICS
        if "vehicles" not in name or any(get(r) for r in records if r.variant in by)
    ]
    ids = tuple(order_ids) if order_ids is not None else order_columns(r for r in records if r.variant in by)
    orders = [row(o, _order_count(o), False) for o in ids]
    return Comparison(names, tuple(len(by[n]) for n in names), tuple(rows), tuple(orders), confidence)


def _num(x: float, rate: bool, *, signed: bool = False) -> str:
    if math.isnan(x):
        return "n/a"
    v = 100 * x if rate else x
    digits = 1 if rate else 2
    if round(v, digits) == 0:
        v = 0.0  # no "-0.00"
    return f"{v:+.{digits}f}" if signed else f"{v:.{digits}f}"


def _cell(iv: Interval, rate: bool, *, signed: bool = False) -> str:
    est = _num(iv.estimate, rate, signed=signed) + ("%" if rate and not signed else " pp" if rate else "")
    if math.isnan(iv.low):
        return est
    mark = " *" if signed and iv.excludes_zero else ""
    return f"{est} [{_num(iv.low, rate, signed=signed)}, {_num(iv.high, rate, signed=signed)}]{mark}"


def format_comparison(comp: Comparison, *, title: str = "") -> str:
    """The comparison as a plain-text table (estimates with [low, high]; ``*``: the difference excludes 0)."""
    base = comp.variants[0]
    heads = [f"{v} ({g} games)" for v, g in zip(comp.variants, comp.games, strict=True)]
    heads += [f"{v} - {base} (paired)" for v in comp.variants[1:]]

    def lines(rows: Sequence[MetricRow], first: str) -> list[list[str]]:
        out = [[first, *heads]]
        for r in rows:
            out.append(
                [
                    r.name,
                    *(_cell(iv, r.rate) for iv in r.per_variant),
                    *(_cell(iv, r.rate, signed=True) for iv in r.differences),
                ]
            )
        return out

    table = lines(comp.rows, "")
    orders = lines(comp.orders, "Enemy orders per game") if comp.orders else []
    widths = [max(len(row[i]) for row in table + orders) for i in range(len(table[0]))]

    def fmt(rows: list[list[str]]) -> list[str]:
        return ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows]

    pct = f"{round(100 * comp.confidence)}%"
    text = [title] if title else []
    text += fmt(table)
    if orders:
        text += ["", *fmt(orders)]
    note = f"Intervals: {pct} (means: Student t; win rate: Wilson; differences: paired t over common seeds)"
    if len(comp.variants) > 1:
        note += "; * the difference excludes 0"
    text += ["", note + "."]
    return "\n".join(text)
