"""`solo batch`: common random numbers, identical CSVs (twice, any jobs, Dask), the statistics, bad input."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from solo.cli.main import main
from solo.core.resources import cards_dir
from solo.playtest import batch, batch_plots, batch_records, batch_setup, batch_stats
from solo.playtest.play import new_game
from solo.playtest.policies import make_policy

SCENARIO = "first_contact"
SOLO = Path(sys.executable).parent / "solo"
TURNS = 2


def _rf_to_af_deck(where: Path) -> Path:
    """A variant directory whose Enemy deck reads Aimed Fire wherever the shipped one reads Rapid Fire."""
    where.mkdir()
    text = (cards_dir() / "enemy_orders.yaml").read_text(encoding="utf-8")
    body = text.split("\ncards:", 1)
    (where / "enemy_orders.yaml").write_text(
        body[0] + "\ncards:" + re.sub(r"\bRF\b", "AF", body[1]), encoding="utf-8"
    )
    return where


@pytest.fixture(scope="module")
def deck(tmp_path_factory) -> Path:
    return _rf_to_af_deck(tmp_path_factory.mktemp("variant") / "no_rapid_fire")


@pytest.fixture(scope="module")
def spec(deck) -> batch_setup.BatchSpec:
    return batch_setup.prepare(
        SCENARIO, [batch_setup.Variant("A"), batch_setup.Variant("B", deck)], policy="simple", turns=TURNS
    )


def _cli(tmp: Path, *extra: str, out: str = "r.csv", variants=("A=house",)) -> list[str]:
    args = ["batch", SCENARIO, "--seeds", "1-4", "--turns", str(TURNS), "--quiet", "--out", str(tmp / out)]
    for v in variants:
        args += ["--variant", v]
    return args + list(extra)


def test_parse_seeds_reads_ranges_and_lists():
    """Seeds: a range, a single seed and a list of both, in the order given."""
    assert batch_setup.parse_seeds("1-3") == (1, 2, 3)
    assert batch_setup.parse_seeds("7") == (7,)
    assert batch_setup.parse_seeds("10-11,3,5-6") == (10, 11, 3, 5, 6)


@pytest.mark.parametrize("text", ["10-1", "abc", "", "1,,2", "1-3,2", "-5", "1-"])
def test_parse_seeds_rejects_bad_ranges(text):
    """A backwards range, words, empty parts, a repeated or negative seed: BatchError."""
    with pytest.raises(batch_setup.BatchError, match="--seeds"):
        batch_setup.parse_seeds(text)


def test_variant_house_names_mean_the_shipped_cards():
    """`house` and `cards/house` are the shipped cards; anything else is a directory."""
    assert batch_setup.Variant.parse("A=house").cards is None
    assert batch_setup.Variant.parse("A=cards/house/").cards is None
    assert batch_setup.Variant.parse("B=my_deck/") == batch_setup.Variant("B", Path("my_deck"))


def test_a_game_is_the_game_solo_run_plays_and_counts_every_enemy_order(spec):
    """A batch game equals new_game(seed) played by the same policy; its order counts equal the events'."""
    a = spec.variant("A")
    rec = batch.play_game(a, 3, "simple")
    g = new_game(SCENARIO, seed=3, data=a.data, turns=TURNS)
    g.play(make_policy("simple", seed=3))
    counts: dict[str, int] = {}
    for ev in g.events:
        if ev.kind in ("enemy_order", "crew_order"):
            counts[ev.data["order"]] = counts.get(ev.data["order"], 0) + 1
    assert rec == batch_records.record_of(g, "A", 3, counts)
    assert sum(n for _, n in rec.orders) > 0


def test_a_variant_directory_replaces_the_shipped_deck(spec):
    """The variant's deck is played: no Rapid Fire from cards, more Aimed Fire than the shipped deck."""
    res = batch.run_batch(spec, range(1, 7), jobs=1)
    total = {v: {o: 0 for o in ("rapid_fire", "aimed_fire")} for v in ("A", "B")}
    for r in res.records:
        for o in total[r.variant]:
            total[r.variant][o] += r.order_count(o)
    assert total["B"]["rapid_fire"] < total["A"]["rapid_fire"]
    assert total["B"]["aimed_fire"] > total["A"]["aimed_fire"]


