"""Comparisons that stop when decided: the sequential test and ``solo batch --until-decided``."""

from __future__ import annotations

import math
import random
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from solo.cli import main
from solo.core.resources import cards_dir
from solo.playtest import batch_sequential as bs
from solo.playtest.batch_records import GameRecord
from solo.playtest.batch_setup import BatchError

SOLO = Path(sys.executable).parent / "solo"


def synthetic(mean: float, *, offset: int = 0):
    """A paired measure with a known mean difference: per seed, B - A is +1, 0 or -1.

    P(+1) = 0.2 + mean/2 and P(-1) = 0.2 - mean/2 (so the mean is ``mean`` and the standard
    deviation about 0.63), drawn from ``random.Random(seed + offset)``: the same seed, the same
    difference, as with the game's seeded dice.
    """

    def play(seeds: Sequence[int]) -> list[float]:
        out = []
        for s in seeds:
            u = random.Random(s + offset).random()
            out.append(1.0 if u < 0.2 + mean / 2 else -1.0 if u < 0.4 else 0.0)
        return out

    return play


SD = math.sqrt(0.4)  # of the synthetic differences (mean near 0)
SEEDS = tuple(range(1, 100_001))


WIN = bs.WIN_VALUES


def test_wald_bounds():
    """Wald's bounds at 5 %/5 % are -log 19 and +log 19."""
    t = bs.SequentialTest(0.0, 0.1)
    assert t.upper == pytest.approx(math.log(19)) and t.lower == pytest.approx(-math.log(19))
    assert t.llr([1.0]) == 0.0


def test_llr_of_ties_is_the_trinomial_likelihood():
    """n tied pairs, H0 +0 against H1 +5 points: LLR = n log 0.95 (under H1 at best 95% of pairs tie),
    so H0 is accepted at the 58th tie (58 log 0.95 = -2.975 <= -2.944), not at the 57th."""
    t = bs.SequentialTest(0.0, 0.05, values=WIN)
    assert t.llr([0.0] * 50) == pytest.approx(50 * math.log(0.95), rel=1e-2)  # less the 0.001 counts
    assert t.decide([0.0] * 57) is None
    assert t.decide([0.0] * 58) == bs.H0
    # A fixed batch must still rule out +5 points: H1 fitted to the ties has p(+1) 0.05, p(0) 0.95.
    assert t.sd_at_d1([0.0] * 58) == pytest.approx(math.sqrt(0.05 * 0.95), rel=1e-2)
    assert t.fixed_pairs(t.fixed_sd([0.0] * 58, bs.H0)) == 247  # ((1.96 + 1.645) 0.218 / 0.05)^2


def test_llr_of_ties_in_a_column_counts_one_more_unit_each_way():
    """A CSV column (whole numbers), H0 +0 against H1 +0.2: n ties give about n log 0.8 (under H1 at
    best 80% of seeds tie and 20% differ by +1), so H0 is accepted at the 14th tie, not the 13th."""
    t = bs.SequentialTest(0.0, 0.2)
    assert t.llr([0.0] * 13) == pytest.approx(13 * math.log(0.8), rel=1e-2)
    assert t.decide([0.0] * 13) is None
    assert t.decide([0.0] * 14) == bs.H0
    assert t.fixed_sd([0.0] * 14, bs.H0) == pytest.approx(0.4, rel=1e-2)  # sqrt(0.2 * 0.8)


def test_llr_near_the_hypotheses_is_the_normal_approximation():
    """Many differences: the LLR is close to n(d1-d0)(2m-d0-d1)/(2v) (m the mean, v the variance)."""
    diffs = [1.0] * 230 + [-1.0] * 170 + [0.0] * 600  # n 1000, mean 0.06, variance 0.3964
    normal = 1000 * 0.1 * (0.12 - 0.1) / (2 * 0.3964)
    for values in (WIN, ()):
        assert bs.SequentialTest(0.0, 0.1, values=values).llr(diffs) == pytest.approx(normal, rel=0.05)
    with pytest.raises(ValueError, match="not among"):
        bs.SequentialTest(0.0, 0.1, values=WIN).llr([0.0, 2.0])


