"""Where things are on the screen: the map camera (zoom, pan, hex ↔ pixel) and the panel layout.

Pure geometry over pygame ``Rect`` values; nothing here draws or changes the
game. :class:`Camera` maps world units (hex circumradius 1, from
:func:`solo.core.hexes.pixel_centre`) to screen pixels; :class:`Layout` cuts the
window into the map, the top bar (turn, impulse, Initiative Track), the hand,
the Enemy cards, the decision panel and the log.
"""

from __future__ import annotations

import math

import attrs
import pygame

from solo.core.hexes import Hex, pixel_centre
from solo.data.maps import Board

SQRT3 = math.sqrt(3.0)
ZOOM_STEP = 1.25
"""Each wheel notch or +/- key multiplies the hex size by this."""
MIN_ZOOM_STEP = -3
MAX_ZOOM_STEP = 5


class Camera:
    """The map's zoom and pan: world coordinates (hex circumradius 1) to screen pixels.

    ``scale`` is the hex circumradius in pixels; zoom is in discrete steps of
    :data:`ZOOM_STEP` from the fit-to-rectangle scale, so the static map layer
    can be cached per step.
    """

    def __init__(self, board: Board, rect: pygame.Rect) -> None:
        self.board = board
        self.stagger = board.map.stagger
        self.rect = pygame.Rect(rect)
        self._centres: dict[Hex, tuple[float, float]] = {
            h: pixel_centre(h, self.stagger) for h in board.hexes
        }
        xs = [c[0] for c in self._centres.values()]
        ys = [c[1] for c in self._centres.values()]
        self.world = (min(xs) - 1.05, min(ys) - SQRT3 / 2 - 0.05, max(xs) + 1.05, max(ys) + SQRT3 / 2 + 0.05)
        """(left, top, right, bottom) of the map in world units."""
        self._row0 = {c: pixel_centre(Hex(c, 0), self.stagger)[1] for c in range(board.map.columns)}
        self.step = 0
        self.fit_scale = 1.0
        self.scale = 1.0
        self.origin = (0.0, 0.0)
        self.fit(self.rect)

    # -- zoom and pan ------------------------------------------------------

    def fit(self, rect: pygame.Rect) -> None:
        """Fit the whole map in ``rect`` (zoom step 0, centred)."""
        self.rect = pygame.Rect(rect)
        left, top, right, bottom = self.world
        ww, wh = right - left, bottom - top
        self.fit_scale = max(2.0, min(self.rect.width / ww, self.rect.height / wh))
        self.step = 0
        self.scale = self.fit_scale
        self.origin = (
            self.rect.centerx - (left + ww / 2) * self.scale,
            self.rect.centery - (top + wh / 2) * self.scale,
        )

    def zoom(self, steps: int, about: tuple[float, float] | None = None) -> None:
        """Zoom by ``steps`` notches (+ in), keeping the point ``about`` (default the centre) still."""
        new = max(MIN_ZOOM_STEP, min(MAX_ZOOM_STEP, self.step + steps))
        if new == self.step:
            return
        ax, ay = about if about is not None else self.rect.center
        wx, wy = self.to_world((ax, ay))
        self.step = new
        self.scale = self.fit_scale * ZOOM_STEP**new
        self.origin = (ax - wx * self.scale, ay - wy * self.scale)
        self._clamp()

    def pan(self, dx: float, dy: float) -> None:
        """Move the map ``dx``, ``dy`` pixels (kept partly on screen)."""
        self.origin = (self.origin[0] + dx, self.origin[1] + dy)
        self._clamp()

    def _clamp(self) -> None:
        left, top, right, bottom = self.world
        ox, oy = self.origin
        margin = 80
        # The map's right edge stays right of rect.left + margin, its left edge left of rect.right - margin.
        ox = min(ox, self.rect.right - margin - left * self.scale)
        ox = max(ox, self.rect.left + margin - right * self.scale)
        oy = min(oy, self.rect.bottom - margin - top * self.scale)
        oy = max(oy, self.rect.top + margin - bottom * self.scale)
        self.origin = (ox, oy)

    # -- conversions -------------------------------------------------------

    def to_screen(self, wx: float, wy: float) -> tuple[float, float]:
        """Screen pixel of a world point."""
        return (self.origin[0] + wx * self.scale, self.origin[1] + wy * self.scale)

    def to_world(self, pos: tuple[float, float]) -> tuple[float, float]:
        """World point of a screen pixel."""
        return ((pos[0] - self.origin[0]) / self.scale, (pos[1] - self.origin[1]) / self.scale)

    def centre(self, h: Hex) -> tuple[float, float]:
        """Screen pixel of the centre of hex ``h``."""
        wx, wy = self._centres[h] if h in self._centres else pixel_centre(h, self.stagger)
        return (self.origin[0] + wx * self.scale, self.origin[1] + wy * self.scale)

    def world_centre(self, h: Hex) -> tuple[float, float]:
        """World point of the centre of hex ``h``."""
        return self._centres[h] if h in self._centres else pixel_centre(h, self.stagger)

    def hex_at(self, pos: tuple[float, float]) -> Hex | None:
        """The map hex under screen pixel ``pos``, or None (off the map or outside the map rectangle)."""
        if not self.rect.collidepoint(pos):
            return None
        wx, wy = self.to_world(pos)
        col0 = round(wx / 1.5)
        best: Hex | None = None
        best_d = 1e9
        for c in (col0 - 1, col0, col0 + 1):
            if c not in self._row0:
                continue
            r0 = round((wy - self._row0[c]) / SQRT3)
            for r in (r0 - 1, r0, r0 + 1):
                if not 0 <= r <= 99:
                    continue
                h = Hex(c, r)
                cen = self._centres.get(h)
                if cen is None:
                    continue
                d = (cen[0] - wx) ** 2 + (cen[1] - wy) ** 2
                if d < best_d:
                    best, best_d = h, d
        return best if best is not None and best_d <= 1.0 else None

    def corners(self, h: Hex, radius: float = 1.0) -> list[tuple[float, float]]:
        """Screen corners of flat-topped hex ``h`` (``radius`` as a fraction of the circumradius)."""
        cx, cy = self.centre(h)
        r = self.scale * radius
        return [(cx + r * _COS[i], cy + r * _SIN[i]) for i in range(6)]


