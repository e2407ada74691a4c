"""The art of one hex's terrain: its pattern over the fill, its overlays (markers), tints.

Drawn by the static map layer (:class:`solo.render.board.MapLayer`) and over it for a hex whose
terrain changed in play (a Building hit becomes Rubble, base-rules §14).
"""

from __future__ import annotations

import math

import pygame

from solo.core.hexes import Hex
from solo.render import theme
from solo.render.view import hex_corners


def tint(c: theme.Colour, to: theme.Colour, t: float) -> theme.Colour:
    """``c`` moved the fraction ``t`` (0-1) of the way toward ``to``."""
    return (
        round(c[0] + (to[0] - c[0]) * t),
        round(c[1] + (to[1] - c[1]) * t),
        round(c[2] + (to[2] - c[2]) * t),
    )


def draw_pattern(
    surf: pygame.Surface, tid: str, cx: float, cy: float, s: float, hx: Hex, base: theme.Colour
) -> None:
    """Draw terrain ``tid``'s pattern in the hex; the centre point keeps the fill colour."""
    dark = theme.shade(base, -34)
    v = (hx.col * 7 + hx.row * 13) % 5
    if tid == "trees":
        for ang, rad in ((30 + v * 11, 0.5), (150 + v * 7, 0.52), (270 + v * 5, 0.5)):
            a = math.radians(ang)
            pygame.draw.circle(surf, dark, (cx + math.cos(a) * s * rad, cy + math.sin(a) * s * rad), s * 0.26)
    elif tid == "orchard":
        for dx, dy in ((-0.4, -0.35), (0.4, -0.35), (-0.4, 0.35), (0.4, 0.35)):
            pygame.draw.circle(surf, (70, 120, 60), (cx + dx * s, cy + dy * s), max(1.5, s * 0.12))
    elif tid == "field":
        for k in (-0.6, -0.3, 0.3, 0.6):
            pygame.draw.line(surf, dark, (cx - s * 0.55, cy + k * s), (cx + s * 0.55, cy + k * s), 1)
    elif tid == "long_grass":
        for dx, dy in ((-0.45, -0.3), (0.35, -0.45), (-0.2, 0.4), (0.5, 0.3), (0.0, -0.6)):
            x, y = cx + dx * s, cy + dy * s
            pygame.draw.line(surf, dark, (x, y), (x - s * 0.06, y - s * 0.18), 1)
            pygame.draw.line(surf, dark, (x, y), (x + s * 0.06, y - s * 0.18), 1)
    elif tid in ("building", "fortified_building"):
        inner = hex_corners(cx, cy, s * 0.78)
        pygame.draw.polygon(surf, dark, inner, max(1, round(s * 0.08)))
        if tid == "fortified_building":
            pygame.draw.polygon(surf, (40, 30, 30), hex_corners(cx, cy, s * 0.6), max(1, round(s * 0.06)))
    elif tid == "rocks":
        for dx, dy, r in ((-0.4, -0.2, 0.18), (0.35, 0.3, 0.15), (0.2, -0.45, 0.12), (-0.2, 0.45, 0.14)):
            pygame.draw.circle(surf, dark, (cx + dx * s, cy + dy * s), s * r)
    elif tid == "marsh":
        for dx, dy in ((-0.4, -0.35), (0.25, -0.2), (-0.2, 0.3), (0.4, 0.45)):
            x, y = cx + dx * s, cy + dy * s
            pygame.draw.line(
                surf, (60, 110, 170), (x - s * 0.15, y), (x + s * 0.15, y), max(1, round(s * 0.06))
            )
    elif tid == "stream":
        pygame.draw.line(
            surf, theme.shade(base, 30), (cx - s * 0.5, cy - s * 0.3), (cx - s * 0.1, cy - s * 0.3), 1
        )
        pygame.draw.line(
            surf, theme.shade(base, 30), (cx + s * 0.1, cy + s * 0.3), (cx + s * 0.5, cy + s * 0.3), 1
        )
    elif tid in ("depression", "crater"):
        pygame.draw.circle(surf, dark, (cx, cy), s * 0.62, max(1, round(s * 0.07)))
    elif tid == "logs":
        for dy in (-0.4, 0.4):
            pygame.draw.line(
                surf,
                (110, 80, 40),
                (cx - s * 0.45, cy + dy * s),
                (cx + s * 0.45, cy + dy * s),
                max(2, round(s * 0.1)),
            )
    elif tid == "rubble":
        for dx, dy in ((-0.5, -0.1), (-0.2, -0.5), (0.3, -0.35), (0.45, 0.2), (-0.3, 0.45), (0.1, 0.55)):
            pygame.draw.circle(surf, dark, (cx + dx * s, cy + dy * s), max(1.5, s * 0.07))
    elif tid == "fountain":
        pygame.draw.circle(surf, (90, 150, 220), (cx, cy), s * 0.45, max(2, round(s * 0.12)))
    elif tid in ("hedge", "bocage"):
        pygame.draw.polygon(surf, dark, hex_corners(cx, cy, s * 0.8), max(2, round(s * 0.16)))
    elif tid == "wall":
        pygame.draw.polygon(
            surf, theme.shade(base, -50), hex_corners(cx, cy, s * 0.7), max(2, round(s * 0.1))
        )
    elif tid == "abbey_interior":
        for k in (-0.5, 0.5):
            pygame.draw.line(surf, dark, (cx - s * 0.5, cy + k * s), (cx + s * 0.5, cy + k * s), 1)
            pygame.draw.line(surf, dark, (cx + k * s, cy - s * 0.7), (cx + k * s, cy + s * 0.7), 1)
    elif tid == "abbey_exterior":
        pygame.draw.polygon(surf, dark, hex_corners(cx, cy, s * 0.8), max(2, round(s * 0.12)))


def draw_overlay(surf: pygame.Surface, ov: str, cx: float, cy: float, s: float) -> None:
    """Overlay markers printed on a hex: foxholes, trenches, barbed wire, craters, fortifications."""
    w = max(1, round(s * 0.07))
    if ov == "foxhole":
        for dx in (-0.35, 0.35):
            r = pygame.Rect(0, 0, s * 0.5, s * 0.4)
            r.center = (round(cx + dx * s), round(cy + s * 0.45))
            pygame.draw.arc(surf, (100, 70, 30), r, math.pi, 2 * math.pi, max(2, w))
    elif ov == "trench":
        pts = [(cx - s * 0.7 + i * s * 0.2, cy + (0.15 if i % 2 else -0.15) * s) for i in range(8)]
        pygame.draw.lines(surf, (100, 70, 30), False, pts, max(2, w))
    elif ov == "barbed_wire":
        for k in range(-2, 3):
            x = cx + k * s * 0.25
            pygame.draw.line(
                surf, (40, 40, 40), (x - s * 0.1, cy - s * 0.55), (x + s * 0.1, cy - s * 0.35), w
            )
            pygame.draw.line(
                surf, (40, 40, 40), (x + s * 0.1, cy - s * 0.55), (x - s * 0.1, cy - s * 0.35), w
            )
        pygame.draw.line(surf, (40, 40, 40), (cx - s * 0.6, cy - s * 0.45), (cx + s * 0.6, cy - s * 0.45), 1)
    elif ov == "crater":
        pygame.draw.circle(surf, (90, 70, 50), (cx, cy), s * 0.45, max(2, w))
    elif ov == "fortified_building":
        pygame.draw.polygon(surf, (40, 30, 30), hex_corners(cx, cy, s * 0.6), max(2, w))


# ---------------------------------------------------------------------------
# Counters
