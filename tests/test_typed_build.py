"""Which build runs (pure Python or compiled by mypyc), as `solo --version` reports it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import solo

SOLO = Path(sys.executable).parent / "solo"


def test_build_follows_the_installed_engine_module():
    """solo.build() says compiled exactly when solo.engine.game is a C extension."""
    spec = importlib.util.find_spec("solo.engine.game")
    assert spec is not None and spec.origin is not None
    compiled = spec.origin.endswith((".so", ".pyd"))
    assert solo.build() == ("compiled (mypyc)" if compiled else "pure Python")


def test_version_names_the_build():
    """`solo --version`: the version, then the build."""
    proc = subprocess.run(
        [str(SOLO), "--version"], capture_output=True, text=True, timeout=120, cwd=Path.home()
    )
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"solo {solo.__version__}, {solo.build()}"


def test_a_source_checkout_is_the_pure_build():
    """The test install (editable, or a plain `pip install .`) runs pure Python: no mypyc extension."""
    assert solo.build() == "pure Python"
