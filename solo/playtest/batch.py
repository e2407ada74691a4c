"""Batch comparisons of card sets: every seed under every variant, in parallel (issue 6 items 4-5).

A designer changes the Enemy deck (or any card file) and asks what the change
does to a thousand games. :func:`prepare` loads each *variant* (a card set
directory whose files replace the shipped ones, or the shipped cards) and the
scenario against it; :func:`run_batch` plays every seed under every variant
with **common random numbers**: game ``(variant, seed)`` uses the chance source
seeded with ``seed`` and a Friendly policy seeded with ``seed`` too, so two
variants differ only by the cards. The games run on all cores
(``concurrent.futures``), in-process (``jobs=1``) or on an existing Dask
cluster (the optional ``solo[dask]`` extra); the records are the same
whichever runs them, and :func:`csv_text` sorts them by (variant, seed) so the
CSV is byte-identical between runs.

:func:`compare` summarises the records: per variant the mean of each measure
with a 95% Student-t confidence interval (a Wilson interval for the Friendly
win rate), and per variant after the first the *paired* difference from the
first (the same seeds), with a t interval of the per-seed differences.
:func:`write_plots` draws VP histograms and the Enemy order mix (matplotlib,
Agg canvas, no pyplot state).

The library never prints: the ``solo batch`` command (``solo/cli_batch.py``)
shows the progress bar and the table.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

import attrs

from solo.core.dice import Dice
from solo.core.errors import SoloError
from solo.core.events import Event
from solo.core.options import Options
from solo.data.house import CARD_FILES, HouseData, load_data
from solo.data.scenario import load_scenario, shipped_scenarios
from solo.data.scenario_format import Scenario
from solo.engine.game import Game
from solo.playtest.policies import make_policy
from solo.rules.state import Side, Status

HOUSE = ("house", "cards/house")
"""Variant directories that mean the shipped cards (``A=house`` or ``A=cards/house``)."""
POLICIES = ("simple", "random")
"""Friendly policies a batch can use (``random`` is seeded with the game's seed)."""
EXECUTORS = ("local", "dask")
CONFIDENCE = 0.95
"""The level of every interval :func:`compare` reports."""
MAX_CHUNK = 25
"""At most this many games per task sent to a worker (progress granularity vs overhead)."""
ORDER_EVENTS = ("enemy_order", "crew_order")
"""Events that give an Enemy character (infantry or crew) his order; counted by ``data["order"]``."""
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")


class BatchError(SoloError):
    """Bad input to a batch: a seed range, a variant, a path, an executor (exit 2, nothing written)."""


# -- input -------------------------------------------------------------------


def parse_seeds(text: str) -> tuple[int, ...]:
    """Seeds from ``"1-1000"``, ``"7"`` or ``"1,5,10-20"`` (non-negative integers, in the order given).

    Raises :class:`BatchError` for anything else: ``"10-1"`` (a backwards range),
    ``"abc"``, an empty list, a seed given twice.
    """
    seeds: list[int] = []
    seen: set[int] = set()
    parts = [p.strip() for p in str(text).split(",")]
    if not text or not text.strip() or any(not p for p in parts):
        raise BatchError(f"--seeds {text!r}: expected a range like 1-1000, a seed, or a list like 1,5,10-20")
    for part in parts:
        m = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", part)
        if m is None:
            raise BatchError(
                f"--seeds {text!r}: {part!r} is not a seed or a range FIRST-LAST of non-negative integers"
            )
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) is not None else first
        if last < first:
            raise BatchError(
                f"--seeds {text!r}: the range {part} runs backwards (did you mean {last}-{first}?)"
            )
        for s in range(first, last + 1):
            if s in seen:
                raise BatchError(f"--seeds {text!r}: seed {s} is given twice")
            seen.add(s)
            seeds.append(s)
    return tuple(seeds)


