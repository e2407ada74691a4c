"""Batch output: one game's record (casualties, vehicles lost, Enemy orders) and the CSV of a batch.

:class:`GameRecord` is one CSV row: the winner and victory points (base-rules §19),
casualties by final status (§19, C2 23.3-23.4, routed off §5.7), vehicles lost
(C2 31) and the Enemy orders given. :func:`csv_text` sorts the records by
(variant, seed), so the CSV is byte-identical between runs; :func:`write_csv`
writes it atomically and :func:`read_csv` reads it back.

May import: :mod:`solo.engine` and below, :mod:`solo.playtest.batch_setup`.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from solo.data.house import HouseData
from solo.engine.game import Game
from solo.playtest.batch_setup import BatchError
from solo.rules.state import Side, Status

# -- one game's record ---------------------------------------------------------


_CASUALTY = (
    ("killed", Status.DEAD),
    ("incapacitated", Status.INCAPACITATED),
    ("captured", Status.PRISONER),
    ("routed_off", Status.ROUTED_OFF),
)
CSV_FIELDS: tuple[str, ...] = (
    "variant",
    "seed",
    "winner",
    "vp",
    "turns",
    *(f"{side}_{what}" for side in ("friendly", "enemy") for what, _ in _CASUALTY),
    "friendly_vehicles_lost",
    "enemy_vehicles_lost",
)
"""The fixed CSV columns; then one ``order_<id>`` column per Enemy order given in the batch."""
ORDER_PREFIX = "order_"


@attrs.frozen
class GameRecord:
    """The outcome of one game of a batch (one CSV row).

    Casualties count non-dummy characters by final status (base-rules §19, C2
    23.3-23.4): killed, incapacitated, captured (prisoners), routed off the map
    (§5.7). A vehicle is lost when destroyed or abandoned (C2 31). ``orders`` is
    how many Enemy orders of each id were given (``enemy_order`` and
    ``crew_order`` events, by final order id after conversions), sorted by id.
    """

    variant: str
    seed: int
    winner: str
    """``friendly``, ``enemy`` or empty (undecided)."""
    vp: int
    """The Friendly victory points at the end (§19)."""
    turns: int
    """Turns played."""
    friendly_killed: int = 0
    friendly_incapacitated: int = 0
    friendly_captured: int = 0
    friendly_routed_off: int = 0
    enemy_killed: int = 0
    enemy_incapacitated: int = 0
    enemy_captured: int = 0
    enemy_routed_off: int = 0
    friendly_vehicles_lost: int = 0
    enemy_vehicles_lost: int = 0
    orders: tuple[tuple[str, int], ...] = ()
    bazooka_shots: int = 0
    """Friendly Bazooka rockets fired (``light_at_fire`` events that fired, C2 32.1); not a CSV
    column (a CSV read back has 0)."""

    def casualties(self, side: Side) -> int:
        """Killed + incapacitated + captured + routed off for ``side``."""
        p = side.value
        return sum(getattr(self, f"{p}_{what}") for what, _ in _CASUALTY)

    def order_count(self, order_id: str) -> int:
        """How many times the Enemy was given ``order_id`` in this game."""
        return dict(self.orders).get(order_id, 0)

    def row(self, order_ids: Sequence[str]) -> list[Any]:
        """The CSV row: :data:`CSV_FIELDS` then the count of each of ``order_ids``."""
        counts = dict(self.orders)
        return [getattr(self, f) for f in CSV_FIELDS] + [counts.get(o, 0) for o in order_ids]


def record_of(
    game: Game, variant: str, seed: int, orders: Mapping[str, int], bazooka_shots: int = 0
) -> GameRecord:
    """The :class:`GameRecord` of a finished ``game`` (``bazooka_shots``: Friendly rockets fired)."""
    st = game.state
    counts: dict[str, int] = {}
    for c in st.characters.values():
        if c.dummy:
            continue
        for what, status in _CASUALTY:
            if c.status is status:
                key = f"{c.side.value}_{what}"
                counts[key] = counts.get(key, 0) + 1
    for v in st.vehicles.values():
        if v.destroyed or v.abandoned:
            key = f"{v.side.value}_vehicles_lost"
            counts[key] = counts.get(key, 0) + 1
    return GameRecord(
        variant=variant,
        seed=seed,
        winner=st.winner or "",
        vp=int(st.vp.get("friendly", 0)),
        turns=st.flow.turn,
        orders=tuple(sorted((k, n) for k, n in orders.items() if n)),
        bazooka_shots=bazooka_shots,
        **counts,
    )


# -- the CSV -------------------------------------------------------------------


def order_columns(records: Iterable[GameRecord], data: Sequence[HouseData] = ()) -> tuple[str, ...]:
    """The order ids given in ``records``: in ``orders.yaml`` order of ``data``, then any other by id."""
    used = {o for r in records for o, n in r.orders if n}
    out: list[str] = []
    for d in data:
        for o in d.orders:
            if o.id in used and o.id not in out:
                out.append(o.id)
    out += sorted(used - set(out))
    return tuple(out)


def csv_text(records: Iterable[GameRecord], order_ids: Sequence[str] | None = None) -> str:
    """The CSV of ``records`` sorted by (variant, seed): :data:`CSV_FIELDS`, then ``order_<id>`` columns.

    ``order_ids`` default: every order id given in the records, sorted. The same
    records give the same text, byte for byte (``\\n`` line ends).
    """
    records = sorted(records, key=lambda r: (r.variant, r.seed))
    ids = tuple(order_ids) if order_ids is not None else order_columns(records)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([*CSV_FIELDS, *(ORDER_PREFIX + o for o in ids)])
    for r in records:
        w.writerow(r.row(ids))
    return buf.getvalue()


def check_out_path(path: Path | str, *, what: str = "--out") -> Path:
    """Check that ``path`` can be written as a file: not a directory, in an existing directory."""
    p = Path(path)
    if p.is_dir():
        raise BatchError(f"{what} {p}: is a directory (give a file name)")
    if not p.parent.is_dir():
        raise BatchError(f"{what} {p}: the directory {p.parent} does not exist")
    return p


def check_plots_dir(path: Path | str) -> Path:
    """Check that ``path`` is a directory or can be created as one."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise BatchError(f"--plots {p}: is a file, not a directory")
    parent = next((q for q in p.parents if q.exists()), Path("."))
    if not parent.is_dir():
        raise BatchError(f"--plots {p}: {parent} is not a directory")
    return p