_COS = tuple(math.cos(math.radians(60 * i)) for i in range(6))
_SIN = tuple(math.sin(math.radians(60 * i)) for i in range(6))


def hex_corners(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Corners of a flat-topped hex of circumradius ``r`` centred on (cx, cy)."""
    return [(cx + r * _COS[i], cy + r * _SIN[i]) for i in range(6)]


def hexside_segment(
    a: tuple[float, float], b: tuple[float, float], r: float
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two ends of the hexside between hexes centred at ``a`` and ``b`` (adjacent), circumradius ``r``."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    px, py = -dy / n * r / 2, dx / n * r / 2
    return (mx - px, my - py), (mx + px, my + py)


# ---------------------------------------------------------------------------
# Panels


LEGEND_H = 40
"""Height in pixels of the legend strip under the map: counters and markers, then terrain."""


@attrs.frozen
class Layout:
    """The rectangles of the window for a given size (pixels).

    Top bar across; the map at the left under it, with the legend in its own strip below it
    (never over the map); the Friendly hand and the Enemy cards under that; the decision panel
    and the log at the right.
    """

    size: tuple[int, int]
    top: pygame.Rect
    map: pygame.Rect
    hand: pygame.Rect
    enemy_cards: pygame.Rect
    decision: pygame.Rect
    log: pygame.Rect
    legend: pygame.Rect

    @classmethod
    def for_size(cls, size: tuple[int, int]) -> Layout:
        """The layout of a ``size`` = (width, height) window (works from 800×500 up)."""
        w, h = max(640, size[0]), max(420, size[1])
        right_w = max(340, min(560, int(w * 0.29)))
        top_h = 70
        bottom_h = max(150, min(230, int(h * 0.2)))
        map_w = w - right_w
        top = pygame.Rect(0, 0, w, top_h)
        mp = pygame.Rect(0, top_h, map_w, h - top_h - bottom_h - LEGEND_H)
        legend = pygame.Rect(0, mp.bottom, map_w, LEGEND_H)
        enemy_w = max(200, int(map_w * 0.26))
        hand = pygame.Rect(0, h - bottom_h, map_w - enemy_w, bottom_h)
        enemy = pygame.Rect(map_w - enemy_w, h - bottom_h, enemy_w, bottom_h)
        dec_h = int((h - top_h) * 0.46)
        decision = pygame.Rect(map_w, top_h, right_w, dec_h)
        log = pygame.Rect(map_w, top_h + dec_h, right_w, h - top_h - dec_h)
        return cls((w, h), top, mp, hand, enemy, decision, log, legend)


@attrs.frozen
class Hotspot:
    """A clickable rectangle and what a click there means.

    ``action`` is a tuple: ``("option", key)`` answers the pending decision,
    ``("card", card_id)`` a card in the hand, ``("tool", name)`` a toolbar
    button, ``("log", name)`` a log-panel control.
    """

    rect: pygame.Rect
    action: tuple[str, ...]
    label: str = ""
