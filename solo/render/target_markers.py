"""Target Markers on the map (C2 31.7.3-31.7.5): where each is drawn and the line to its vehicle.

* :func:`marker_spots`: where each crewman's Target Marker is drawn — a ringed
  cross-hair with the owner's position initial (C, G, D, L, CD) on its hex,
  markers sharing a hex spread around it (:data:`MARKER_SLOTS`);
* :func:`draw_marker_links`: the thin line linking each marker to its vehicle
  (under the counters); :func:`draw_target_markers`: the markers (over them).

May import: :mod:`solo.render.theme`, :mod:`solo.render.view`,
:mod:`solo.render.vehicle_labels`, ``solo.rules`` and lower rooms (never
:mod:`solo.render.board`, which calls these in its layers).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import attrs
import pygame

from solo.core.hexes import Hex
from solo.render import theme
from solo.render.vehicle_labels import position_initial
from solo.render.view import Camera
from solo.rules.state import Side
from solo.rules.vehicles.state import vehicles_of

if TYPE_CHECKING:
    from solo.engine.game import Game
    from solo.render.theme import Fonts

MARKER_SLOTS: tuple[tuple[float, float], ...] = (
    (-0.4, -0.78),
    (0.4, -0.78),
    (-0.4, 0.78),
    (0.4, 0.78),
    (-0.9, 0.0),
    (0.9, 0.0),
    (0.0, -0.78),
    (0.0, 0.78),
)
"""Where the 1st, 2nd, ... Target Marker on one hex is drawn, in hex radii from its centre: along
the hex's top edge first, so the counters' names and TQs stay readable."""


@attrs.frozen
class MarkerSpot:
    """Where one Target Marker is drawn: its symbol and the link to its vehicle (pixels)."""

    vehicle: str
    position: str
    hex: Hex
    centre: tuple[float, float]
    radius: float
    start: tuple[float, float] | None
    """The link line's start: the vehicle's centre, under its counter (None: the marker is on the
    vehicle's own hex)."""
    end: tuple[float, float]
    """The link line's end at the marker's rim."""
    colour: theme.Colour
    label: str

    @property
    def ring_width(self) -> int:
        """Width of the marker's coloured ring in pixels."""
        return max(2, round(self.radius * 0.3))

    def ring_point(self) -> tuple[float, float]:
        """A pixel inside the coloured ring (straight above the centre, where the top tick joins it)."""
        return (self.centre[0], self.centre[1] - (self.radius - self.ring_width / 2))

    def link_point(self, t: float = 0.5) -> tuple[float, float] | None:
        """A point ``t`` of the way along the link line (None without a line)."""
        if self.start is None:
            return None
        return (
            self.start[0] + (self.end[0] - self.start[0]) * t,
            self.start[1] + (self.end[1] - self.start[1]) * t,
        )


def marker_radius(camera: Camera) -> float:
    """A Target Marker's radius in pixels at the camera's zoom."""
    return max(6.5, camera.scale * 0.28)


def link_width(camera: Camera) -> int:
    """The marker link line's width in pixels."""
    return max(2, round(camera.scale * 0.08))


def marker_spots(game: Game, camera: Camera) -> list[MarkerSpot]:
    """Every Target Marker on the board (vehicles in scenario order, seats in display order)."""
    s = camera.scale
    rad = marker_radius(camera)
    count: dict[Hex, int] = {}
    out: list[MarkerSpot] = []
    for v in vehicles_of(game.state).values():
        for pos, h in v.markers():
            if not game.board.map.has_hex(h):
                continue
            k = count.get(h, 0)
            count[h] = k + 1
            cx, cy = camera.centre(h)
            sx, sy = MARKER_SLOTS[k % len(MARKER_SLOTS)]
            if k >= len(MARKER_SLOTS):
                sx, sy = sx * 0.5, sy * 0.5
            mc = (cx + sx * s, cy + sy * s)
            colour = theme.MARKER_COLOURS["friendly" if v.side is Side.FRIENDLY else "enemy"]
            start = None
            end = mc
            if v.hex is not None and v.hex != h and game.board.map.has_hex(v.hex):
                vx, vy = camera.centre(v.hex)
                dx, dy = mc[0] - vx, mc[1] - vy
                d = math.hypot(dx, dy) or 1.0
                start = (vx, vy)
                end = (mc[0] - dx / d * rad, mc[1] - dy / d * rad)
            out.append(MarkerSpot(v.id, pos, h, mc, rad, start, end, colour, position_initial(pos)))
    return out


def draw_marker_links(surface: pygame.Surface, game: Game, camera: Camera) -> list[MarkerSpot]:
    """The thin lines from each vehicle to its crew's Target Markers; returns the spots."""
    spots = marker_spots(game, camera)
    w = link_width(camera)
    for sp in spots:
        if sp.start is not None:
            pygame.draw.line(surface, sp.colour, sp.start, sp.end, w)
    return spots


def draw_target_markers(
    surface: pygame.Surface, game: Game, camera: Camera, fonts: Fonts, spots: list[MarkerSpot] | None = None
) -> None:
    """Each Target Marker: a white disc, a ring and cross-hair ticks in the side's colour, the owner's
    position initial (C2 31.7.3)."""
    for sp in spots if spots is not None else marker_spots(game, camera):
        cx, cy = sp.centre
        r = sp.radius
        pygame.draw.circle(surface, (252, 252, 248), (cx, cy), r)
        pygame.draw.circle(surface, sp.colour, (cx, cy), r, sp.ring_width)
        tick = max(2.0, r * 0.4)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            pygame.draw.line(
                surface,
                sp.colour,
                (cx + dx * r, cy + dy * r),
                (cx + dx * (r + tick), cy + dy * (r + tick)),
                2,
            )
        size = max(7, round(r * (1.05 if len(sp.label) == 1 else 0.8)))
        t = fonts.text(sp.label, size, sp.colour, bold=True, condensed=True)
        surface.blit(t, t.get_rect(center=(round(cx), round(cy))))