def test_h0_accepted_when_there_is_no_difference():
    """A true difference of 0 against H1 = +0.1: H0 accepted, well before the cap."""
    v = bs.until_decided(bs.SequentialTest(0.0, 0.1, values=WIN), synthetic(0.0), SEEDS, round_pairs=20)
    assert v.decision == bs.H0
    assert v.llr <= v.test.lower and v.games < 20_000
    assert v.interval.low < 0.0 < v.interval.high


def test_h1_accepted_when_the_difference_is_d1():
    """A true difference of +0.1 = d1: H1 accepted, the interval above 0."""
    v = bs.until_decided(bs.SequentialTest(0.0, 0.1, values=WIN), synthetic(0.1), SEEDS, round_pairs=20)
    assert v.decision == bs.H1
    assert v.llr >= v.test.upper and v.interval.estimate > 0.0


def test_max_games_stops_an_undecided_comparison():
    """A true difference halfway between d0 and d1 with a 300-game cap: no decision, 300 games."""
    v = bs.until_decided(bs.SequentialTest(0.0, 0.1), synthetic(0.05), SEEDS, round_pairs=40, max_games=300)
    assert v.decision == bs.UNDECIDED
    assert v.games == 300 and v.pairs == 150  # the last round cut to fit
    assert v.test.lower < v.llr < v.test.upper


def test_decides_in_at_most_half_the_games_of_a_fixed_95_interval():
    """A clear difference (+0.2, d1 = +0.1): over 20 independent comparisons, H1 every time, in at most
    half the games a fixed batch with a 95% interval and 95% power needs (at the true spread)."""
    test = bs.SequentialTest(0.0, 0.1, values=WIN)
    fixed = 2 * test.fixed_pairs(SD)
    assert fixed == 2 * math.ceil(((1.959964 + 1.644854) * SD / 0.1) ** 2)  # 1040 games
    runs = [
        bs.until_decided(test, synthetic(0.2, offset=1_000_000 * k), SEEDS, round_pairs=10) for k in range(20)
    ]
    assert all(v.decision == bs.H1 for v in runs)
    mean_games = sum(v.games for v in runs) / len(runs)
    assert mean_games <= fixed / 2, (mean_games, fixed)
    assert max(v.games for v in runs) <= fixed


def test_bad_test_settings_are_refused():
    """alpha/beta outside (0, 0.5), d0 == d1, or a cap below 2 seeds: BatchError."""
    for kw in ({"alpha": 0.0}, {"beta": 0.6}):
        with pytest.raises(BatchError, match="--alpha"):
            bs.SequentialTest(0.0, 0.1, **kw)
    with pytest.raises(BatchError, match="--d0"):
        bs.SequentialTest(0.1, 0.1)
    with pytest.raises(BatchError, match="between -1 and 1"):
        bs.SequentialTest(0.0, 1.0, values=WIN)
    with pytest.raises(BatchError, match="--max-games"):
        bs.until_decided(bs.SequentialTest(0.0, 0.1), synthetic(0.0), SEEDS, max_games=3)


def test_measures_are_the_win_or_a_csv_column():
    """friendly_win is 1 for a Friendly win; vp and order_<id> read the record; a bad name: BatchError."""
    r = GameRecord("A", 1, "friendly", 7, 6, orders=(("sneak", 3),))
    assert bs.measure_of("friendly_win")(r) == 1.0
    assert bs.measure_of("vp")(r) == 7.0
    assert bs.measure_of("order_sneak", ["sneak"])(r) == 3.0
    for bad in ("winner", "order_nothing", "speed"):
        with pytest.raises(BatchError, match="--measure"):
            bs.measure_of(bad, ["sneak"])


