"""Setuptools entry: everything is in pyproject.toml, except the optional compiled build.

``SOLO_COMPILE=1 pip install .`` compiles the engine layers listed below with mypyc (C
extensions beside the pure modules); any other install is pure Python. ``solo --version``
says which build runs. Why some modules stay Python: docs/notes/typed.md.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

LAYERS = ("core", "data", "rules", "enemy", "engine", "playtest")
"""The rooms mypyc compiles (every module in them but the ones in KEEP_PYTHON)."""

KEEP_PYTHON: frozenset[str] = frozenset(
    {
        "solo/core/hexes.py",  # Hex subclasses a NamedTuple (a builtin type to mypyc)
        "solo/core/catalog.py",  # the attrs catalogs of solo.data subclass it: it must stay a Python class
        "solo/playtest/invariants.py",  # InvariantError subclasses AssertionError besides SoloError
    }
)
"""Modules left as Python in the compiled build (each reason in docs/notes/typed.md)."""


def compiled_modules() -> list[str]:
    """The source files mypyc compiles, relative to this directory, sorted (``SOLO_COMPILE_ONLY``:
    a comma-separated list of them instead, for trials)."""
    only = os.environ.get("SOLO_COMPILE_ONLY")
    if only:
        return sorted(only.split(","))
    here = Path(__file__).parent
    out = []
    for layer in LAYERS:
        for p in sorted((here / "solo" / layer).rglob("*.py")):
            rel = p.relative_to(here).as_posix()
            if rel not in KEEP_PYTHON:
                out.append(rel)
    return out


def ext_modules() -> list[object]:
    if os.environ.get("SOLO_COMPILE") != "1" or os.environ.get("SOLO_BUILD_REQUIRES") == "1":
        return []  # pure Python; or the backend only asks what to install before building
    from mypyc.build import mypycify

    # The build environment has no dask nor matplotlib (optional or plotting-only imports, typed Any
    # here); CI's own mypy run checks them with everything installed.
    return list(mypycify(["--ignore-missing-imports", *compiled_modules()], opt_level="3", multi_file=True))


setup(ext_modules=ext_modules())
