"""A cache of parsed data on disk, so a new process skips YAML and validation (issue 10 item 4).

:func:`cached` returns what a loader built from some data files, read back from a pickle in
the user cache directory (:func:`platformdirs.user_cache_dir`) when one exists for the same
input, else built, stored and returned. The key is the SHA-256 of every data file read (its
path and bytes), of the source of every loader (each ``.py`` file of :mod:`solo.core` and
:mod:`solo.data`), and of the Python version: any change to any of them makes a new key, and
the older entries of the same ``kind`` are removed. A cache file that cannot be read or does
not hold its key (corrupt, truncated, written by another version) is ignored and rebuilt.
Only results are cached: a loader that raises (bad data) stores nothing.

The environment variable ``SOLO_DATA_CACHE`` overrides the place: ``off`` disables the cache,
any other value is the directory to use. The cache is the user's own (pickles are trusted as
the user's files; a shared directory should not be used).

May import: nothing of :mod:`solo` (the standard library and platformdirs only).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

ENV = "SOLO_DATA_CACHE"
"""The environment variable: ``off``, or the cache directory."""

_MAGIC = b"solo-data-cache/1\n"
_SOURCE_PACKAGES = ("core", "data")


def cache_dir() -> Path | None:
    """The directory of the data cache, or None when ``SOLO_DATA_CACHE=off``."""
    value = os.environ.get(ENV, "").strip()
    if value.lower() == "off":
        return None
    if value:
        return Path(value)
    import platformdirs

    return Path(platformdirs.user_cache_dir("solo", appauthor=False)) / "data"


def _source_files() -> list[Path]:
    root = Path(__file__).resolve().parent.parent
    return [p for pkg in _SOURCE_PACKAGES for p in sorted((root / pkg).glob("*.py"))]


def key_of(files: Iterable[Path], extra: str = "") -> str:
    """SHA-256 (hex) of ``files`` (each path and its bytes), the loader source and ``extra``.

    A file that cannot be read counts by its name alone (the loader reports it).
    """
    h = hashlib.sha256()
    h.update(_MAGIC)
    h.update(f"python {sys.version_info[:3]} pickle {pickle.HIGHEST_PROTOCOL}\n{extra}\n".encode())
    for group in (_source_files(), list(files)):
        for p in group:
            h.update(str(p).encode("utf-8", "surrogateescape") + b"\0")
            try:
                data = p.read_bytes()
            except OSError:
                h.update(b"-missing-\0")
                continue
            h.update(len(data).to_bytes(8, "little"))
            h.update(data)
    return h.hexdigest()


def _read(path: Path, key: str) -> object | None:
    """The value stored in ``path`` under ``key``, or None if absent or unusable."""
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    head = _MAGIC + key.encode() + b"\n"
    if not blob.startswith(head):
        return None
    try:
        return pickle.loads(blob[len(head) :])
    except Exception:  # a corrupt or truncated cache is ignored and rebuilt
        return None


def _write(directory: Path, kind: str, key: str, value: object) -> None:
    """Store ``value`` atomically; remove older entries of ``kind``. Failures are ignored."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        blob = _MAGIC + key.encode() + b"\n" + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        fd, tmp = tempfile.mkstemp(prefix=f".{kind}-", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(blob)
            os.replace(tmp, directory / f"{kind}-{key}.pickle")
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        for old in sorted(directory.glob(f"{kind}-*.pickle")):
            if old.name != f"{kind}-{key}.pickle":
                with contextlib.suppress(OSError):
                    old.unlink()
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        return


def cached(kind: str, files: Iterable[Path], build: Callable[[], T], *, extra: str = "") -> T:
    """``build()``, or its result read from the cache for the same ``files``, source and ``extra``.

    ``kind`` names the entry (``house``): one file ``KIND-KEY.pickle`` per kind is kept.
    Exceptions of ``build`` propagate and nothing is stored.
    """
    directory = cache_dir()
    if directory is None:
        return build()
    key = key_of(files, extra)
    path = directory / f"{kind}-{key}.pickle"
    value = _read(path, key)
    if value is not None:
        return value  # type: ignore[return-value]
    value = build()
    _write(directory, kind, key, value)
    return value