@attrs.frozen
class Variant:
    """A named card set to play: ``cards`` is a directory of card files, or None for the shipped ones."""

    name: str
    cards: Path | None = None

    @classmethod
    def parse(cls, text: str) -> Variant:
        """``NAME=DIR`` (``DIR`` = ``house`` or ``cards/house`` for the shipped cards).

        Raises :class:`BatchError` for a missing ``=`` or a bad name; the directory
        itself is checked by :func:`prepare`.
        """
        name, sep, where = str(text).partition("=")
        name, where = name.strip(), where.strip()
        if not sep or not name or not where:
            raise BatchError(f"--variant {text!r}: expected NAME=DIR, e.g. A=house or B=my_deck/")
        if not _NAME.match(name):
            raise BatchError(
                f"--variant {text!r}: the name {name!r} must be letters, digits and _ . + - "
                "(it is written in the CSV)"
            )
        if where.rstrip("/") in HOUSE:
            return cls(name, None)
        return cls(name, Path(where))

    def __str__(self) -> str:
        return f"{self.name}={self.cards if self.cards is not None else 'house'}"


@attrs.frozen
class PreparedVariant:
    """A variant loaded and checked: its data and the scenario loaded against it (frozen, picklable)."""

    name: str
    data: HouseData = attrs.field(repr=False)
    scenario: Scenario = attrs.field(repr=False)
    cards: str = "house"
    """Where its card files come from, as given (``house`` for the shipped cards)."""
    ignored: tuple[str, ...] = ()
    """YAML files in the variant directory that are not card files (not read)."""


@attrs.frozen
class BatchSpec:
    """What every game of a batch needs: the scenario, the prepared variants and the policy name."""

    scenario: str
    variants: tuple[PreparedVariant, ...]
    policy: str = "simple"
    turns: int | None = None

    def variant(self, name: str) -> PreparedVariant:
        """The prepared variant called ``name`` (KeyError if none)."""
        for v in self.variants:
            if v.name == name:
                return v
        raise KeyError(name)


def _card_files(directory: Path) -> tuple[list[str], list[str]]:
    """(card files, other YAML files) in a variant directory, by name."""
    names = sorted(p.name for p in directory.glob("*.yaml"))
    cards = [n for n in names if n in CARD_FILES]
    vehicles = sorted(p.name for p in (directory / "vehicles").glob("*.yaml"))
    cards += [f"vehicles/{n}" for n in vehicles]
    return cards, [n for n in names if n not in CARD_FILES]


def _scenario_path(scenario: str) -> str:
    """Check that ``scenario`` is a shipped id or a scenario file; BatchError naming the shipped ids."""
    p = Path(scenario)
    if p.is_file():
        return scenario
    ids = [s.stem for s in shipped_scenarios()]
    if scenario in ids:
        return scenario
    raise BatchError(f"unknown scenario {scenario!r}: not a file, nor a shipped scenario ({', '.join(ids)})")


def prepare(
    scenario: str,
    variants: Sequence[Variant] = (),
    *,
    policy: str = "simple",
    turns: int | None = None,
) -> BatchSpec:
    """Load every variant's data and the scenario against it; check the policy and turns.

    ``variants`` defaults to one, ``house`` (the shipped cards). Raises
    :class:`BatchError` for an unknown scenario or policy, duplicate variant
    names, a variant directory that is missing or holds no card file, and
    :class:`~solo.core.errors.DataError` (every problem, with its file and line) for a
    broken card file or a scenario the variant's cards cannot play.
    """
    if policy not in POLICIES:
        raise BatchError(f"--policy {policy!r}: a batch plays {' or '.join(POLICIES)}")
    if turns is not None and turns < 1:
        raise BatchError(f"--turns {turns}: must be at least 1")
    scenario = _scenario_path(str(scenario))
    variants = list(variants) or [Variant("house")]
    names = [v.name for v in variants]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise BatchError(f"variant name(s) given twice: {', '.join(dup)}")
    ignored: dict[str, tuple[str, ...]] = {}
    for v in variants:  # every directory checked before any data is loaded
        if v.cards is None:
            continue
        if not v.cards.is_dir():
            raise BatchError(f"variant {v.name}: {v.cards} is not a directory")
        cards, others = _card_files(v.cards)
        if not cards:
            raise BatchError(
                f"variant {v.name}: {v.cards} holds no card file (expected one or more of "
                f"{', '.join(CARD_FILES)} or vehicles/*.yaml"
                + (f"; found only {', '.join(others)}" if others else "")
                + ")"
            )
        ignored[v.name] = tuple(others)
    out: list[PreparedVariant] = []
    loaded: dict[Path | None, HouseData] = {}
    for v in variants:
        key = v.cards.resolve() if v.cards is not None else None
        data = loaded.get(key)
        if data is None:
            data = loaded[key] = load_data(cards=v.cards)
        sc = load_scenario(scenario, data)
        if turns is not None:
            sc = attrs.evolve(sc, turns=turns)
        out.append(
            PreparedVariant(
                v.name,
                data,
                sc,
                cards=str(v.cards) if v.cards is not None else "house",
                ignored=ignored.get(v.name, ()),
            )
        )
    return BatchSpec(scenario, tuple(out), policy, turns)


