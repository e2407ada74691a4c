"""The pygame window and headless snapshots (issue 5): the only package of `solo` that imports pygame.

Importing ``solo.render`` itself does not import pygame (so ``solo play`` can
say there is no display without loading it); its modules do:

* :mod:`solo.render.view` — camera (zoom, pan, hex ↔ pixel) and panel layout;
* :mod:`solo.render.board` — the map, counters, markers and LOS line;
* :mod:`solo.render.counter_marks` — order-marker abbreviations and team colours
  (counters, panels and vehicle displays share them);
* :mod:`solo.render.vehicle_counters` — vehicle counters on the map (C2 31);
* :mod:`solo.render.target_markers` — Target Markers and their links (C2 31.7);
* :mod:`solo.render.vehicle_displays` — the vehicle displays (printed mats, C2 31);
* :mod:`solo.render.vehicle_labels` — the words printed for vehicles (names,
  position initials, orders, hatches, damage);
* :mod:`solo.render.panels` — the window's UI state, top bar and Initiative
  Track, hand, Enemy cards, log, tooltip;
* :mod:`solo.render.decision_panel` — the decision panel and its toolbar;
* :mod:`solo.render.frame` — :class:`~solo.render.frame.GameView`, one frame of
  the whole window drawn from a read-only game;
* :mod:`solo.render.controller` — pygame events → ``game.apply(...)``;
* :mod:`solo.render.app` — the window's loop, table-mode dialogs, ``solo play``;
* :mod:`solo.render.session` — new, loaded and saved games (no pygame);
* :mod:`solo.render.snapshot` — ``solo render`` (PNG files);
* :mod:`solo.render.bench` — frame-time measurements for ``tools/bench``;
* :mod:`solo.render.map_editor` — ``solo edit``, the map editor.

May import: :mod:`solo.playtest` and every room below it, and pygame; never :mod:`solo.cli`.
"""

from __future__ import annotations

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def display_available() -> bool:
    """Whether a window can open: X11 or Wayland is set, or SDL's dummy driver is asked for."""
    if os.environ.get("SDL_VIDEODRIVER", "") == "dummy":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def use_dummy_driver_if_headless() -> None:
    """Select SDL's dummy video (and audio) driver when there is no display (before pygame starts)."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
