"""Batch plots: VP histograms and the Enemy order mix of a batch's records (matplotlib, Agg canvas).

May import: :mod:`solo.playtest.batch_records`; matplotlib (inside :func:`write_plots`).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from pathlib import Path

from solo.playtest.batch_records import GameRecord, check_plots_dir, order_columns, write_atomic


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
