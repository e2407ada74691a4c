"""Every script in tools/ imports the installed package: no sys.path changes, no test modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parent.parent / "tools"
TESTS = Path(__file__).resolve().parent
SCRIPTS = sorted(
    p
    for p in TOOLS.iterdir()
    if p.is_file() and (p.suffix == ".py" or p.read_text(encoding="utf-8").startswith("#!"))
)
"""The scripts of tools/: the ``*.py`` files and the files starting with ``#!``."""
TEST_MODULES = {p.stem for p in TESTS.glob("*.py")}


def _problems(path: Path) -> list[str]:
    """The lines of ``path`` that touch ``sys.path`` or import a module of tests/."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "path"
            and isinstance(node.value, ast.Name)
            and node.value.id == "sys"
        ):
            out.append(f"{path.name}:{node.lineno}: sys.path")
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            if top == "tests" or top in TEST_MODULES:
                out.append(f"{path.name}:{node.lineno}: imports {name}")
    return out


def test_the_tools_are_found():
    """The scan sees the tools (a moved folder would make the next test pass on nothing)."""
    assert {"docs_pictures", "golden", "same_play", "fuzz_logs.py"} <= {p.name for p in SCRIPTS}


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_tool_imports_only_the_installed_package(path):
    """No tool puts the checkout or tests/ on sys.path or imports a test module."""
    assert _problems(path) == []


def test_the_scan_finds_a_test_import(tmp_path):
    """The scan names a tool that puts tests/ on sys.path and imports a test module."""
    bad = tmp_path / "bad"
    bad.write_text('#!/usr/bin/env python3\nimport sys\nsys.path.insert(0, "tests")\nimport conftest\n')
    assert sorted(_problems(bad)) == ["bad:3: sys.path", "bad:4: imports conftest"]
