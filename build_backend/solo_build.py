"""The build backend of ``solo``: setuptools, plus mypy when ``SOLO_COMPILE=1`` asks for the
compiled build (``setup.py`` then runs mypyc over the engine layers). A plain ``pip install .``
needs nothing more than setuptools and builds pure Python."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from setuptools import build_meta as _orig
from setuptools.build_meta import *  # noqa: F403  (the PEP 517 hooks this backend does not change)

_COMPILE_REQUIRES = ["mypy>=1.11", "types-PyYAML>=6.0", "attrs>=23.1", "cattrs>=23.2", "PyYAML>=6.0"]
"""What mypyc needs to type-check the engine while it compiles it."""


def _compiled() -> bool:
    return os.environ.get("SOLO_COMPILE") == "1"


def _requires(hook: Callable[[Any], list[str]], config_settings: Any) -> list[str]:
    # setuptools runs setup.py to ask for its requirements, before mypy is installed: tell it so
    os.environ["SOLO_BUILD_REQUIRES"] = "1"
    try:
        base = hook(config_settings)
    finally:
        del os.environ["SOLO_BUILD_REQUIRES"]
    return [*base, *(_COMPILE_REQUIRES if _compiled() else [])]


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    return _requires(_orig.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: Any = None) -> list[str]:
    return _requires(_orig.get_requires_for_build_editable, config_settings)
