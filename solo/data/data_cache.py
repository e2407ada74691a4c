"""A cache of parsed data on disk, so a new process skips YAML and validation (issue 10 item 4).

:func:`cached` returns what a loader built from some data files, read back from a pickle in
the user cache directory (:func:`platformdirs.user_cache_dir`) when one exists for the same
input, else built, stored and returned. The key is the SHA-256 of every data file read (its
path and bytes), of the source of every loader (each ``.py`` file of :mod:`solo.core` and
:mod:`solo.data`), and of the Python version: any change to any of them makes a new key, and
the older entries of the same ``kind`` written by the same installation of :mod:`solo` are
removed (each entry names the installation that wrote it; other installations' entries, e.g. of
another checkout, are kept, the newest :data:`KEEP_OTHERS` of each kind). A cache file that
cannot be read or does not hold its key (corrupt, truncated, written by another version) is
ignored and rebuilt. Only results are cached: a loader that raises (bad data) stores nothing,
and ``keep`` may refuse a result. :func:`key_for` gives the key a value was read or stored
under, so that what is built from it (a scenario checked against the house data) can be
cached under a key of its own that includes it.

The environment variable ``SOLO_DATA_CACHE`` overrides the place: ``off`` disables the cache,
any other value is the directory to use. The cache is the user's own (pickles are trusted as
the user's files; a shared directory should not be used).

May import: nothing of :mod:`solo` (the standard library and platformdirs only).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import sys
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

ENV = "SOLO_DATA_CACHE"
"""The environment variable: ``off``, or the cache directory."""

_MAGIC = b"solo-data-cache/1\n"
_SOURCE_PACKAGES = ("core", "data")

KEEP_OTHERS = 4
"""How many entries of a kind written by other installations of :mod:`solo` are kept."""

_KEYS: dict[int, tuple[weakref.ref[Any], str]] = {}
"""id(value) → (the value, weakly; its key), for :func:`key_for`."""


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


@functools.cache
def _installation() -> bytes:
    """A line naming this installation of :mod:`solo` (a hash of its folder), without its newline."""
    root = str(Path(__file__).resolve().parent.parent)
    return b"from " + hashlib.sha256(root.encode("utf-8", "surrogateescape")).hexdigest()[:16].encode()


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
    end = blob.find(b"\n", len(head))  # the installation's line
    if end < 0 or not blob.startswith(b"from ", len(head)):
        return None
    try:
        value: object = pickle.loads(blob[end + 1 :])
        return value
    except Exception:  # a corrupt or truncated cache is ignored and rebuilt
        return None


def _by_another_installation(path: Path) -> bool:
    """Whether the entry at ``path`` names another installation of :mod:`solo` than this one.

    An entry that cannot be read, or of an older format, does not (it is removed as stale).
    """
    mine = _installation() + b"\n"
    try:
        with path.open("rb") as f:
            head = f.read(len(_MAGIC) + 65 + len(mine))
    except OSError:
        return False
    theirs = head[len(_MAGIC) + 65 :]
    return head.startswith(_MAGIC) and theirs.startswith(b"from ") and theirs != mine


def _write(directory: Path, kind: str, key: str, value: object) -> None:
    """Store ``value`` atomically; remove older entries of ``kind``. Failures are ignored."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        import tempfile

        head = _MAGIC + key.encode() + b"\n" + _installation() + b"\n"
        blob = head + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        fd, tmp = tempfile.mkstemp(prefix=f".{kind}-", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(blob)
            os.replace(tmp, directory / f"{kind}-{key}.pickle")
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        others: list[tuple[float, str, Path]] = []
        for old in sorted(directory.glob(f"{kind}-*.pickle")):
            if old.name == f"{kind}-{key}.pickle" or old.stem.count("-") != kind.count("-") + 1:
                continue  # this entry, or one of a longer kind ("scenario-x" beside "scenario")
            if _by_another_installation(old):
                with contextlib.suppress(OSError):
                    others.append((old.stat().st_mtime, old.name, old))
                continue
            with contextlib.suppress(OSError):
                old.unlink()
        for _mtime, _name, old in sorted(others, reverse=True)[KEEP_OTHERS:]:
            with contextlib.suppress(OSError):
                old.unlink()
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        return


def cached(
    kind: str,
    files: Iterable[Path],
    build: Callable[[], T],
    *,
    extra: str = "",
    keep: Callable[[T], bool] | None = None,
) -> T:
    """``build()``, or its result read from the cache for the same ``files``, source and ``extra``.

    ``kind`` names the entry (``house``, ``scenario-first_contact``): one file
    ``KIND-KEY.pickle`` per kind and installation is kept. Exceptions of ``build`` propagate
    and nothing is stored; nor is a result for which ``keep`` says False.
    """
    directory = cache_dir()
    if directory is None:
        return build()
    key = key_of(files, extra)
    path = directory / f"{kind}-{key}.pickle"
    value = _read(path, key)
    if value is None:
        value = build()
        if keep is None or keep(value):
            _write(directory, kind, key, value)
    _remember(value, key)
    return value  # type: ignore[return-value]  # the file holds what build() gave for this key


def _remember(value: object, key: str) -> None:
    try:
        ref = weakref.ref(value)
    except TypeError:  # a value that takes no weak reference is not remembered
        return
    for k in [k for k, (r, _key) in _KEYS.items() if r() is None]:
        del _KEYS[k]
    _KEYS[id(value)] = (ref, key)


def key_for(value: object) -> str | None:
    """The key ``value`` was read or stored under by :func:`cached` in this process, else None.

    None too when the cache is off, or for an equal value built some other way.
    """
    hit = _KEYS.get(id(value))
    if hit is None or hit[0]() is not value:
        return None
    return hit[1]
