"""Batch comparisons of card sets: every seed under every variant, in parallel (issue 6 items 4-5).

:func:`~solo.playtest.batch_setup.prepare` loads each *variant* (a card set
directory whose files replace the shipped ones, or the shipped cards) and the
scenario against it; :func:`run_batch` plays every seed under every variant
with **common random numbers**: game ``(variant, seed)`` uses the chance source
seeded with ``seed`` and a Friendly policy seeded with ``seed`` too, so two
variants differ only by the cards. The games run on all cores
(``concurrent.futures``), in-process (``jobs=1``) or on an existing Dask
cluster (the optional ``solo[dask]`` extra); the records are the same
whichever runs them, and :func:`~solo.playtest.batch_records.csv_text` sorts
them by (variant, seed) so the CSV is byte-identical between runs.

:mod:`solo.playtest.batch_stats` summarises the records (paired confidence
intervals) and :mod:`solo.playtest.batch_plots` draws them. The library never
prints: the ``solo batch`` command (:mod:`solo.cli.batch`) shows the progress
bar and the table.

May import: :mod:`solo.engine` and below, :mod:`solo.playtest.play`,
:mod:`~solo.playtest.policies`, :mod:`~solo.playtest.batch_setup` and
:mod:`~solo.playtest.batch_records`.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

import attrs

from solo.core.events import Event
from solo.engine.game import Game
from solo.playtest.batch_records import GameRecord, order_columns, record_of
from solo.playtest.batch_setup import BatchError, BatchSpec, PreparedVariant
from solo.playtest.play import build_game
from solo.playtest.policies import make_policy
from solo.rules.state import Side

EXECUTORS = ("local", "dask")
MAX_CHUNK = 25
"""At most this many games per task sent to a worker (progress granularity vs overhead)."""
ORDER_EVENTS = ("enemy_order", "crew_order")
"""Events that give an Enemy character (infantry or crew) his order; counted by ``data["order"]``."""


# -- one game ------------------------------------------------------------------


class _OrderCounter:
    """A game listener counting the Enemy orders given, by final order id, and the Friendly
    Bazooka rockets fired (C2 32.1; no event list kept)."""

    kinds = (*ORDER_EVENTS, "light_at_fire")
    """The only events it reads: a batch game builds no others (:meth:`~solo.engine.game.Game.emit`)."""

    def __init__(self, game: Game | None = None) -> None:
        self.counts: dict[str, int] = {}
        self.bazooka_shots = 0
        """``light_at_fire`` events of a Friendly firer that fired (not ``fired: False``)."""
        self._game = game

    def __call__(self, ev: Event) -> None:
        if ev.kind in ORDER_EVENTS:
            order = ev.data.get("order")
            if order:
                self.counts[order] = self.counts.get(order, 0) + 1
        elif ev.kind == "light_at_fire" and ev.data.get("fired", True) and self._game is not None:
            who = self._game.state.characters.get(ev.actor or "")
            if who is not None and who.side is Side.FRIENDLY:
                self.bazooka_shots += 1


def new_batch_game(variant: PreparedVariant, seed: int) -> Game:
    """The game ``(variant, seed)``: as :func:`solo.playtest.play.new_game` with ``seed``, no rolls or
    events kept."""
    return build_game(variant.scenario, variant.data, seed=seed, record_rolls=False, keep_events=False)


def play_game(variant: PreparedVariant, seed: int, policy: str = "simple") -> GameRecord:
    """Play game ``(variant, seed)`` to its end with ``policy`` (seeded with ``seed``) and record it.

    Enemy orders are counted by a listener added before the first Enemy Order
    Phase (the game stops at the first Friendly card play, base-rules §1 Step 1).
    """
    game = new_batch_game(variant, seed)
    counter = _OrderCounter(game)
    game.listeners.append(counter)
    game.play(make_policy(policy, seed=seed))
    return record_of(game, variant.name, seed, counter.counts, counter.bazooka_shots)


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
    out: list[tuple[str, tuple[int, ...]]] = []
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
    from distributed.comm.addressing import get_address_host, normalize_address

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
