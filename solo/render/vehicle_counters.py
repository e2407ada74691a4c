"""Vehicle counters on the map (C2 31): drawn, cached, found under the mouse.

* :func:`render_vehicle`: one vehicle counter at a zoom — a hull in its side's
  colour turned to ``vehicle.facing`` (direction 1 up, clockwise; C2 31.4), an
  AFV's turret and gun turned to ``vehicle.turret`` (31.6), the name
  abbreviation, the Loaded marker (31.9.4) and damage marks (immobilized, fire,
  destroyed, abandoned; 31.10.8); cached by what it shows (:class:`VehicleCache`).
* :func:`draw_vehicles`: every vehicle on the map, the active crew's and the
  selected one ringed; :func:`vehicle_at` and :func:`vehicle_hexes` for hit-tests
  and for moving men aside (:mod:`solo.render.board`).

Crew and passengers aboard are never separate counters on the map (their
vehicle shows them); bailed-out men are ordinary counters.

May import: :mod:`solo.render.theme`, :mod:`solo.render.view`,
:mod:`solo.render.vehicle_labels`, ``solo.rules`` and lower rooms (never
:mod:`solo.render.board`, which draws these counters in its layers).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pygame

from solo.core.hexes import Hex
from solo.render import theme
from solo.render.vehicle_labels import damage_labels, vehicle_abbrev, vehicle_type
from solo.render.view import Camera
from solo.rules.state import Side
from solo.rules.vehicles.state import Vehicle, vehicles_of

if TYPE_CHECKING:
    from solo.engine.game import Game
    from solo.render.theme import Fonts


def _kind(game: Game, v: Vehicle) -> str:
    vt = vehicle_type(game, v)
    if vt is not None:
        return vt.kind.value
    return "afv" if v.turret is not None else "truck"


def facing_angle(direction: int) -> float:
    """Screen angle (radians, clockwise from +x) of map direction 1-6 (1 up, clockwise)."""
    return math.radians(-90 + 60 * (int(direction) - 1))


def _turn(
    cx: float, cy: float, ang: float, pts: list[tuple[float, float]], s: float
) -> list[tuple[float, float]]:
    """Points given as (ahead, right) in hex radii, turned to ``ang`` about (cx, cy), in pixels."""
    ca, sa = math.cos(ang), math.sin(ang)
    return [(cx + (u * ca - v * sa) * s, cy + (u * sa + v * ca) * s) for u, v in pts]


def _box(u0: float, u1: float, v0: float, v1: float) -> list[tuple[float, float]]:
    return [(u0, v0), (u1, v0), (u1, v1), (u0, v1)]


HULL_SIZE: dict[str, tuple[float, float]] = {
    "afv": (1.44, 0.96),
    "half_track": (1.46, 0.82),
    "truck": (1.46, 0.78),
    "jeep": (1.04, 0.64),
}
"""(length, width) of a hull, in hex circumradii, by vehicle kind."""


def vehicle_key(game: Game, v: Vehicle) -> tuple[Any, ...]:
    """Everything a vehicle counter shows (its cache key)."""
    return (
        v.type,
        _kind(game, v),
        v.side.value,
        int(v.facing),
        None if v.turret is None else int(v.turret),
        None if v.loaded is None else v.loaded.value,
        tuple(damage_labels(v)),
        vehicle_abbrev(v),
    )


def counter_tags(v: Vehicle) -> list[tuple[str, theme.Colour]]:
    """The damage tags printed on the counter (the display lists every marker)."""
    tags: list[tuple[str, theme.Colour]] = []
    if v.destroyed:
        tags.append(("KO", theme.WRECK_TAG))
    elif v.abandoned:
        tags.append(("ABND", theme.ABANDONED_TAG))
    if v.on_fire:
        tags.append(("FIRE", theme.FIRE))
    if "immobilized" in v.damage:
        tags.append(("IMM", theme.DAMAGE_TAG))
    elif v.mired:
        tags.append(("MIRED", theme.DAMAGE_TAG))
    if "turret_jammed" in v.damage:
        tags.append(("TJ", theme.DAMAGE_TAG))
    if "main_gun_destroyed" in v.damage:
        tags.append(("GUN", theme.DAMAGE_TAG))
    return tags


def hull_colours(v: Vehicle) -> dict[str, theme.Colour]:
    """The paints of a vehicle counter: ``hull`` (the side's colour, a wreck's, or greyed when
    abandoned), ``dark`` (cab), ``light`` (glacis), ``turret`` and ``gun``."""
    base = theme.VEHICLE_COLOURS["friendly" if v.side is Side.FRIENDLY else "enemy"]
    if v.destroyed:
        base = theme.WRECK
    elif v.abandoned:
        base = theme.mix(base, (180, 180, 180), 0.55)
    dark = theme.shade(base, -45)
    light = theme.shade(base, 28)
    return {
        "hull": base,
        "dark": dark,
        "light": light,
        "turret": dark if v.destroyed else light,
        "gun": theme.shade(base, 12),
    }


def render_vehicle(game: Game, v: Vehicle, scale: float, fonts: Fonts) -> pygame.Surface:
    """One vehicle counter on a transparent square of side ``2.1 * scale`` centred on its hex.

    Hull in the side's colour (:data:`theme.VEHICLE_COLOURS`) turned to the hull
    facing, the front bevelled with a lighter glacis; tracks for AFVs and
    half-tracks, a cab for trucks and jeeps; an AFV's turret and gun turned to
    the turret facing. A destroyed vehicle is a dark wreck crossed out; an
    abandoned one is greyed. Name at the bottom, Loaded marker at the top right,
    damage tags at the top left (C2 31.4, 31.6, 31.9.4, 31.10.8).
    """
    s = float(scale)
    half = math.ceil(s * 1.05) + 1
    surf = pygame.Surface((2 * half, 2 * half), pygame.SRCALPHA)
    c = half
    kind = _kind(game, v)
    length, width = HULL_SIZE.get(kind, HULL_SIZE["truck"])
    lh, wh = length / 2, width / 2
    paint = hull_colours(v)
    base, dark, light, gun = paint["hull"], paint["dark"], paint["light"], paint["gun"]
    edge = theme.VEHICLE_EDGE
    ang = facing_angle(v.facing)
    lw = max(1, round(s * 0.06))

    def poly(pts: list[tuple[float, float]], colour: theme.Colour, w: int = 0) -> None:
        pygame.draw.polygon(surf, colour, _turn(c, c, ang, pts, s), w)

    bevel = 0.16 * width
    hull = [
        (-lh, -wh),
        (lh - bevel, -wh),
        (lh, -wh + bevel),
        (lh, wh - bevel),
        (lh - bevel, wh),
        (-lh, wh),
    ]
    poly(hull, base)
    if kind in ("afv", "half_track"):
        tw = 0.17 * width
        front = lh - bevel if kind == "afv" else 0.1
        for side in (-1, 1):
            v0, v1 = (side * wh, side * (wh - tw)) if side < 0 else (wh - tw, wh)
            poly(_box(-lh, front, min(v0, v1), max(v0, v1)), theme.TRACKS)
        if kind == "afv":
            poly(
                [
                    (lh - bevel, -wh + tw),
                    (lh, -wh + tw + bevel * 0.3),
                    (lh, wh - tw - bevel * 0.3),
                    (lh - bevel, wh - tw),
                    (lh - 0.3, wh - tw),
                    (lh - 0.3, -wh + tw),
                ],
                light,
            )
        else:
            poly(_box(0.12, 0.42, -wh + 0.04, wh - 0.04), dark)  # the cab
            for side in (-1, 1):  # front wheels
                poly(_box(0.45, 0.66, side * wh - 0.06, side * wh + 0.06), theme.TRACKS)
    else:
        cab0 = lh - (0.42 if kind == "truck" else 0.36)
        poly(_box(cab0, lh - 0.05, -wh + 0.05, wh - 0.05), dark)  # cab / windscreen
        if kind == "truck":
            for k in (-0.45, -0.15, 0.15):  # the bed's slats
                pygame.draw.line(
                    surf, dark, *_turn(c, c, ang, [(k, -wh + 0.06), (k, wh - 0.06)], s), max(1, lw)
                )
        for u in (-lh + 0.22, lh - 0.25) if kind == "truck" else (-lh + 0.18, lh - 0.18):
            for side in (-1, 1):
                poly(_box(u - 0.1, u + 0.1, side * wh - 0.05, side * wh + 0.05), theme.TRACKS)
    poly(hull, edge, lw)
    # the turret and its gun (C2 31.6)
    if kind == "afv" and v.turret is not None:
        tang = facing_angle(v.turret)
        tr = 0.27 * s
        tx, ty = c - math.cos(ang) * 0.06 * s, c - math.sin(ang) * 0.06 * s
        gun_len = 0.95 * s
        gx, gy = tx + math.cos(tang) * gun_len, ty + math.sin(tang) * gun_len
        gw = max(2, round(s * 0.1))
        broken = "main_gun_destroyed" in v.damage
        if broken:
            gx, gy = tx + math.cos(tang) * gun_len * 0.55, ty + math.sin(tang) * gun_len * 0.55
        pygame.draw.line(surf, edge, (tx, ty), (gx, gy), gw + 2)
        pygame.draw.line(surf, gun, (tx, ty), (gx, gy), gw)
        if broken:
            k = max(3, s * 0.12)
            pygame.draw.line(surf, theme.DAMAGE_TAG, (gx - k, gy - k), (gx + k, gy + k), 2)
            pygame.draw.line(surf, theme.DAMAGE_TAG, (gx - k, gy + k), (gx + k, gy - k), 2)
        pygame.draw.circle(surf, paint["turret"], (tx, ty), tr)
        pygame.draw.circle(surf, edge, (tx, ty), tr, lw)
    # fire and wreck marks (C2 31.10.8)
    if v.on_fire:
        for du, dv, hgt in ((-0.35, -0.18, 0.42), (0.0, 0.1, 0.55), (0.32, -0.1, 0.4)):
            bx, by = _turn(c, c, ang, [(du, dv)], s)[0]
            fl = [(bx - s * 0.16, by + s * 0.16), (bx, by - s * hgt), (bx + s * 0.16, by + s * 0.16)]
            pygame.draw.polygon(surf, theme.FIRE, fl)
            core = [(bx - s * 0.07, by + s * 0.14), (bx, by - s * hgt * 0.5), (bx + s * 0.07, by + s * 0.14)]
            pygame.draw.polygon(surf, theme.ILLUMINATION, core)
    if v.destroyed:
        pts = _turn(c, c, ang, [(-lh, -wh), (lh, wh), (-lh, wh), (lh, -wh)], s)
        xw = max(2, round(s * 0.09))
        pygame.draw.line(surf, theme.WRECK_CROSS, pts[0], pts[1], xw)
        pygame.draw.line(surf, theme.WRECK_CROSS, pts[2], pts[3], xw)
    # name plate behind the vehicle: at the bottom of the hex when it faces up (1, 2, 6), else the top
    size = max(7, round(s * 0.3))
    name = fonts.text(vehicle_abbrev(v), size, (250, 250, 245), bold=True, condensed=True)
    behind = 1 if int(v.facing) in (1, 2, 6) else -1
    plate = name.get_rect(center=(c, c + behind * s * 0.66)).inflate(4, 0)
    pygame.draw.rect(surf, theme.shade(base, -60), plate, border_radius=3)
    surf.blit(name, name.get_rect(center=plate.center))
    # the Loaded marker (C2 31.9.4) on the right and damage tags on the left, at the plate's other end
    edge_y = round(c - behind * s * 0.84)
    if v.loaded is not None:
        colour = theme.LOADED_COLOURS[v.loaded.value]
        lt = fonts.text(v.loaded.name, size, theme.text_on(colour), bold=True, condensed=True)
        lr = lt.get_rect().inflate(4, 1)
        if behind == 1:
            lr.topright = (round(c + s * 0.98), edge_y)
        else:
            lr.bottomright = (round(c + s * 0.98), edge_y)
        pygame.draw.rect(surf, colour, lr, border_radius=3)
        pygame.draw.rect(surf, (20, 20, 20), lr, 1, border_radius=3)
        surf.blit(lt, lt.get_rect(center=lr.center))
    x0, y = round(c - s * 0.98), edge_y
    for text, colour in counter_tags(v):
        t = fonts.text(text, size, theme.text_on(colour), bold=True, condensed=True)
        r = t.get_rect().inflate(4, 0)
        if behind == 1:
            r.topleft = (x0, y)
            y = r.bottom + 1
        else:
            r.bottomleft = (x0, y)
            y = r.top - 1
        pygame.draw.rect(surf, colour, r, border_radius=3)
        pygame.draw.rect(surf, (250, 250, 250), r, 1, border_radius=3)
        surf.blit(t, t.get_rect(center=r.center))
    return surf


class VehicleCache:
    """Rendered vehicle counters by what they show and the zoom; cleared when it grows large."""

    def __init__(self) -> None:
        self._cache: dict[tuple[Any, ...], pygame.Surface] = {}
        self.renders = 0
        """How many counters were drawn (for tests of the cache)."""

    def get(self, game: Game, v: Vehicle, scale: float, fonts: Fonts) -> pygame.Surface:
        """The counter surface of ``v`` at ``scale`` (pixels per hex radius)."""
        key = (vehicle_key(game, v), round(scale * 10))
        surf = self._cache.get(key)
        if surf is None:
            if len(self._cache) > 200:
                self._cache.clear()
            surf = render_vehicle(game, v, scale, fonts)
            self.renders += 1
            self._cache[key] = surf
        return surf


def vehicles_on_map(game: Game) -> list[Vehicle]:
    """Vehicles standing on a map hex (wrecks too), in scenario order."""
    return [
        v for v in vehicles_of(game.state).values() if v.hex is not None and game.board.map.has_hex(v.hex)
    ]


def vehicle_hexes(game: Game) -> dict[Hex, str]:
    """Hex → the id of the (last) vehicle on it."""
    return {v.hex: v.id for v in vehicles_on_map(game) if v.hex is not None}


def vehicle_at(game: Game, camera: Camera, pos: tuple[int, int]) -> str | None:
    """The id of the vehicle whose hex is under ``pos`` (the last one drawn there), or None."""
    h = camera.hex_at(pos)
    if h is None:
        return None
    return vehicle_hexes(game).get(h)


def draw_vehicles(
    surface: pygame.Surface,
    game: Game,
    camera: Camera,
    fonts: Fonts,
    cache: VehicleCache,
    *,
    selected: str | None = None,
) -> None:
    """Every vehicle counter on the map; the active crew's vehicle and the selected one ringed."""
    active = game.state.flow.active_character
    act = game.state.characters.get(active) if active else None
    active_vehicle = getattr(act, "vehicle", None) if act is not None else None
    for v in vehicles_on_map(game):
        assert v.hex is not None
        surf = cache.get(game, v, camera.scale, fonts)
        cx, cy = camera.centre(v.hex)
        surface.blit(surf, surf.get_rect(center=(round(cx), round(cy))))
        if v.id == active_vehicle:
            pygame.draw.circle(surface, theme.ACTIVE, (cx, cy), camera.scale * 0.98, 3)
        if v.id == selected:
            pygame.draw.circle(surface, theme.SELECTED, (cx, cy), camera.scale * 1.02, 2)
