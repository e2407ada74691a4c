"""Comparisons that stop when decided: a sequential test on paired seeds (``solo batch --until-decided``).

Two variants play the same seeds in rounds; after each round the paired differences
``B(seed) - A(seed)`` of one measure (the Friendly win, 1 or 0, by default; or a CSV column) go
through a sequential probability ratio test, and the batch stops as soon as it accepts one of

- H0: the mean difference is ``d0`` (no change worth having), or
- H1: the mean difference is ``d1`` (the change a designer cares about),

with error rates ``alpha`` (accepting H1 when H0 holds) and ``beta`` (accepting H0 when H1
holds), or when ``max_games`` are played. The test is the generalized SPRT (GSPRT) that
Stockfish's fishtest runs on paired game results: after each round, the log-likelihood ratio

    LLR = max log L(x | mean d1) - max log L(x | mean d0)

of the paired differences ``x``, each maximum taken over the distributions on the values the
differences can take (for the win, the trinomial -1, 0, +1 of a pair lost, tied or won by B, as
fishtest's trinomial/pentanomial; for a CSV column, which counts things, the values seen and one
more whole unit beyond each end), with a count that was never seen regularized to 0.001 as
fishtest does (the empirical likelihood,
A. B. Owen, *Empirical Likelihood*, 2001; the maximum through its Lagrange multiplier). Wald's
bounds decide: accept H1 when LLR >= log((1 - beta) / alpha), accept H0 when
LLR <= log(beta / (1 - alpha)) (A. Wald, *Sequential Tests of Statistical Hypotheses*, Ann. Math.
Statist. 16 (1945) 117-186; M. Van den Bergh, "A practical introduction to the GSPRT",
fishtest documentation). Near the hypotheses this is about ``n (d1 - d0)(2 m - d0 - d1) / (2 v)``
for ``n`` differences of mean ``m`` and variance ``v``, but it stays right when every difference so
far is the same (a deck change that has not yet changed a single game). The reported interval is
the paired Student-t 95% interval of the mean difference (``scipy.stats``); after an early stop it
is indicative only (a sequential stop biases the estimate a little away from the bound not
crossed).

May import: :mod:`solo.playtest.batch_stats`, :mod:`solo.playtest.batch_records`,
:mod:`solo.playtest.batch_setup`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence

import attrs

from solo.playtest.batch_records import CSV_FIELDS, ORDER_PREFIX, GameRecord
from solo.playtest.batch_setup import BatchError
from solo.playtest.batch_stats import CONFIDENCE, Interval, mean_interval

WIN = "friendly_win"
"""The default measure: 1 for a game the Friendly side won, else 0 (its mean is the win rate)."""
DEFAULT_D1_WIN = 0.05
"""The default ``d1`` for the win rate: 5 percentage points."""
DEFAULT_MAX_GAMES = 20_000
DEFAULT_ROUND = 100
"""Paired seeds per round (200 games with two variants)."""
UNSEEN = 1e-3
"""The count given to a value the differences can take but have not (fishtest's regularization)."""
WIN_VALUES = (-1.0, 0.0, 1.0)
"""The values a paired difference of :data:`WIN` can take: B lost where A won, both the same, B won."""
_NOT_NUMBERS = ("variant", "seed", "winner")

H0 = "H0"
H1 = "H1"
UNDECIDED = "max-games"


def measure_of(name: str, order_ids: Sequence[str] = ()) -> Callable[[GameRecord], float]:
    """The per-game value of the measure ``name``: :data:`WIN`, a numeric CSV column, or ``order_<id>``.

    ``order_ids``: the Enemy order ids an ``order_<id>`` column may name. Raises
    :class:`BatchError` for any other name (the message lists the columns).
    """
    if name == WIN:
        return lambda r: 1.0 if r.winner == "friendly" else 0.0
    if name in CSV_FIELDS and name not in _NOT_NUMBERS:
        return lambda r: float(getattr(r, name))
    if name.startswith(ORDER_PREFIX) and name[len(ORDER_PREFIX) :] in order_ids:
        oid = name[len(ORDER_PREFIX) :]
        return lambda r: float(r.order_count(oid))
    known = [WIN, *(f for f in CSV_FIELDS if f not in _NOT_NUMBERS), f"{ORDER_PREFIX}<order id>"]
    raise BatchError(f"--measure {name!r}: not a measure (expected one of {', '.join(known)})")


@attrs.frozen
class SequentialTest:
    """The generalized SPRT of H0 (mean difference ``d0``) against H1 (``d1``) at ``alpha``/``beta``."""

    d0: float
    d1: float
    alpha: float = 0.05
    beta: float = 0.05
    values: tuple[float, ...] = ()
    """The values a difference can take when they are known (:data:`WIN_VALUES` for the win), sorted;
    empty: whole numbers (a CSV column): the values seen and one more whole unit at each end."""

    def __attrs_post_init__(self) -> None:
        if not (0.0 < self.alpha < 0.5 and 0.0 < self.beta < 0.5):
            raise BatchError(f"--alpha {self.alpha} / --beta {self.beta}: each must be above 0 and below 0.5")
        if not (math.isfinite(self.d0) and math.isfinite(self.d1)) or self.d0 == self.d1:
            raise BatchError(f"--d0 {self.d0} / --d1 {self.d1}: two different numbers are needed")
        if self.values and not all(self.values[0] < d < self.values[-1] for d in (self.d0, self.d1)):
            raise BatchError(
                f"--d0 {self.d0} / --d1 {self.d1}: each must lie between {self.values[0]:g} and "
                f"{self.values[-1]:g}, the least and most a difference can be"
            )

    @property
    def lower(self) -> float:
        """Wald's lower bound log(beta / (1 - alpha)): at or below it, H0 is accepted."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Wald's upper bound log((1 - beta) / alpha): at or above it, H1 is accepted."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, diffs: Sequence[float]) -> float:
        """The log-likelihood ratio of H1 to H0 for the paired differences ``diffs`` (0 for fewer than 2).

        Raises ValueError for a difference outside :attr:`values` when those are fixed.
        """
        if len(diffs) < 2:
            return 0.0
        xs, cs = self._counts(diffs)
        return _fit(xs, cs, self.d1)[0] - _fit(xs, cs, self.d0)[0]

    def sd_at_d1(self, diffs: Sequence[float]) -> float:
        """The standard deviation of one difference under H1 fitted to ``diffs``: the distribution on
        the values closest (most likely) to the games played whose mean is ``d1``. Near the data's own
        spread when the mean is near ``d1``; never 0, even when every difference so far is the same.
        """
        xs, cs = self._counts(diffs)
        probs = _fit(xs, cs, self.d1)[1]
        return math.sqrt(math.fsum(p * (x - self.d1) ** 2 for p, x in zip(probs, xs, strict=True)))

    def fixed_sd(self, diffs: Sequence[float], decision: str | None = None) -> float:
        """The spread a fixed batch is planned with: the standard deviation of ``diffs``; when the
        answer is H0 (a fixed batch must rule ``d1`` out), at least :meth:`sd_at_d1`, so a run of
        identical differences still needs the games that would show a ``d1`` change."""
        sd = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
        if decision == H0:
            sd = max(sd, self.sd_at_d1(diffs))
        return max(sd, 1e-6)

    def _counts(self, diffs: Sequence[float]) -> tuple[list[float], list[float]]:
        """The values a difference can take, sorted, and how often each was seen (:data:`UNSEEN` if never)."""
        counts: dict[float, float] = {}
        for x in diffs:
            counts[float(x)] = counts.get(float(x), 0.0) + 1.0
        if self.values:
            odd = sorted(set(counts) - set(self.values))
            if odd:
                raise ValueError(f"differences {odd} are not among the values {self.values}")
            for v in self.values:
                counts.setdefault(v, UNSEEN)
        else:  # the CSV columns count things: one more whole unit at each end may happen
            lo = math.ceil(min(*counts, self.d0, self.d1)) - 1.0
            hi = math.floor(max(*counts, self.d0, self.d1)) + 1.0
            for v in (lo, hi):
                counts[v] = counts.get(v, 0.0) + UNSEEN
        xs = sorted(counts)
        return xs, [counts[x] for x in xs]

    def decide(self, diffs: Sequence[float]) -> str | None:
        """:data:`H1`, :data:`H0`, or None while the LLR lies between the bounds."""
        llr = self.llr(diffs)
        if llr >= self.upper:
            return H1
        if llr <= self.lower:
            return H0
        return None

    def fixed_pairs(self, sd: float) -> int:
        """The paired seeds a fixed batch needs to tell ``d0`` from ``d1`` with a 95% interval.

        The classical fixed-sample size ``((z(0.975) + z(1 - beta)) sd / |d1 - d0|)^2``: enough seeds
        that the two-sided 95% interval of the mean difference excludes ``d0`` with probability
        ``1 - beta`` when the difference is ``d1``. ``sd``: the standard deviation of one paired
        difference. At least 2.
        """
        from scipy import stats

        z = stats.norm.ppf(0.5 + CONFIDENCE / 2.0) + stats.norm.ppf(1.0 - self.beta)
        return max(2, math.ceil(float(z * sd / abs(self.d1 - self.d0)) ** 2))


def _fit(xs: Sequence[float], cs: Sequence[float], d: float) -> tuple[float, list[float]]:
    """The largest ``sum(c log p)`` over distributions ``p`` on ``xs`` with mean ``d``, and that ``p``
    (``d`` strictly between the least and the largest of ``xs``; ``cs`` > 0 the counts).

    The maximum is ``p_i = (c_i / N) / (1 + lam (x_i - d))`` with ``lam`` the root of
    ``sum c_i (x_i - d) / (1 + lam (x_i - d)) = 0`` (a decreasing function on the interval where
    every ``1 + lam (x_i - d) > 0``), found by ``scipy.optimize.brentq``.
    """
    from scipy import optimize

    z = [x - d for x in xs]
    n = math.fsum(cs)
    lo, hi = -1.0 / max(z), -1.0 / min(z)
    pad = 1e-12 * (hi - lo)

    def slope(lam: float) -> float:
        return math.fsum(c * zi / (1.0 + lam * zi) for c, zi in zip(cs, z, strict=True))

    lam = float(optimize.brentq(slope, lo + pad, hi - pad, xtol=1e-14))
    probs = [c / n / (1.0 + lam * zi) for c, zi in zip(cs, z, strict=True)]
    return math.fsum(c * math.log(p) for c, p in zip(cs, probs, strict=True)), probs


@attrs.frozen
class Verdict:
    """How a sequential comparison ended."""

    decision: str
    """:data:`H0`, :data:`H1` or :data:`UNDECIDED` (``max_games`` reached, or no seeds left)."""
    pairs: int
    """Paired seeds played (each is one game per variant)."""
    games: int
    llr: float
    test: SequentialTest
    interval: Interval
    """The mean paired difference with its 95% Student-t interval."""
    fixed_games: int
    """The games a fixed batch with a 95% interval needs for the same answer
    (:meth:`SequentialTest.fixed_pairs` at :meth:`SequentialTest.fixed_sd`, times the variants)."""

    def text(self, measure: str) -> str:
        """Plain words: games played, the decision, the LLR and bounds, the interval, the fixed batch.

        The win rate (:data:`WIN`) is shown in percentage points, another measure in its own units.
        """
        t = self.test
        up = t.d1 > t.d0
        scale, unit = (100.0, " pp") if measure == WIN else (1.0, "")

        def num(x: float) -> str:
            return f"{scale * x:+.4g}{unit}" if not math.isnan(x) else "n/a"

        said = {
            H1: f"H1 accepted: B - A is about {num(t.d1)} or {'more' if up else 'less'}",
            H0: f"H0 accepted: B - A is about {num(t.d0)} or {'less' if up else 'more'}",
            UNDECIDED: "no decision: the maximum of games was reached",
        }[self.decision]
        iv = self.interval
        return (
            f"Sequential test on {measure} (B - A, paired seeds): {said}.\n"
            f"Games played: {self.games} ({self.pairs} paired seeds); LLR {self.llr:.3f} "
            f"(bounds {t.lower:.3f}, {t.upper:.3f}; alpha {t.alpha:g}, beta {t.beta:g}; "
            f"H0: {num(t.d0)}, H1: {num(t.d1)}).\n"
            f"Difference: {num(iv.estimate)} [{num(iv.low)}, {num(iv.high)}] (95% paired t interval).\n"
            f"A fixed batch with a 95% interval would need about {self.fixed_games} games."
        )


def until_decided(
    test: SequentialTest,
    play: Callable[[Sequence[int]], Sequence[float]],
    seeds: Sequence[int],
    *,
    variants: int = 2,
    round_pairs: int = DEFAULT_ROUND,
    max_games: int = DEFAULT_MAX_GAMES,
) -> Verdict:
    """Play ``seeds`` in rounds of ``round_pairs`` through ``play`` until ``test`` decides.

    ``play(seeds)`` plays those seeds under every variant and returns one paired difference per
    seed, in order. The test is asked after each round; the batch stops at a decision, after
    ``max_games`` games (``variants`` games per seed; the last round is cut to fit), or when the
    seeds run out. Raises :class:`BatchError` when ``max_games`` allows fewer than 2 seeds.
    """
    cap = min(len(seeds), max_games // variants)
    if cap < 2:
        raise BatchError(f"--max-games {max_games}: at least {2 * variants} games are needed")
    diffs: list[float] = []
    decision: str | None = None
    while len(diffs) < cap and decision is None:
        block = seeds[len(diffs) : min(cap, len(diffs) + max(1, round_pairs))]
        got = list(play(block))
        if len(got) != len(block):
            raise RuntimeError(f"play returned {len(got)} differences for {len(block)} seeds")
        diffs.extend(got)
        decision = test.decide(diffs)
    return Verdict(
        decision=decision or UNDECIDED,
        pairs=len(diffs),
        games=len(diffs) * variants,
        llr=test.llr(diffs),
        test=test,
        interval=mean_interval(diffs),
        fixed_games=test.fixed_pairs(test.fixed_sd(diffs, decision)) * variants,
    )
