"""The README and the manual in docs/: short, free of development history, and true to the code."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ISSUE = re.compile(r"issue ?[0-9]+", re.IGNORECASE)


def test_readme_is_a_short_front_door() -> None:
    """README.md is at most 250 lines and gives the two set-up commands and `solo play`."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    assert "python3 -m venv .venv && .venv/bin/pip install . " in text
    assert "\nInstall and test" in text
    assert "solo play" in text


def test_no_issue_numbers_outside_the_changelog() -> None:
    """No user page cites an issue number: README.md and docs/*.md, the changelog excepted."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    cited = {p.name: ISSUE.findall(p.read_text(encoding="utf-8")) for p in pages if p.name != "changelog.md"}
    assert {name: hits for name, hits in cited.items() if hits} == {}


def test_every_manual_page_is_in_the_nav() -> None:
    """Every Markdown page under docs/ is reached from mkdocs.yml's nav (no orphan page)."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = sorted(p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md"))
    assert [p for p in pages if p not in nav] == []


def test_readme_links_lead_to_manual_pages() -> None:
    """Every relative link of README.md names a file that exists."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text)
    assert links, "the README links into the manual"
    assert [link for link in links if not (ROOT / link).exists()] == []


def test_rules_coverage_page_is_fresh_and_names_what_exists() -> None:
    """docs/rules.md's generated table matches the code and names no missing module or test."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "rules_coverage"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr


def test_rules_coverage_check_catches_a_missing_test(tmp_path: Path) -> None:
    """The check names a test that the page cites but the suite does not have."""
    import importlib.machinery
    import importlib.util

    loader = importlib.machinery.SourceFileLoader("rules_coverage", str(ROOT / "tools" / "rules_coverage"))
    spec = importlib.util.spec_from_loader("rules_coverage", loader)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    page = "`test_docs.py::test_no_such_test` and `rules/no_such_module.py` and `solo/none.py`"
    found = mod.problems(page)
    assert any("tests/test_docs.py::test_no_such_test" in p for p in found)
    assert any("rules/no_such_module.py" in p for p in found)
    assert any("solo/none.py" in p for p in found)
    assert mod.problems("`test_docs.py::test_readme_is_a_short_front_door` `rules/los.py`") == []
