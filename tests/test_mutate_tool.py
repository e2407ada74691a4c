"""tools/mutate: an equivalent-mutant entry is keyed by function and source line, not line number."""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path

_TOOL = Path(__file__).resolve().parent.parent / "tools" / "mutate"
_loader = importlib.machinery.SourceFileLoader("solo_tools_mutate", str(_TOOL))
_spec = importlib.util.spec_from_loader("solo_tools_mutate", _loader)
mutate = importlib.util.module_from_spec(_spec)
_loader.exec_module(mutate)

SOURCE = """\
LIMIT = 3


def pick(n):
    if n >= LIMIT:  # the threshold
        return n + 1
    return range(1, n + 1)


class Table:
    def read(self, k):
        return k >= 2
"""


def _one(source: str, line_text: str, change: str, nth: int = 1):
    found = [
        m for m in mutate.mutants(source)
        if m.text == line_text and f"{m.before} -> {m.after}" == change and m.nth == nth
    ]  # fmt: skip
    assert len(found) == 1, found
    return found[0]


def _matched(source: str, entries: list) -> list[tuple[int, str]]:
    return [
        (m.line, f"{m.before} -> {m.after}")
        for m in mutate.mutants(source)
        if mutate.equivalent_of("m.py", m, entries)
    ]


def test_an_entry_still_matches_after_lines_are_inserted_above_it():
    m = _one(SOURCE, "if n >= LIMIT:", "n >= LIMIT -> n > LIMIT")
    assert (m.line, m.qualname) == (5, "pick")
    entries = mutate.equivalents(m.entry("m.py", "no test can tell"))
    assert _matched(SOURCE, entries) == [(5, "n >= LIMIT -> n > LIMIT")]
    moved = "import os\n\n" + SOURCE.replace("def pick(n):\n", "def pick(n):\n    n = int(n)\n")
    assert _matched(moved, entries) == [(8, "n >= LIMIT -> n > LIMIT")]
    assert entries[0].reason == "no test can tell"


def test_a_changed_comment_keeps_the_entry_a_changed_line_drops_it():
    m = _one(SOURCE, "if n >= LIMIT:", "n >= LIMIT -> n > LIMIT")
    entries = mutate.equivalents(m.entry("m.py", "why"))
    assert _matched(SOURCE.replace("# the threshold", "# C2 31.7"), entries) == [
        (5, "n >= LIMIT -> n > LIMIT")
    ]
    assert _matched(SOURCE.replace("n >= LIMIT", "n >= LIMIT - 1"), entries) == []


def test_the_second_same_change_on_a_line_is_its_own_entry():
    second = _one(SOURCE, "return range(1, n + 1)", "1 -> 2", nth=2)
    assert second.anchor() == "pick#2: return range(1, n + 1)"
    entries = mutate.equivalents(second.entry("m.py", "why"))
    lines = "\n" + SOURCE
    assert _matched(lines, entries) == [(8, "1 -> 2")]
    first = [m for m in mutate.mutants(lines) if m.line == 8 and m.before == "1" and m.nth == 1]
    assert len(first) == 1 and mutate.equivalent_of("m.py", first[0], entries) is None


def test_methods_are_named_by_class_and_module_lines_by_module():
    assert _one(SOURCE, "return k >= 2", "2 -> 3").qualname == "Table.read"
    assert _one(SOURCE, "LIMIT = 3", "3 -> 4").qualname == "<module>"


def test_an_entry_without_an_anchor_matches_by_line_number_and_a_bad_line_is_skipped(capsys):
    entries = mutate.equivalents(
        "# a comment\nm.py:5: n >= LIMIT -> n > LIMIT  # why\nnot an entry\n", "eq.txt"
    )
    assert capsys.readouterr().err.startswith("eq.txt:3: expected")
    assert len(entries) == 1 and entries[0].anchor == ""
    assert _matched(SOURCE, entries) == [(5, "n >= LIMIT -> n > LIMIT")]
    assert _matched("\n" + SOURCE, entries) == []


def test_every_shipped_entry_names_exactly_one_mutant_of_its_module():
    root = _TOOL.parent.parent
    entries = mutate.equivalents()
    assert entries
    by_path: dict[str, list] = {}
    for e in entries:
        assert e.anchor, e.where
        by_path.setdefault(e.path, []).append(e)
    for path, mine in by_path.items():
        ms = mutate.mutants((root / path).read_text())
        for e in mine:
            hits = [m for m in ms if e.matches(path, m)]
            assert len(hits) == 1, (e.where, [m.line for m in hits])
            assert hits[0].line == e.line, (
                f"{e.where}: the hint says {e.line}, the mutant is on {hits[0].line}"
            )


def test_a_class_attributes_default_runs_with_the_lines_that_read_it():
    """A field default runs at import (under no test): its mutant runs the tests of the lines that
    read the attribute or name the class."""
    source = (
        "class Trace:\n    say: bool = True\n\n\n"
        "def make():\n    return Trace()\n\n\n"
        "def words(t):\n    return t.say\n"
    )
    m = _one(source, "say: bool = True", "True -> False")
    assert m.qualname == "Trace" and m.run_lines == (6, 10)