def test_one_process_and_two_give_the_same_csv(spec):
    """jobs=1 (in-process) and jobs=2 (a process pool) give the same CSV text."""
    one = batch.run_batch(spec, range(1, 5), jobs=1)
    two = batch.run_batch(spec, range(1, 5), jobs=2)
    assert two.workers == 2
    assert batch_records.csv_text(one.records) == batch_records.csv_text(two.records)
    assert [(r.variant, r.seed) for r in two.records] == [(v, s) for v in "AB" for s in range(1, 5)]
    shipped_order = [o.id for o in spec.variant("A").data.orders]
    assert list(two.order_ids) == [o for o in shipped_order if o in two.order_ids]


def test_the_same_batch_twice_writes_the_same_csv_bytes(tmp_path, deck):
    """`solo batch` run twice (separate processes, different hash seeds): byte-identical CSVs."""
    for n, hash_seed in (("1", "1"), ("2", "2")):
        proc = subprocess.run(
            [str(SOLO), *_cli(tmp_path, out=f"{n}.csv", variants=("A=house", f"B={deck}"))],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        assert proc.returncode == 0, proc.stderr
        assert "B - A (paired)" in proc.stdout
    first = (tmp_path / "1.csv").read_bytes()
    assert first == (tmp_path / "2.csv").read_bytes()
    assert first.startswith(b"variant,seed,winner,vp,turns,friendly_killed,")
    assert len(first.splitlines()) == 1 + 8
    assert sorted(p.name for p in tmp_path.iterdir()) == ["1.csv", "2.csv"]  # no temporary files left


def test_the_cli_prints_the_comparison_table(tmp_path, capsys):
    """`solo batch` prints per-variant intervals and the paired difference; the CSV has one row a game."""
    assert main(_cli(tmp_path, variants=("A=house", "B=cards/house"))) == 0
    out = capsys.readouterr().out
    assert "B - A (paired)" in out
    assert "Friendly win rate" in out
    assert f"Wrote {tmp_path / 'r.csv'} (8 games)." in out
    assert len(batch_records.read_csv(tmp_path / "r.csv")) == 8


def test_a_dask_cluster_gives_the_same_csv_as_a_local_run(spec):
    """--executor dask on a LocalCluster (loopback) gives the local run's CSV."""
    distributed = pytest.importorskip("distributed")
    local = batch.run_batch(spec, range(1, 4), jobs=1)
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        remote = batch.run_batch(spec, range(1, 4), executor="dask", scheduler=cluster.scheduler_address)
    assert remote.workers == 2
    assert batch_records.csv_text(remote.records) == batch_records.csv_text(local.records)


def test_dask_not_installed_is_a_clear_error(tmp_path, monkeypatch, capsys):
    """--executor dask without the extra: exit 2 naming `pip install 'solo[dask]'`, nothing written."""
    monkeypatch.setitem(sys.modules, "distributed", None)
    args = _cli(tmp_path, "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9")
    assert main(args) == 2
    assert "pip install 'solo[dask]'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


HAND_MADE = """\
variant,seed,winner,vp,turns,friendly_killed,friendly_incapacitated,friendly_captured,friendly_routed_off,\
enemy_killed,enemy_incapacitated,enemy_captured,enemy_routed_off,friendly_vehicles_lost,enemy_vehicles_lost,order_sneak
A,1,enemy,1,6,0,0,0,0,1,0,0,0,0,0,3
A,2,enemy,2,6,1,0,0,0,0,0,0,0,0,0,2
A,3,friendly,3,6,0,0,0,0,2,0,0,0,0,0,4
A,4,enemy,4,6,0,0,0,0,1,0,0,0,0,0,1
B,1,friendly,1,6,0,0,0,0,1,0,0,0,0,0,3
B,2,enemy,4,6,1,0,0,0,0,0,0,0,0,0,5
B,3,friendly,3,6,0,0,0,0,2,0,0,0,0,0,4
B,4,friendly,6,6,0,0,0,0,1,0,0,0,0,0,1
B,5,friendly,40,6,0,0,0,0,9,0,0,0,0,0,0
"""


def test_the_paired_interval_of_a_hand_made_table(tmp_path):
    """B - A over seeds 1-4 (B's seed 5 unpaired): differences 0,2,0,2 → 1 ± t(0.975, 3)·sd/√4."""
    p = tmp_path / "hand.csv"
    p.write_text(HAND_MADE, encoding="utf-8")
    comp = batch_stats.compare(batch_records.read_csv(p), ["A", "B"])
    diff = comp.row("VP").differences[0]
    sd = math.sqrt(4 / 3)  # deviations -1, 1, -1, 1 over n - 1 = 3
    half = 3.182446305284263 * sd / 2.0
    assert diff.n == 4
    assert diff.estimate == pytest.approx(1.0)
    assert (diff.low, diff.high) == (pytest.approx(1.0 - half, abs=1e-9), pytest.approx(1.0 + half, abs=1e-9))
    assert comp.row("VP").per_variant[1].n == 5
    win = comp.row("Friendly win rate").differences[0]  # 0/1 differences 1,0,0,1
    assert win.estimate == pytest.approx(0.5)
    assert comp.row("sneak").differences[0].estimate == pytest.approx(0.75)


def test_student_t_quantiles_match_the_printed_table():
    """t(0.975) for 1, 2, 5, 30 and 1000 degrees of freedom, to 4 decimals."""
    for df, want in ((1, 12.7062), (2, 4.3027), (5, 2.5706), (30, 2.0423), (1000, 1.9623)):
        assert batch_stats.t_quantile(0.975, df) == pytest.approx(want, abs=5e-5)


def test_wilson_interval_of_a_proportion():
    """Wilson 95%: 10 of 20 → [0.2993, 0.7007]; 0 of 20 → [0, 0.1611] (never below 0)."""
    half = batch_stats.wilson_interval(10, 20)
    assert (half.low, half.high) == (pytest.approx(0.2993, abs=1e-4), pytest.approx(0.7007, abs=1e-4))
    none = batch_stats.wilson_interval(0, 20)
    assert none.low == 0.0
    assert none.high == pytest.approx(0.1611, abs=1e-4)
    assert math.isnan(batch_stats.mean_interval([3.0]).low)


def test_plots_are_written(tmp_path, spec):
    """--plots writes vp.png and enemy_orders.png (PNG files), creating the directory."""
    res = batch.run_batch(spec, range(1, 3), jobs=1)
    out = batch_plots.write_plots(tmp_path / "plots", res.records, res.variants)
    assert [p.name for p in out] == ["vp.png", "enemy_orders.png"]
    for p in out:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == ["enemy_orders.png", "vp.png"]


def _broken_deck(tmp: Path) -> str:
    d = tmp / "broken"
    d.mkdir()
    text = (cards_dir() / "enemy_orders.yaml").read_text(encoding="utf-8")
    (d / "enemy_orders.yaml").write_text(
        text.replace("initiative: 43", "initiative: 101", 1), encoding="utf-8"
    )
    return f"B={d}"


def _no_card_file(tmp: Path) -> str:
    d = tmp / "empty"
    d.mkdir()
    (d / "notes.txt").write_text("nothing here\n")
    return f"B={d}"


BAD = {
    "backwards seeds": (lambda t: ["--seeds", "10-1"], "runs backwards"),
    "seeds not numbers": (lambda t: ["--seeds", "abc"], "not a seed"),
    "variant missing": (lambda t: ["--variant", f"B={t / 'nowhere'}"], "is not a directory"),
    "variant without card file": (lambda t: ["--variant", _no_card_file(t)], "holds no card file"),
    "variant with a broken file": (lambda t: ["--variant", _broken_deck(t)], "enemy_orders.yaml:"),
    "unknown scenario": (lambda t: ["--variant", "B=house"], "unknown scenario"),
    "out is a directory": (lambda t: ["--variant", "B=house"], "is a directory"),
    "policy not for batches": (lambda t: ["--policy", "scripted"], "plays tactical, simple or random"),
    "bad scheduler address": (
        lambda t: ["--executor", "dask", "--scheduler", "nonsense::"],
        "not a Dask scheduler address",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_exits_2_and_writes_nothing(tmp_path, capsys, case):
    """Each bad input: exit 2, one clear message on stderr, no CSV and no plots written."""
    make, message = BAD[case]
    extra = make(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    args = _cli(tmp_path, *extra, "--plots", str(tmp_path / "plots"))
    if case == "unknown scenario":
        args[1] = "no_such_scenario"
    if case == "out is a directory":
        (tmp_path / "r.csv").mkdir()
        before = sorted(p.name for p in tmp_path.iterdir())
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before