# -- one game ------------------------------------------------------------------

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


class _OrderCounter:
    """A game listener counting the Enemy orders given, by final order id (no event list kept)."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def __call__(self, ev: Event) -> None:
        if ev.kind in ORDER_EVENTS:
            order = ev.data.get("order")
            if order:
                self.counts[order] = self.counts.get(order, 0) + 1


def new_batch_game(variant: PreparedVariant, seed: int) -> Game:
    """The game ``(variant, seed)``: as :func:`solo.playtest.play.new_game` with ``seed``, no rolls or
    events kept."""
    sc = variant.scenario
    return Game(
        sc,
        variant.data,
        dice=Dice(seed, keep_history=False),
        options=Options.from_dict(dict(sc.options)),
        record_rolls=False,
        keep_events=False,
    )


def play_game(variant: PreparedVariant, seed: int, policy: str = "simple") -> GameRecord:
    """Play game ``(variant, seed)`` to its end with ``policy`` (seeded with ``seed``) and record it.

    Enemy orders are counted by a listener added before the first Enemy Order
    Phase (the game stops at the first Friendly card play, base-rules §1 Step 1).
    """
    game = new_batch_game(variant, seed)
    counter = _OrderCounter()
    game.listeners.append(counter)
    game.play(make_policy(policy, seed=seed))
    return record_of(game, variant.name, seed, counter.counts)


def record_of(game: Game, variant: str, seed: int, orders: Mapping[str, int]) -> GameRecord:
    """The :class:`GameRecord` of a finished ``game``."""
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
        **counts,
    )


def play_chunk(spec: BatchSpec | None, variant: str, seeds: Sequence[int]) -> list[GameRecord]:
    """Play ``seeds`` under ``variant`` (the per-task function of every executor).

    ``spec`` None: the one this worker process was initialised with
    (:func:`_init_worker`). Raises RuntimeError naming the variant and seed of a
    game that fails (an engine bug, not bad input).
    """
    spec = spec if spec is not None else _WORKER_SPEC
    if spec is None:
        raise RuntimeError("play_chunk: this worker was not given a batch")
    v = spec.variant(variant)
    out = []
    for seed in seeds:
        try:
            out.append(play_game(v, seed, spec.policy))
        except Exception as exc:
            raise RuntimeError(
                f"game variant={variant} seed={seed} failed: {type(exc).__name__}: {exc}"
            ) from exc
    return out


_WORKER_SPEC: BatchSpec | None = None


def _init_worker(spec: BatchSpec) -> None:
    """Process-pool initializer: keep the loaded data for every task of this worker."""
    global _WORKER_SPEC
    _WORKER_SPEC = spec


# -- running a batch -----------------------------------------------------------


@attrs.frozen
class BatchResult:
    """Every record of a batch, sorted by (variant, seed), and how it ran."""

    scenario: str
    policy: str
    variants: tuple[str, ...]
    """Variant names in the order given (the first is the baseline of the differences)."""
    seeds: tuple[int, ...]
    records: tuple[GameRecord, ...]
    order_ids: tuple[str, ...] = ()
    """The Enemy order ids given in these games, in ``orders.yaml`` order: the CSV's order columns."""
    seconds: float = 0.0
    """Wall time of the games (not of loading)."""
    executor: str = "local"
    workers: int = 1

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf


def chunks(variants: Sequence[str], seeds: Sequence[int], size: int) -> list[tuple[str, tuple[int, ...]]]:
    """Tasks of at most ``size`` seeds, interleaving the variants seed block by seed block."""
    size = max(1, size)
    out = []
    for i in range(0, len(seeds), size):
        block = tuple(seeds[i : i + size])
        out.extend((v, block) for v in variants)
    return out