def _deck_b(where: Path) -> Path:
    """Card e01 reads Hide in every row (the bench's one-card change)."""
    where.mkdir()
    text = (cards_dir() / "enemy_orders.yaml").read_text(encoding="utf-8")
    i, j = text.index("  - id: e01"), text.index("  - id: e02")
    card = re.sub(r"^(\s+(?:aggressive|bold|normal|cautious|shaken):\s+).*$", r"\1HI", text[i:j], flags=re.M)
    (where / "enemy_orders.yaml").write_text(text[:i] + card + text[j:], encoding="utf-8")
    return where


TWO = ["--until-decided", "--variant", "A=house", "--variant", "B=house"]


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--until-decided"], "two variants"),
        ([*TWO, "--measure", "speed"], "--measure"),
        ([*TWO, "--measure", "vp"], "--d1"),
        (["--d0", "0.1"], "only with --until-decided"),
    ],
)
def test_until_decided_bad_input_exits_2(tmp_path, capsys, extra, words):
    """One variant, an unknown measure, no --d1 for a column, or a test option alone: exit 2, no CSV."""
    out = tmp_path / "r.csv"
    assert main(["batch", "first_contact", "--turns", "1", "--quiet", "--out", str(out), *extra]) == 2
    assert words in capsys.readouterr().err
    assert not out.exists()


def test_until_decided_writes_the_csv_a_fixed_batch_writes(tmp_path):
    """``--until-decided`` on two-turn games (no winner yet: every difference 0) with a cap of 6 games
    stops undecided after 3 seeds, prints games, decision and interval, and writes the CSV a fixed
    batch of those seeds writes, byte for byte."""
    deck = _deck_b(tmp_path / "deck_b")
    common = ["batch", "first_contact", "--turns", "2", "--quiet", "--policy", "simple", "--jobs", "1"]
    common += ["--variant", "A=house", "--variant", f"B={deck}"]
    seq = subprocess.run(
        [str(SOLO), *common, "--until-decided", "--round", "2", "--max-games", "6",
         "--out", str(tmp_path / "seq.csv")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert seq.returncode == 0, seq.stderr
    assert "no decision: the maximum of games was reached" in seq.stdout
    assert "Games played: 6 (3 paired seeds)" in seq.stdout
    assert "95% paired t interval" in seq.stdout and "fixed batch" in seq.stdout
    fixed = subprocess.run(
        [str(SOLO), *common, "--seeds", "1-3", "--out", str(tmp_path / "fixed.csv")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert fixed.returncode == 0, fixed.stderr
    assert (tmp_path / "seq.csv").read_bytes() == (tmp_path / "fixed.csv").read_bytes()


def test_the_bench_deck_b_changes_card_e01_only(tmp_path):
    """tools/bench's compare deck B: card e01 reads Hide in every Cover and Open row; every other card
    (and e01's initiative, rout and berserk strings) is the house card."""
    import importlib.machinery
    import importlib.util

    from solo.data.house import load_data

    tool = Path(__file__).resolve().parent.parent / "tools" / "bench"
    loader = importlib.machinery.SourceFileLoader("solo_tools_bench_compare", str(tool))
    spec = importlib.util.spec_from_loader("solo_tools_bench_compare", loader)
    bench = importlib.util.module_from_spec(spec)
    loader.exec_module(bench)
    (tmp_path / "b").mkdir()
    house, b = load_data().enemy_deck.cards, load_data(bench.compare_deck_b(tmp_path / "b")).enemy_deck.cards
    changed = [x.id for x, y in zip(house, b, strict=True) if x != y]
    assert changed == ["e01"]
    e01 = b[0]
    states = ("aggressive", "bold", "normal", "cautious", "shaken")
    rows = [getattr(t, m) for t in (e01.cover, e01.open) for m in states]
    assert {str(r) for r in rows} == {str(house[0].cover.bold)}  # HI
    assert (e01.initiative, e01.rout, e01.berserk) == (house[0].initiative, house[0].rout, house[0].berserk)