def write_atomic(path: Path | str, write: Callable[[Any], None], *, binary: bool = False) -> Path:
    """Write ``path`` through ``write(file)`` into a temporary file beside it, then rename it in place."""
    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            write(f)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as open() would make it (mkstemp makes 0600)
        os.replace(tmp, p)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return p


def write_csv(
    path: Path | str, records: Iterable[GameRecord], order_ids: Sequence[str] | None = None
) -> Path:
    """Write :func:`csv_text` to ``path`` atomically (a temporary file, then ``os.replace``)."""
    text = csv_text(records, order_ids)
    return write_atomic(check_out_path(path), lambda f: f.write(text))


def read_csv(path: Path | str) -> tuple[GameRecord, ...]:
    """Read back a CSV written by :func:`write_csv`. Raises :class:`BatchError` naming a bad line."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise BatchError(f"{p}: cannot read: {exc}") from None
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or tuple(rows[0][: len(CSV_FIELDS)]) != CSV_FIELDS:
        raise BatchError(f"{p}:1: not a solo batch CSV (expected the columns {', '.join(CSV_FIELDS)}, ...)")
    head = rows[0]
    extra = head[len(CSV_FIELDS) :]
    if any(not h.startswith(ORDER_PREFIX) for h in extra):
        raise BatchError(f"{p}:1: extra columns must be {ORDER_PREFIX}<id>")
    ids = [h[len(ORDER_PREFIX) :] for h in extra]
    out = []
    for line, row in enumerate(rows[1:], 2):
        if len(row) != len(head):
            raise BatchError(f"{p}:{line}: {len(row)} fields, expected {len(head)}")
        try:
            values = dict(zip(CSV_FIELDS, row, strict=False))
            ints = {k: int(v) for k, v in values.items() if k not in ("variant", "winner")}
            counts = tuple(
                sorted((o, int(n)) for o, n in zip(ids, row[len(CSV_FIELDS) :], strict=True) if int(n))
            )
        except ValueError as exc:
            raise BatchError(f"{p}:{line}: {exc}") from None
        out.append(GameRecord(variant=values["variant"], winner=values["winner"], orders=counts, **ints))
    return tuple(out)