def default_jobs() -> int:
    """Cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def run_batch(
    spec: BatchSpec,
    seeds: Sequence[int],
    *,
    jobs: int | None = None,
    executor: str = "local",
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> BatchResult:
    """Play every seed under every variant of ``spec``; records sorted by (variant, seed).

    ``executor="local"``: ``jobs`` worker processes (default: every core;
    ``jobs=1`` plays in this process). ``executor="dask"``: the tasks go to the
    Dask scheduler at ``scheduler`` (``distributed.Client(scheduler)``). The
    records are the same either way. ``progress(n)`` is called as each task of
    ``n`` games finishes. Raises :class:`BatchError` for a bad executor, jobs or
    scheduler (or Dask not installed), RuntimeError for a game that fails.
    """
    seeds = tuple(seeds)
    if not seeds:
        raise BatchError("no seeds to play")
    if len(set(seeds)) != len(seeds):
        raise BatchError("a seed is given twice")
    if executor not in EXECUTORS:
        raise BatchError(f"--executor {executor!r}: expected {' or '.join(EXECUTORS)}")
    if executor == "dask" and not scheduler:
        raise BatchError("--executor dask needs --scheduler ADDRESS (e.g. tcp://10.0.0.5:8786)")
    if executor == "local" and scheduler:
        raise BatchError("--scheduler is for --executor dask")
    if jobs is not None and jobs < 1:
        raise BatchError(f"--jobs {jobs}: must be at least 1")
    names = tuple(v.name for v in spec.variants)
    total = len(seeds) * len(names)
    note = progress or (lambda n: None)
    t0 = time.perf_counter()
    if executor == "dask":
        records, workers = _run_dask(spec, seeds, scheduler or "", note)
    else:
        workers = min(jobs or default_jobs(), total)
        if workers == 1:
            records = []
            for name, block in chunks(names, seeds, MAX_CHUNK):
                records.extend(play_chunk(spec, name, block))
                note(len(block))
        else:
            records = _run_local(spec, seeds, workers, note)
    seconds = time.perf_counter() - t0
    records.sort(key=lambda r: (r.variant, r.seed))
    return BatchResult(
        scenario=spec.scenario,
        policy=spec.policy,
        variants=names,
        seeds=seeds,
        records=tuple(records),
        order_ids=order_columns(records, [v.data for v in spec.variants]),
        seconds=seconds,
        executor=executor,
        workers=workers,
    )


def _chunk_size(total_games: int, workers: int) -> int:
    """About four tasks per worker, at most :data:`MAX_CHUNK` games each."""
    return max(1, min(MAX_CHUNK, math.ceil(total_games / (4 * workers))))


def _run_local(
    spec: BatchSpec, seeds: tuple[int, ...], workers: int, note: Callable[[int], None]
) -> list[GameRecord]:
    """Tasks on a process pool whose workers keep ``spec`` (sent once each, by the initializer)."""
    import multiprocessing

    names = [v.name for v in spec.variants]
    size = _chunk_size(len(seeds), workers)
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    records: list[GameRecord] = []
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=(spec,)
    )
    try:
        pending = {pool.submit(play_chunk, None, name, block) for name, block in chunks(names, seeds, size)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                got = fut.result()
                records.extend(got)
                note(len(got))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return records


DASK_MISSING = "--executor dask needs the optional Dask extra: pip install 'solo[dask]'"


def require_dask() -> Any:
    """The ``distributed`` module, or :class:`BatchError` saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise BatchError(DASK_MISSING) from None
    return distributed


def check_scheduler(address: str) -> str:
    """Check a Dask scheduler address (``tcp://HOST:PORT`` or ``HOST:PORT``) without connecting.

    Raises :class:`BatchError` if Dask is not installed or the address is malformed.
    """
    require_dask()
    from distributed.comm import get_address_host, normalize_address

    try:
        get_address_host(normalize_address(address))
    except ValueError as exc:
        raise BatchError(f"--scheduler {address!r}: not a Dask scheduler address ({exc})") from None
    return address


