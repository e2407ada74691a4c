"""tools/bench reports the keys issue 10 reads (``turns.<s>.turns_per_s`` ... ``batch.games_per_s``)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path

_TOOL = Path(__file__).resolve().parent.parent / "tools" / "bench"
_loader = importlib.machinery.SourceFileLoader("solo_tools_bench", str(_TOOL))
_spec = importlib.util.spec_from_loader("solo_tools_bench", _loader)
bench = importlib.util.module_from_spec(_spec)
_loader.exec_module(bench)

FULL = {
    "python": "3.11.7",
    "turns": {
        "first_contact": {"turns_per_s": 500.0, "floor_ratio": 9.0},
        "the_churchyard": {"turns_per_s": 90.0, "floor_ratio": 17.0},
    },
    "crew_orders": {"five_crew_orders_us": 66.0, "five_crew_orders_cpu_us": 60.0},
    "startup": {"process_to_first_decision_s": 0.4, "process_cpu_s": 0.35},
    "batch": {"games_per_s": 20.0},
}


def test_a_full_report_misses_no_key() -> None:
    assert bench.missing_keys(FULL) == []


def test_a_benchmark_not_run_is_not_checked() -> None:
    assert bench.missing_keys({"python": "3.11.7", "los": {}}) == []


def test_each_missing_key_is_named_with_its_path() -> None:
    report = {
        **FULL,
        "turns": {**FULL["turns"], "the_churchyard": {"turns_per_s": 90.0}},
        "crew_orders": {"five_crew_orders_us": 66.0},
        "batch": {},
    }
    assert bench.missing_keys(report) == [
        "turns.the_churchyard.floor_ratio",
        "crew_orders.five_crew_orders_cpu_us",
        "batch.games_per_s",
    ]


def test_turns_without_a_scenario_is_missing() -> None:
    assert bench.missing_keys({"turns": {}}) == ["turns.<scenario>"]


def test_crew_orders_reports_wall_and_cpu_time() -> None:
    """Both times of the five crew orders, in µs, each a positive number (no value asserted)."""
    out = bench.bench_crew_orders(quick=True)
    assert set(out) >= {"five_crew_orders_us", "five_crew_orders_cpu_us"}
    assert out["five_crew_orders_us"] > 0
    assert out["five_crew_orders_cpu_us"] > 0
    assert 4.5 < out["cards_per_call"] <= 5  # a new turn each call: 5 cards unless the Commander bails out
    assert bench.missing_keys({"crew_orders": out}) == []
