"""tools/fuzz: seeded mutations of the shipped data give no defect (issue 14 item 3)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import random
from pathlib import Path

_TOOL = Path(__file__).resolve().parent.parent / "tools" / "fuzz"
_loader = importlib.machinery.SourceFileLoader("solo_tools_fuzz", str(_TOOL))
_spec = importlib.util.spec_from_loader("solo_tools_fuzz", _loader)
fuzz = importlib.util.module_from_spec(_spec)
_loader.exec_module(fuzz)

TEXT = "a: 1\nb: {c: 2, d: [3, 4]}\n# note: 5\ne:\n  f: 6\n"


def test_every_shipped_file_is_a_target():
    """Cards, vehicles, maps and scenarios are all mutated."""
    names = [n for n, _p in fuzz.shipped_files()]
    assert "checks.yaml" in names and "vehicles/panzer_ivh.yaml" in names
    assert "town.yaml" in names and "scenarios/first_contact.yaml" in names


def test_a_mutation_is_the_same_for_the_same_seed():
    """Same kind and seed, same text; every kind changes the text."""
    for kind in fuzz.KINDS:
        a = fuzz.mutate(TEXT, kind, random.Random(3))
        b = fuzz.mutate(TEXT, kind, random.Random(3))
        assert a == b
        assert a[0] != TEXT, kind


def test_out_of_range_puts_a_number_no_range_allows():
    """The out-of-range mutation writes |n| >= 1000 in place of a number value, never in a comment."""
    for s in range(20):
        text, what = fuzz.mutate(TEXT, "out_of_range", random.Random(s))
        assert any(h in text for h in fuzz.HUGE), what
        assert "# note: 5" in text


def test_a_seeded_slice_of_100_mutations_has_no_defect():
    """100 cases of seed 14: each is accepted and played, or rejected with a line."""
    results = fuzz.fuzz(100, 14, timeout=30.0)
    defects = [r for r in results if r["outcome"] == "defect"]
    assert defects == [], fuzz.summary(results)
    assert sum(r["outcome"] == "rejected-with-line" for r in results) > 50


def test_the_fuzzer_reads_the_installed_data_not_the_checkout():
    """After a plain ``pip install .`` the checkout has no ``solo._shipped`` data: the fuzzer takes
    the data where solo is installed and never puts the checkout on ``sys.path``."""
    from solo.core.resources import cards_dir, maps_dir

    source = _TOOL.read_text(encoding="utf-8")
    assert "sys.path.insert" not in source and "sys.path.append" not in source
    for _name, path in fuzz.shipped_files():
        assert path.is_relative_to(cards_dir()) or path.is_relative_to(maps_dir())


def test_a_log_mutation_is_the_same_for_the_same_seed():
    """Each kind of log mutation changes the log, the same way for the same seed."""
    logs = fuzz.log_fuzzer()
    text = '{"format": "solo-log", "version": 1, "scenario": "first_contact", "seed": 1}\n' + "".join(
        f'{{"seq": {i}, "kind": "choice", "turn": 1, "impulse": 0, "text": "t", "automatic": false, '
        f'"data": {{"choice": "a", "decision": "d"}}}}\n'
        for i in range(4)
    )
    for kind in logs.KINDS:
        a = logs.mutate(text, kind, random.Random(5))
        assert a == logs.mutate(text, kind, random.Random(5))
        assert a[0] != text.encode("utf-8"), kind


def test_a_seeded_slice_of_100_log_mutations_has_no_defect():
    """100 log cases of seed 14: each replays as a prefix or is reported with a line; no defect."""
    logs = fuzz.log_fuzzer()
    results = logs.fuzz_logs(100, 14, timeout=30.0, time_limit=fuzz.time_limit, hang=fuzz.CaseTimeout)
    assert [r for r in results if r["outcome"] == "defect"] == [], logs.summary(results)
    assert sum(r["outcome"] == "reported-with-line" for r in results) > 60
    assert any(r["outcome"] == "replayed-as-prefix" for r in results)


def test_a_case_is_timed_in_cpu_seconds():
    """A case that loops is stopped (CaseTimeout); time spent waiting (a loaded machine) is not counted."""
    import time

    import pytest

    with pytest.raises(fuzz.CaseTimeout), fuzz.time_limit(0.2):
        while True:
            pass
    with fuzz.time_limit(0.2):
        time.sleep(0.4)