def _run_dask(
    spec: BatchSpec, seeds: tuple[int, ...], scheduler: str, note: Callable[[int], None]
) -> tuple[list[GameRecord], int]:
    """Tasks on an existing Dask cluster: the spec is scattered once to every worker."""
    distributed = require_dask()
    check_scheduler(scheduler)
    try:
        client = distributed.Client(scheduler, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise BatchError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    try:
        workers = max(1, sum(client.nthreads().values()))
        names = [v.name for v in spec.variants]
        size = _chunk_size(len(seeds), workers)
        remote = client.scatter(spec, broadcast=True)
        futures = [
            client.submit(play_chunk, remote, name, block, pure=False)
            for name, block in chunks(names, seeds, size)
        ]
        records: list[GameRecord] = []
        for fut in distributed.as_completed(futures, loop=client.loop):
            got = fut.result()
            records.extend(got)
            note(len(got))
        return records, workers
    finally:
        client.close()


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
        with os.fdopen(
            fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8", "newline": ""})
        ) as f:
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


# -- statistics -------------------------------------------------------------------


@attrs.frozen
class Interval:
    """An estimate with a confidence interval (``low``/``high`` NaN when it cannot be computed)."""

    estimate: float
    low: float
    high: float
    n: int
    """The number of games (or of paired seeds) behind it."""

    @property
    def excludes_zero(self) -> bool:
        """True when the whole interval lies on one side of 0 (a difference unlikely to be chance)."""
        return not math.isnan(self.low) and (self.low > 0 or self.high < 0)


_NAN = float("nan")


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        for aa in (
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _betai(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * _betai(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` > 0 degrees of freedom (bisection on :func:`t_cdf`)."""
    if not 0.0 < p < 1.0 or df <= 0:
        raise ValueError(f"t_quantile needs 0 < p < 1 and df > 0, got p={p}, df={df}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if p == 0.5:
        return 0.0
    if df > 1e7:
        return statistics.NormalDist().inv_cdf(p)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


def mean_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> Interval:
    """The mean of ``values`` with a Student-t interval (NaN bounds with fewer than 2 values)."""
    n = len(values)
    if n == 0:
        return Interval(_NAN, _NAN, _NAN, 0)
    m = math.fsum(values) / n
    if n == 1:
        return Interval(m, _NAN, _NAN, 1)
    sd = statistics.stdev(values)
    half = t_quantile(0.5 + confidence / 2.0, n - 1) * sd / math.sqrt(n)
    return Interval(m, m - half, m + half, n)


def wilson_interval(successes: int, n: int, confidence: float = CONFIDENCE) -> Interval:
    """A proportion ``successes / n`` with its Wilson score interval (good near 0 and 1, small ``n``)."""
    if n == 0:
        return Interval(_NAN, _NAN, _NAN, 0)
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2.0)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half), n)


def paired_interval(
    base: Mapping[int, float], other: Mapping[int, float], confidence: float = CONFIDENCE
) -> Interval:
    """Mean of ``other[s] - base[s]`` over the seeds in both, with a t interval of those differences.

    Pairing by seed removes the variation the variants share (the same dice and
    policy for the same seed), so the interval is much narrower than one from
    two independent samples.
    """
    common = sorted(set(base) & set(other))
    return mean_interval([other[s] - base[s] for s in common], confidence)


@attrs.frozen
class MetricRow:
    """One measure of a :class:`Comparison`: per variant, and each variant's paired difference."""

    name: str
    rate: bool
    """A proportion (Wilson intervals, shown in %), else a mean."""
    per_variant: tuple[Interval, ...]
    differences: tuple[Interval, ...]
    """``variants[i+1] - variants[0]`` over common seeds, for each i."""


@attrs.frozen
class Comparison:
    """The summary :func:`compare` makes of a batch."""

    variants: tuple[str, ...]
    games: tuple[int, ...]
    """Games per variant."""
    rows: tuple[MetricRow, ...]
    orders: tuple[MetricRow, ...]
    """Enemy orders given per game, by order id."""
    confidence: float = CONFIDENCE

    def row(self, name: str) -> MetricRow:
        """The row called ``name`` (KeyError if none)."""
        for r in (*self.rows, *self.orders):
            if r.name == name:
                return r
        raise KeyError(name)


METRICS: tuple[tuple[str, Callable[[GameRecord], float], bool], ...] = (
    ("VP", lambda r: r.vp, False),
    ("Friendly win rate", lambda r: 1.0 if r.winner == "friendly" else 0.0, True),
    ("Turns", lambda r: r.turns, False),
    ("Friendly casualties", lambda r: r.casualties(Side.FRIENDLY), False),
    ("Enemy casualties", lambda r: r.casualties(Side.ENEMY), False),
    ("Friendly vehicles lost", lambda r: r.friendly_vehicles_lost, False),
    ("Enemy vehicles lost", lambda r: r.enemy_vehicles_lost, False),
)
"""The measures :func:`compare` reports (vehicle rows only when a vehicle was lost)."""


def compare(
    records: Iterable[GameRecord],
    variants: Sequence[str] | None = None,
    *,
    order_ids: Sequence[str] | None = None,
    confidence: float = CONFIDENCE,
) -> Comparison:
    """Per-variant means with intervals and paired differences from the first variant.

    ``variants`` gives the order (default: by name; the first is the baseline).
    Means get Student-t intervals, the Friendly win rate a Wilson interval; each
    difference ``B - A`` is the mean over seeds played by both of (B's value -
    A's value) with a t interval of those per-seed differences (for the win rate,
    of the 0/1 differences). Raises :class:`BatchError` for a variant with no
    records.
    """
    records = list(records)
    names = tuple(variants) if variants is not None else tuple(sorted({r.variant for r in records}))
    by: dict[str, dict[int, GameRecord]] = {n: {} for n in names}
    for r in records:
        if r.variant in by:
            by[r.variant][r.seed] = r
    empty = [n for n in names if not by[n]]
    if empty:
        raise BatchError(f"no games for variant(s) {', '.join(empty)}")

    def row(name: str, get: Callable[[GameRecord], float], rate: bool) -> MetricRow:
        per = []
        values = {n: {s: float(get(r)) for s, r in by[n].items()} for n in names}
        for n in names:
            vs = [values[n][s] for s in sorted(values[n])]
            per.append(
                wilson_interval(round(sum(vs)), len(vs), confidence)
                if rate
                else mean_interval(vs, confidence)
            )
        diffs = tuple(paired_interval(values[names[0]], values[n], confidence) for n in names[1:])
        return MetricRow(name, rate, tuple(per), diffs)

    rows = [
        row(name, get, rate)
        for name, get, rate in METRICS
        if "vehicles" not in name or any(get(r) for r in records if r.variant in by)
    ]
    ids = tuple(order_ids) if order_ids is not None else order_columns(r for r in records if r.variant in by)
    orders = [row(o, lambda r, o=o: r.order_count(o), False) for o in ids]
    return Comparison(names, tuple(len(by[n]) for n in names), tuple(rows), tuple(orders), confidence)


def _num(x: float, rate: bool, *, signed: bool = False) -> str:
    if math.isnan(x):
        return "n/a"
    v = 100 * x if rate else x
    digits = 1 if rate else 2
    if round(v, digits) == 0:
        v = 0.0  # no "-0.00"
    return f"{v:+.{digits}f}" if signed else f"{v:.{digits}f}"


def _cell(iv: Interval, rate: bool, *, signed: bool = False) -> str:
    est = _num(iv.estimate, rate, signed=signed) + ("%" if rate and not signed else " pp" if rate else "")
    if math.isnan(iv.low):
        return est
    mark = " *" if signed and iv.excludes_zero else ""
    return f"{est} [{_num(iv.low, rate, signed=signed)}, {_num(iv.high, rate, signed=signed)}]{mark}"


def format_comparison(comp: Comparison, *, title: str = "") -> str:
    """The comparison as a plain-text table (estimates with [low, high]; ``*``: the difference excludes 0)."""
    base = comp.variants[0]
    heads = [f"{v} ({g} games)" for v, g in zip(comp.variants, comp.games, strict=True)]
    heads += [f"{v} - {base} (paired)" for v in comp.variants[1:]]

    def lines(rows: Sequence[MetricRow], first: str) -> list[list[str]]:
        out = [[first, *heads]]
        for r in rows:
            out.append(
                [
                    r.name,
                    *(_cell(iv, r.rate) for iv in r.per_variant),
                    *(_cell(iv, r.rate, signed=True) for iv in r.differences),
                ]
            )
        return out

    table = lines(comp.rows, "")
    orders = lines(comp.orders, "Enemy orders per game") if comp.orders else []
    widths = [max(len(row[i]) for row in table + orders) for i in range(len(table[0]))]

    def fmt(rows: list[list[str]]) -> list[str]:
        return ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows]

    pct = f"{round(100 * comp.confidence)}%"
    text = [title] if title else []
    text += fmt(table)
    if orders:
        text += ["", *fmt(orders)]
    note = f"Intervals: {pct} (means: Student t; win rate: Wilson; differences: paired t over common seeds)"
    if len(comp.variants) > 1:
        note += "; * the difference excludes 0"
    text += ["", note + "."]
    return "\n".join(text)


# -- plots -------------------------------------------------------------------------


def write_plots(
    directory: Path | str,
    records: Iterable[GameRecord],
    variants: Sequence[str] | None = None,
    *,
    order_ids: Sequence[str] | None = None,
    title: str = "",
) -> tuple[Path, ...]:
    """Write ``vp.png`` (a VP histogram per variant) and ``enemy_orders.png`` (the order mix) atomically.

    ``title`` (the scenario, say) heads both charts.

    The order mix is each order's share of all Enemy orders given in a variant's
    games, in %. Creates ``directory`` if needed; returns the paths written.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    records = list(records)
    names = tuple(variants) if variants is not None else tuple(sorted({r.variant for r in records}))
    out_dir = check_plots_dir(directory)
    out_dir.mkdir(parents=True, exist_ok=True)
    colours = [f"C{i % 10}" for i in range(len(names))]
    written = []

    vps = {n: [r.vp for r in records if r.variant == n] for n in names}
    every = [v for vs in vps.values() for v in vs] or [0]
    lo, hi = min(every), max(every)
    step = max(1, math.ceil((hi - lo + 1) / 60))
    bins = [lo - 0.5 + step * i for i in range((hi - lo) // step + 2)]
    fig = Figure(figsize=(8, 1.2 + 2.2 * len(names)), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(len(names), 1, sharex=True, squeeze=False)[:, 0]
    for ax, n, colour in zip(axes, names, colours, strict=True):
        vs = vps[n]
        ax.hist(vs, bins=bins, color=colour, edgecolor="white")
        if vs:
            m = statistics.fmean(vs)
            ax.axvline(m, color="black", linestyle="--", linewidth=1)
            ax.set_title(f"{n}: mean {m:.2f} VP over {len(vs)} games", fontsize=10, loc="left")
        ax.set_ylabel("games")
    axes[-1].set_xlabel("Friendly victory points")
    fig.suptitle(
        f"{title}: Friendly victory points per game" if title else "Friendly victory points per game"
    )
    written.append(
        write_atomic(out_dir / "vp.png", lambda f: fig.savefig(f, format="png", dpi=100), binary=True)
    )

    ids = list(order_ids) if order_ids is not None else list(order_columns(records))
    fig = Figure(figsize=(8, 1.5 + 0.35 * max(1, len(ids)) * max(1, len(names)) ** 0.5), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    height = 0.8 / max(1, len(names))
    for i, (n, colour) in enumerate(zip(names, colours, strict=True)):
        totals = {o: sum(r.order_count(o) for r in records if r.variant == n) for o in ids}
        all_orders = sum(totals.values()) or 1
        ys = [k + (i - (len(names) - 1) / 2) * height for k in range(len(ids))]
        ax.barh(ys, [100 * totals[o] / all_orders for o in ids], height=height, color=colour, label=n)
    ax.set_yticks(range(len(ids)), [o.replace("_", " ") for o in ids])
    ax.invert_yaxis()
    ax.set_xlabel("share of all Enemy orders given (%)")
    ax.set_title(f"{title}: Enemy order mix" if title else "Enemy order mix")
    if names:
        ax.legend()
    written.append(
        write_atomic(
            out_dir / "enemy_orders.png", lambda f: fig.savefig(f, format="png", dpi=100), binary=True
        )
    )
    return tuple(written)
