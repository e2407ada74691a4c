"""Frame-time measurements of the window for ``tools/bench`` (DESIGN.md "Performance").

:func:`bench_window` returns a JSON-able dict: the median (and 90th
percentile, worst) frame time at 1600×1000 on the largest shipped scenario
while the mouse sweeps the map with a unit selected (so every frame draws an
LOS line and the hovered hex), the time to the first frame in this process
(scenario loaded, game set up, window opened, first frame drawn), and the
time from starting ``solo play --frames 1`` to its exit (the command's
start-up to first frame, including Python and pygame imports). It measures
the combined-arms scenario :data:`VEHICLE_SCENARIO` too (vehicle counters,
Target Markers and the vehicle displays drawn every frame), played on a few
turns first so its vehicles have moved and marked targets. Runs on SDL's dummy
driver when there is no display.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from solo.render import use_dummy_driver_if_headless

VEHICLE_SCENARIO = "armour_in_the_rain"
"""The shipped scenario with vehicles the bench also measures."""
VEHICLE_ADVANCE = 20
"""Decisions answered by the simple policy before the vehicle scenario is measured."""


def largest_scenario() -> str:
    """The shipped scenario whose game has the most characters after set-up (ties: by id)."""
    from solo.core.resources import maps_dir
    from solo.data.house import load_data
    from solo.playtest.play import new_game

    data = load_data()
    best = ("", -1)
    for p in sorted((maps_dir() / "scenarios").glob("*.yaml")):
        n = len(new_game(p.stem, seed=1, data=data).state.characters)
        if n > best[1]:
            best = (p.stem, n)
    return best[0]


def measure_frames(
    scenario: str | None = None,
    *,
    size: tuple[int, int] = (1600, 1000),
    frames: int = 120,
    seed: int = 1,
    advance: int = 0,
) -> dict:
    """Median frame time (ms) of the window on ``scenario`` (default: the largest) at ``size``.

    ``advance`` decisions are first answered by the simple policy (not timed).
    Each measured frame handles one mouse move to the next hex (a unit is
    selected, so the LOS line is drawn) and redraws the whole window.
    """
    use_dummy_driver_if_headless()
    import pygame

    from solo.render.app import Window
    from solo.render.session import new_session

    scenario = scenario or largest_scenario()
    t0 = time.perf_counter()
    session = new_session(scenario, seed=seed)
    window = Window(session, size=size, resizable=False)
    window.draw()
    first = time.perf_counter() - t0
    game = session.game
    if advance:
        from solo.playtest.policies import SimplePolicy

        policy = SimplePolicy()
        for _ in range(advance):
            if game.pending is None:
                break
            game.apply(policy(game, game.pending))
        window.controller.dirty = True
        window.draw()
    view = window.view
    friendly = [c for c in game.state.active() if c.side.value == "friendly"]
    view.ui.selected = friendly[0].id if friendly else None
    hexes = [h for h in game.board.hexes if view.layout.map.collidepoint(view.camera.centre(h))]
    times = []
    for i in range(frames):
        pos = tuple(round(v) for v in view.camera.centre(hexes[(i * 7) % len(hexes)]))
        ev = pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        t = time.perf_counter()
        window.step([ev])
        times.append(time.perf_counter() - t)
    # a zoom step redraws the static map layer once
    t = time.perf_counter()
    view.camera.zoom(1)
    window.controller.dirty = True
    window.step([])
    zoom_frame = time.perf_counter() - t
    window.close()
    times.sort()
    vehicles = getattr(game.state, "vehicles", {}) or {}
    return {
        "scenario": scenario,
        "vehicles": len(vehicles),
        "target_markers": sum(len(v.markers()) for v in vehicles.values()),
        "size": f"{size[0]}x{size[1]}",
        "frames": frames,
        "median_ms": round(statistics.median(times) * 1000, 2),
        "p90_ms": round(times[int(len(times) * 0.9) - 1] * 1000, 2),
        "max_ms": round(times[-1] * 1000, 2),
        "zoom_frame_ms": round(zoom_frame * 1000, 2),
        "first_frame_in_process_s": round(first, 3),
        "video_driver": os.environ.get("SDL_VIDEODRIVER", "default"),
    }


def measure_play_startup(scenario: str | None = None, *, size: str = "1600x1000") -> float:
    """Seconds from starting ``solo play SCENARIO --frames 1`` to its exit (first frame drawn)."""
    env = dict(os.environ)
    if not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        env["SDL_VIDEODRIVER"] = "dummy"
        env.setdefault("SDL_AUDIODRIVER", "dummy")
    cmd = [sys.executable, "-m", "solo.cli.main", "play", *([scenario] if scenario else []), "--frames", "1"]
    cmd += ["--size", size]
    t = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    return time.perf_counter() - t


def bench_window(quick: bool = False) -> dict:
    """The window's numbers for ``tools/bench``: frame times and start-up (see the module docstring)."""
    scenario = largest_scenario()
    out = measure_frames(scenario, frames=40 if quick else 200)
    out["play_to_first_frame_s"] = round(measure_play_startup(scenario), 3)
    out["target_median_ms"] = 16
    if scenario != VEHICLE_SCENARIO:
        out["with_vehicles"] = measure_frames(
            VEHICLE_SCENARIO, frames=40 if quick else 200, advance=VEHICLE_ADVANCE
        )
    return out
