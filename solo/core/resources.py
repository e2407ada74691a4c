"""Where the shipped data lives: ``cards/`` and ``maps/``.

They are installed as ``solo._shipped.cards`` and ``solo._shipped.maps``.

In the repository they stand at the top level for designers; ``pip install .``
(editable or not) installs them inside the package, so they are found the same
way in both cases.
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path


@functools.cache
def _dir(package: str) -> Path:
    # Both install modes put the data in a real directory on disk: the package's one folder
    # (read from its spec; importlib.resources would import zipfile for the same answer).
    spec = importlib.import_module(package).__spec__
    locations = list((spec.submodule_search_locations if spec is not None else None) or ())
    if len(locations) == 1 and Path(locations[0]).is_dir():
        return Path(locations[0])
    from importlib.resources import files

    return Path(str(files(package)))


def cards_dir() -> Path:
    """The directory of the shipped ``cards/`` data (decks, tables, charts, vehicles)."""
    return _dir("solo._shipped.cards")


def maps_dir() -> Path:
    """The directory of the shipped ``maps/`` (maps; scenarios under ``scenarios/``)."""
    return _dir("solo._shipped.maps")


def display_name(path: Path) -> str:
    """A short name for ``path`` in messages: ``cards/terrain.yaml`` for shipped data."""
    path = Path(path)
    for root, label in ((cards_dir(), "cards"), (maps_dir(), "maps")):
        try:
            return f"{label}/{path.resolve().relative_to(root.resolve()).as_posix()}"
        except ValueError:
            continue
    return str(path)
