"""Vehicles in the window: counters on the map, Target Markers, and the vehicle displays (issue 5).

Read-only over :mod:`solo.rules.vehicles.state` (``game.state.vehicles``) and the vehicle
types of :mod:`solo.data.vehicle_types`:

* :func:`render_vehicle`: one vehicle counter at a zoom — a hull in its side's
  colour turned to ``vehicle.facing`` (direction 1 up, clockwise; C2 31.4), an
  AFV's turret and gun turned to ``vehicle.turret`` (31.6), the name
  abbreviation, the Loaded marker (31.9.4) and damage marks (immobilized, fire,
  destroyed, abandoned; 31.10.8); cached by what it shows (:class:`VehicleCache`).
* :func:`marker_spots`: where each crewman's Target Marker (31.7.3) is drawn —
  a ringed cross-hair with the owner's position initial (C, G, D, L, CD) on its
  hex, markers sharing a hex spread around it — and the thin line linking it to
  its vehicle (:func:`draw_marker_links`, :func:`draw_target_markers`).
* :func:`vehicle_panel_layout` / :func:`draw_vehicle_panel`: the vehicle
  displays like the printed mats — per crew position its name, TQ, morale,
  hatch, order and Target Marker, KIA marks; passengers; damage markers; rounds
  left and the Loaded marker. All mats when they fit, else one mat with tabs.

Crew and passengers aboard are never separate counters on the map (their
vehicle shows them); bailed-out men are ordinary counters.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import attrs
import pygame

from solo.core.hexes import Hex
from solo.render import theme
from solo.render.view import Camera, Hotspot
from solo.rules.state import Side, Status
from solo.rules.vehicles.state import CREW_ORDER, Hatch, Vehicle, vehicles_of

if TYPE_CHECKING:
    from solo.data.vehicle_types import VehicleType
    from solo.engine.game import Game
    from solo.render.logview import Fog
    from solo.render.theme import Fonts
    from solo.rules.state import Character

# ---------------------------------------------------------------------------
# Names


VEHICLE_ABBREV: dict[str, str] = {
    "panzer_ivh": "Pz IVH",
    "m4a3_sherman": "M4A3",
    "m3a1_half_track": "M3A1",
    "opel_truck": "Opel",
    "jeep": "Jeep",
}
"""The name printed on a vehicle counter, by vehicle type (others: the start of the vehicle's name)."""

POSITION_INITIALS: dict[str, str] = {
    "commander": "C",
    "gunner": "G",
    "driver": "D",
    "loader": "L",
    "co_driver": "CD",
    "cupola": "Cu",
}
"""The owner's initial printed on a Target Marker (C2 31.7.3); passengers are ``P<n>``."""

POSITION_SHORT: dict[str, str] = {
    "commander": "Cmdr",
    "driver": "Drvr",
    "gunner": "Gnr",
    "loader": "Ldr",
    "co_driver": "CoDr",
    "cupola": "Cup",
}
"""Position labels on the vehicle display."""

CREW_ORDER_ABBREV: dict[str, str] = {
    "spot": "Spot",
    "direct_firing": "Dir Fire",
    "smoke_dischargers": "Smk Dis",
    "smoke_grenade_hatch": "Smk Gr",
    "fire_main_gun": "Fire Gun",
    "load_he": "Load HE",
    "load_ap": "Load AP",
    "button_open_up": "Btn/Open",
    "bail_out": "Bail Out",
    "panic": "Panic",
    "relocate": "Relocate",
    "mount_up": "Mount",
    "no_order": "none",
    "crawl": "Crawl",
    "ahead_slow": "Slow",
    "forward": "Fwd",
    "fast": "Fast",
    "reverse": "Rev",
    "emergency_stop": "E-Stop",
    "duck_back": "Duck Bk",
    "aimed_fire": "Aimed",
    "rapid_fire": "Rapid",
    "suppressive_fire": "Suppr",
}
"""Crew and speed orders as the display's order cell shows them (C2 31.11.2)."""

HATCH_TEXT: dict[Hatch, str] = {
    Hatch.OPEN: "Open",
    Hatch.CLOSED: "Closed",
    Hatch.JAMMED_OPEN: "Jam open",
    Hatch.JAMMED_CLOSED: "Jam shut",
    Hatch.NONE: "no hatch",
}
"""Hatch states on the display (C2 31.8, 31.10.8)."""

DAMAGE_TEXT: dict[str, str] = {
    "immobilized": "Immobilized",
    "turret_jammed": "Turret jammed",
    "main_gun_destroyed": "Main gun destroyed",
    "engine_fire": "Engine fire",
    "turret_fire": "Turret fire",
    "coaxial_mg_destroyed": "Coax MG destroyed",
    "bow_mg_destroyed": "Bow MG destroyed",
    "gunner_sight": "Gunner's sight hit",
    "headlight_left": "Left headlight",
    "headlight_right": "Right headlight",
    "cupola_destroyed": "Cupola destroyed",
}
"""Damage markers on the display (C2 31.10.8); ``periscope:<role>`` reads "Periscope (role)"."""


def vehicle_abbrev(v: Vehicle) -> str:
    """The counter's name: :data:`VEHICLE_ABBREV` for the type, else the first word(s) of the name."""
    if v.type in VEHICLE_ABBREV:
        return VEHICLE_ABBREV[v.type]
    words = v.name.split()
    return " ".join(words[:2])[:8] if words else v.id[:8]


def position_initial(position: str) -> str:
    """A Target Marker's owner initial: C, G, D, L, CD (C2 31.7.3), ``P3`` for passenger 3."""
    if position in POSITION_INITIALS:
        return POSITION_INITIALS[position]
    if position.startswith("passenger_"):
        return "P" + position.split("_", 1)[1]
    return position[:2].upper()


def position_label(position: str) -> str:
    """A position's label on the display (``"Cmdr"``, ``"P3"``)."""
    if position in POSITION_SHORT:
        return POSITION_SHORT[position]
    return position_initial(position)


def damage_labels(v: Vehicle) -> list[str]:
    """The vehicle's damage markers as words (C2 31.10.8); bookkeeping flags (``force_*``) left out."""
    out = []
    for d in v.damage:
        if d.startswith("force_"):
            continue
        if d.startswith("periscope:"):
            out.append(f"Periscope ({d.split(':', 1)[1].replace('_', '-')})")
        else:
            out.append(DAMAGE_TEXT.get(d, d.replace("_", " ").capitalize()))
    if v.mired and "immobilized" not in v.damage:
        out.append("Mired")
    if v.on_fire:
        out.append("ON FIRE")
    if v.destroyed:
        out.append("DESTROYED")
    if v.abandoned:
        out.append("ABANDONED")
    return out


def crew_order_text(game: Game, ch: Character) -> str:
    """The order cell of a crewman: ``"Fwd 1/2"``, ``"Spot"``, ``"—"`` without an order."""
    if ch.order is None:
        return "—"
    oid = ch.order.order
    if oid in CREW_ORDER_ABBREV:
        text = CREW_ORDER_ABBREV[oid]
    else:
        from solo.render.board import order_abbrev

        text = order_abbrev(game, oid)
    if ch.order.directions:
        text += f" {ch.order.directions}"
    return text


def vehicle_type(game: Game, v: Vehicle) -> VehicleType | None:
    """The vehicle's type, or None when the data do not know it (drawn generically)."""
    types = getattr(game.data, "vehicles", None)
    if types is None:
        return None
    try:
        return types.get(v.type)
    except Exception:  # an unknown type id: draw what the state says
        return None


def _kind(game: Game, v: Vehicle) -> str:
    vt = vehicle_type(game, v)
    if vt is not None:
        return vt.kind.value
    return "afv" if v.turret is not None else "truck"


def vehicle_line(game: Game, v: Vehicle) -> str:
    """A one-line description of a vehicle for tooltips."""
    vt = vehicle_type(game, v)
    bits = [v.name + (f" ({vt.name})" if vt is not None and vt.name != v.name else "")]
    bits.append("Friendly" if v.side is Side.FRIENDLY else "Enemy")
    if v.hex is not None:
        where = f"in {v.hex}, hull facing {v.facing}"
        if v.turret is not None:
            where += f", turret {v.turret}"
        bits.append(where)
    if v.loaded is not None:
        bits.append(f"Loaded {v.loaded.name}")
    if v.rounds:
        bits.append(", ".join(f"{k.upper()} {n}" for k, n in v.rounds.items()) + " rounds")
    dmg = damage_labels(v)
    if dmg:
        bits.append("damage: " + ", ".join(dmg))
    marks = [f"{position_initial(p)} on {h}" for p, h in v.markers()]
    if marks:
        bits.append("Target Markers: " + ", ".join(marks))
    return " · ".join(bits)


# ---------------------------------------------------------------------------
# The vehicle counter


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


# ---------------------------------------------------------------------------
# Target Markers (C2 31.7.3-31.7.5)

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


# ---------------------------------------------------------------------------
# The vehicle displays (printed mats)

PAD = 8
TITLE_H = 24
HEAD_H = 19
INFO_H = 17
ROW_H = 16
PANEL_SHARE = 0.66
"""At most this share of the log's column goes to the vehicle displays (the log keeps the rest)."""
MAT_GAP = 6
TAB_H = 20
TEXT = 12
SMALL = 11


@attrs.frozen
class MatRow:
    """One position of a vehicle display (a clickable row)."""

    vehicle: str
    position: str
    occupant: str | None
    rect: pygame.Rect
    half: bool = False
    """A passenger seat: half a row, 2k-1 on the left and 2k on the right as printed (C2 31.9.3)."""


@attrs.frozen
class Mat:
    """One vehicle display: its rectangle, its rows, and its empty passenger seats."""

    vehicle: str
    rect: pygame.Rect
    rows: tuple[MatRow, ...]
    empty: tuple[str, ...]
    """Passenger positions left empty (summarised on one line)."""


@attrs.frozen
class VehiclePanelLayout:
    """The vehicle displays' panel: its rectangle, tabs (one mat at a time) or every mat."""

    rect: pygame.Rect
    tabs: tuple[Hotspot, ...]
    mats: tuple[Mat, ...]
    shown: str | None
    """The vehicle whose mat is shown in tab mode (None: all mats are shown)."""

    def hotspots(self) -> list[Hotspot]:
        """Tabs (``("vehicle", id)``) and rows (``("seat", vehicle id, position)``)."""
        out = list(self.tabs)
        for m in self.mats:
            out.extend(Hotspot(r.rect, ("seat", r.vehicle, r.position)) for r in m.rows)
        return out

    def row(self, vehicle: str, position: str) -> MatRow | None:
        """The row of ``position`` in ``vehicle``'s mat, if shown."""
        for m in self.mats:
            for r in m.rows:
                if r.vehicle == vehicle and r.position == position:
                    return r
        return None


def _passenger_number(position: str) -> int | None:
    head, _, num = position.partition("_")
    return int(num) if head == "passenger" and num.isdigit() else None


def _mat_positions(
    game: Game, v: Vehicle
) -> tuple[list[str], list[tuple[str | None, str | None]], list[str]]:
    """(full-width rows, passenger pair rows, empty passenger seats not shown) of ``v``'s display.

    Full rows: the crew in display order (31.1), the cupola, odd passenger seats. Pair rows:
    passengers 2k-1 and 2k (C2 31.9.3), shown when either seat is taken or has a KIA marker.
    """
    vt = vehicle_type(game, v)
    crew = [p.id for p in vt.crew] if vt is not None else [p for p in CREW_ORDER if p in v.seats]
    crew = [p for p in crew if p in v.seats] + [p for p in v.seats if p in CREW_ORDER and p not in crew]
    rows = list(crew)
    pairs: dict[int, list[str | None]] = {}
    for p in v.seats:
        if p in CREW_ORDER:
            continue
        n = _passenger_number(p)
        if n is None:
            rows.append(p)
        else:
            pairs.setdefault((n + 1) // 2, [None, None])[(n + 1) % 2] = p
    shown: list[tuple[str | None, str | None]] = []
    empty: list[str] = []
    for k in sorted(pairs):
        left, right = pairs[k]
        seats = [v.seats[q] for q in (left, right) if q is not None]
        if any(q.occupant is not None or q.kia for q in seats):
            shown.append((left, right))
        else:
            empty.extend(q for q in (left, right) if q is not None)
    return rows, shown, empty


def mat_height(game: Game, v: Vehicle) -> int:
    """Height in pixels of ``v``'s mat."""
    rows, pairs, empty = _mat_positions(game, v)
    return HEAD_H + INFO_H + ROW_H * (len(rows) + len(pairs)) + (ROW_H if empty else 0) + 6


def _mat(game: Game, v: Vehicle, x: int, y: int, w: int) -> Mat:
    rows, pairs, empty = _mat_positions(game, v)
    rect = pygame.Rect(x, y, w, mat_height(game, v))
    out = []
    ry = y + HEAD_H + INFO_H
    for p in rows:
        out.append(MatRow(v.id, p, v.seats[p].occupant, pygame.Rect(x + 3, ry, w - 6, ROW_H - 1)))
        ry += ROW_H
    hw = (w - 6) // 2
    for pair in pairs:
        for i, p in enumerate(pair):
            if p is not None:
                r = pygame.Rect(x + 3 + i * (hw + 2), ry, hw - 2, ROW_H - 1)
                out.append(MatRow(v.id, p, v.seats[p].occupant, r, half=True))
        ry += ROW_H
    return Mat(v.id, rect, tuple(out), tuple(empty))


def vehicle_panel_layout(area: pygame.Rect, game: Game, ui: Any) -> VehiclePanelLayout | None:
    """The panel at the top of ``area``: every mat if they fit in ``area``, else tabs and one mat.

    ``ui.vehicle_tab`` picks the mat shown in tab mode (default: the first vehicle).
    None when the game has no vehicles.
    """
    vs = list(vehicles_of(game.state).values())
    if not vs:
        return None
    w = area.width - 2 * PAD
    heights = [mat_height(game, v) for v in vs]
    full = TITLE_H + sum(heights) + MAT_GAP * (len(vs) - 1) + PAD
    x = area.x + PAD
    if full <= area.height:
        mats = []
        y = area.y + TITLE_H
        for v, h in zip(vs, heights, strict=True):
            mats.append(_mat(game, v, x, y, w))
            y += h + MAT_GAP
        return VehiclePanelLayout(pygame.Rect(area.x, area.y, area.width, full), (), tuple(mats), None)
    ids = [v.id for v in vs]
    shown = ui.vehicle_tab if getattr(ui, "vehicle_tab", None) in ids else ids[0]
    v = vs[ids.index(shown)]
    tabs = []
    tx = x
    ty = area.y + TITLE_H
    tw = max(60, min(150, (w - 4 * (len(vs) - 1)) // len(vs)))
    for vid in ids:
        tabs.append(
            Hotspot(pygame.Rect(tx, ty, tw, TAB_H), ("vehicle", vid), vehicles_of(game.state)[vid].name)
        )
        tx += tw + 4
    my = ty + TAB_H + 4
    h = min(area.bottom - my - PAD, mat_height(game, v))
    mat = _mat(game, v, x, my, w)
    mat = attrs.evolve(mat, rect=pygame.Rect(mat.rect.x, mat.rect.y, mat.rect.width, max(h, HEAD_H)))
    rows = tuple(r for r in mat.rows if r.rect.bottom <= mat.rect.bottom)
    mat = attrs.evolve(mat, rows=rows)
    total = my + mat.rect.height + PAD - area.y
    return VehiclePanelLayout(pygame.Rect(area.x, area.y, area.width, total), tuple(tabs), (mat,), shown)


def layout_key(game: Game) -> tuple[Any, ...]:
    """What the panel's layout depends on in the game: its vehicles and which seats hold someone."""
    return tuple(
        (v.id, tuple((p, q.occupant is None, q.kia) for p, q in v.seats.items()))
        for v in vehicles_of(game.state).values()
    )


def panel_signature(game: Game, layout: VehiclePanelLayout, ui: Any, fog: Fog) -> tuple[Any, ...]:
    """Everything the vehicle displays show (their cache key): vehicles, seats, the men in them,
    the decision's highlights, the selection and the row under the mouse."""
    chars = game.state.characters
    out: list[Any] = [layout.rect.topleft, layout.rect.size, layout.shown, fog.hidden_ids, ui.selected]
    d = game.pending
    out.append((d.actor, d.keys) if d is not None else None)
    out.append(game.state.flow.active_character)
    out.append(
        next(
            ((r.vehicle, r.position) for m in layout.mats for r in m.rows if r.rect.collidepoint(ui.mouse)),
            None,
        )
    )
    out.append(next((t.action for t in layout.tabs if t.rect.collidepoint(ui.mouse)), None))
    for v in vehicles_of(game.state).values():
        out.append((vehicle_key(game, v), v.hex, tuple(v.rounds.items())))
        for p, q in v.seats.items():
            ch = chars.get(q.occupant) if q.occupant else None
            man = None
            if ch is not None:
                o = ch.order
                man = (
                    ch.name,
                    ch.effective_tq,
                    ch.ldr,
                    ch.morale.value,
                    (o.order, str(o.directions) if o.directions else "") if o is not None else None,
                    tuple(w.value for w in ch.wounds),
                    ch.status.value,
                )
            out.append((p, q.occupant, q.hatch.value, q.marker, q.kia, man))
    return tuple(out)


class VehiclePanelCache:
    """The vehicle displays: their layout and picture, redrawn only when what they show changes."""

    def __init__(self) -> None:
        self._layout_key: tuple[Any, ...] = ()
        self._layout: VehiclePanelLayout | None = None
        self._picture_key: tuple[Any, ...] = ()
        self._picture: pygame.Surface | None = None
        self.renders = 0
        """How many times the panel was drawn anew (for tests of the cache)."""

    def layout(self, area: pygame.Rect, game: Game, ui: Any) -> VehiclePanelLayout | None:
        """:func:`vehicle_panel_layout`, kept while the area, the tab and the seats stay the same."""
        key = (id(game), tuple(area), getattr(ui, "vehicle_tab", None), layout_key(game))
        if key != self._layout_key:
            self._layout = vehicle_panel_layout(area, game, ui)
            self._layout_key = key
        return self._layout

    def draw(
        self,
        surface: pygame.Surface,
        layout: VehiclePanelLayout,
        game: Game,
        fonts: Fonts,
        ui: Any,
        fog: Fog,
    ) -> None:
        """:func:`draw_vehicle_panel`, or the last picture of it when nothing it shows has changed."""
        rect = layout.rect.clip(surface.get_rect())
        key = (id(game), panel_signature(game, layout, ui, fog))
        if key == self._picture_key and self._picture is not None and self._picture.get_size() == rect.size:
            surface.blit(self._picture, rect)
            return
        draw_vehicle_panel(surface, layout, game, fonts, ui, fog)
        self.renders += 1
        self._picture = surface.subsurface(rect).copy() if rect.width and rect.height else None
        self._picture_key = key


def _chip(
    surface: pygame.Surface, fonts: Fonts, text: str, x: int, cy: int, colour: theme.Colour, *, w: int = 0
) -> pygame.Rect:
    t = fonts.text(text, SMALL, theme.text_on(colour), bold=True, condensed=True)
    r = pygame.Rect(x, 0, max(w, t.get_width() + 6), ROW_H - 3)
    r.centery = cy
    pygame.draw.rect(surface, colour, r, border_radius=3)
    surface.blit(t, t.get_rect(center=r.center))
    return r


COLUMNS = (0, 36, 94, 204, 256, 312, 396)
"""Row cell x offsets: position, hatch, name, TQ, morale, order, Target Marker (for a 448-pixel mat;
scaled to the mat's width)."""


def _cols(width: int) -> list[int]:
    k = max(0.72, width / 448)
    return [round(c * k) for c in COLUMNS]


def draw_vehicle_panel(
    surface: pygame.Surface,
    layout: VehiclePanelLayout,
    game: Game,
    fonts: Fonts,
    ui: Any,
    fog: Fog,
) -> None:
    """The vehicle displays like the printed mats (C2 31): see the module docstring."""
    rect = layout.rect
    pygame.draw.rect(surface, theme.PANEL, rect)
    pygame.draw.rect(surface, theme.PANEL_EDGE, rect, 1)
    title = "Vehicle displays"
    surface.blit(fonts.text(title, 15, theme.PANEL_TITLE, bold=True), (rect.x + PAD, rect.y + 5))
    room = rect.width - 3 * PAD - fonts.width(title, 15, bold=True)
    for text in ("V hides · click a crewman to select him", "V hides"):
        if fonts.width(text, SMALL) <= room:
            hint = fonts.text(text, SMALL, theme.TEXT_DIM)
            surface.blit(hint, hint.get_rect(topright=(rect.right - PAD, rect.y + 8)))
            break
    for tab in layout.tabs:
        on = tab.action[1] == layout.shown
        pygame.draw.rect(surface, theme.MAT if on else theme.BUTTON, tab.rect, border_radius=4)
        t = fonts.text(
            fonts.fit(tab.label, SMALL, tab.rect.width - 6, condensed=True),
            SMALL,
            theme.MAT_TEXT if on else theme.BUTTON_TEXT,
            bold=on,
            condensed=True,
        )
        surface.blit(t, t.get_rect(center=tab.rect.center))
    old = surface.get_clip()
    surface.set_clip(rect.clip(old) if old else rect)
    vs = vehicles_of(game.state)
    for mat in layout.mats:
        v = vs.get(mat.vehicle)
        if v is not None:
            _draw_mat(surface, mat, game, v, fonts, ui, fog)
    surface.set_clip(old)


def _draw_mat(
    surface: pygame.Surface, mat: Mat, game: Game, v: Vehicle, fonts: Fonts, ui: Any, fog: Fog
) -> None:
    r = mat.rect
    pygame.draw.rect(surface, theme.MAT, r, border_radius=5)
    side = theme.VEHICLE_COLOURS["friendly" if v.side is Side.FRIENDLY else "enemy"]
    band = pygame.Rect(r.x, r.y, r.width, HEAD_H)
    pygame.draw.rect(surface, side, band, border_top_left_radius=5, border_top_right_radius=5)
    from solo.render.board import team_colour

    team = team_colour(game, v.id) if v.id in game.state.teams else side
    chip = pygame.Rect(r.x + 4, r.y + 4, 12, HEAD_H - 8)
    pygame.draw.rect(surface, team, chip, border_radius=2)
    pygame.draw.rect(surface, (20, 20, 20), chip, 1, border_radius=2)
    vt = vehicle_type(game, v)
    head = v.name + (f" · {vt.name}" if vt is not None and vt.name != v.name else "")
    if v.hex is not None:
        where = f"{v.hex} · hull {v.facing}" + (f" · turret {v.turret}" if v.turret is not None else "")
    else:
        where = "off the map"
    wt = fonts.text(where, SMALL, theme.text_on(side), condensed=True)
    surface.blit(wt, wt.get_rect(midright=(r.right - 6, band.centery)))
    ht = fonts.text(
        fonts.fit(head, TEXT, r.width - wt.get_width() - 34, bold=True, condensed=True),
        TEXT,
        theme.text_on(side),
        bold=True,
        condensed=True,
    )
    surface.blit(ht, ht.get_rect(midleft=(chip.right + 5, band.centery)))
    # info line: Loaded marker, rounds, damage markers (C2 31.9.4, 31.10.8)
    iy = r.y + HEAD_H + INFO_H // 2
    x = r.x + 6
    if v.loaded is not None:
        lab = fonts.text("Loaded", SMALL, theme.MAT_TEXT, condensed=True)
        surface.blit(lab, lab.get_rect(midleft=(x, iy)))
        x += lab.get_width() + 3
        x = _chip(surface, fonts, v.loaded.name, x, iy, theme.LOADED_COLOURS[v.loaded.value]).right + 8
    elif vt is not None and vt.main_gun is not None:
        x = _chip(surface, fonts, "unloaded", x, iy, theme.HATCH_COLOURS["none"]).right + 8
    if v.rounds:
        rt = fonts.text(
            "Rounds " + " · ".join(f"{k.upper()} {n}" for k, n in v.rounds.items()),
            SMALL,
            theme.MAT_TEXT,
            condensed=True,
        )
        surface.blit(rt, rt.get_rect(midleft=(x, iy)))
        x += rt.get_width() + 8
    dmg = damage_labels(v)
    if not dmg:
        t = fonts.text("no damage", SMALL, theme.MAT_DIM, condensed=True)
        surface.blit(t, t.get_rect(midleft=(x, iy)))
    for d in dmg:
        colour = theme.FIRE if d == "ON FIRE" else theme.WRECK_TAG if d == "DESTROYED" else theme.DAMAGE_TAG
        w = fonts.width(d, SMALL, bold=True, condensed=True) + 6
        if x + w > r.right - 4:
            more = fonts.text("…", SMALL, theme.DAMAGE_TAG, bold=True)
            surface.blit(more, more.get_rect(midleft=(x, iy)))
            break
        x = _chip(surface, fonts, d, x, iy, colour).right + 3
    # the rows
    cols = _cols(r.width - 12)
    d = game.pending
    legal = set(d.keys) if d is not None else set()
    actor = game.state.characters.get(d.actor) if d is not None and d.actor else None
    same = actor is not None and getattr(actor, "vehicle", None) == v.id
    active = game.state.flow.active_character
    hatches = any(q.hatch is not Hatch.NONE for q in v.seats.values())
    for row in mat.rows:
        seat = v.seats[row.position]
        ch = game.state.characters.get(seat.occupant) if seat.occupant else None
        rr = row.rect
        hover = rr.collidepoint(ui.mouse)
        if hover:
            pygame.draw.rect(surface, theme.shade(theme.MAT, -18), rr, border_radius=3)
        cy = rr.centery
        x0 = rr.x + 3
        pt = fonts.text(position_label(row.position), TEXT, theme.MAT_TEXT, bold=True, condensed=True)
        surface.blit(pt, pt.get_rect(midleft=(x0 + cols[0], cy)))
        name_x = x0 + (_half_cols(rr.width)[1] if row.half else cols[2])
        if not row.half and hatches:
            hatch = seat.hatch
            _chip(
                surface,
                fonts,
                HATCH_TEXT[hatch],
                x0 + cols[1],
                cy,
                theme.HATCH_COLOURS[hatch.value],
                w=cols[2] - cols[1] - 6,
            )
        if ch is None:
            if seat.kia:
                _chip(surface, fonts, "KIA", name_x, cy, theme.KIA)
                pygame.draw.line(surface, theme.KIA, (name_x + 34, cy), (rr.right - 6, cy), 2)
            else:
                t = fonts.text("empty", TEXT, theme.MAT_DIM, condensed=True)
                surface.blit(t, t.get_rect(midleft=(name_x, cy)))
        elif ch.id in fog.hidden_ids:
            t = fonts.text("Unknown enemy", TEXT, theme.MAT_TEXT, condensed=True)
            surface.blit(t, t.get_rect(midleft=(name_x, cy)))
        elif row.half:
            _draw_passenger(surface, game, fonts, ch, x0, cy, rr.width)
        else:
            _draw_crewman(surface, game, fonts, ch, seat, x0, cy, cols, v)
        # highlights: the decision's man, the active man, a legal Relocate target (C2 31.11.2)
        if same and (f"seat:{row.position}" in legal or f"swap:{row.position}" in legal):
            pygame.draw.rect(surface, theme.TARGET_HINT, rr, 2, border_radius=3)
        elif actor is not None and ch is not None and ch.id == actor.id:
            pygame.draw.rect(surface, theme.ACTOR, rr, 2, border_radius=3)
        elif ch is not None and ch.id == active:
            pygame.draw.rect(surface, theme.ACTIVE, rr, 2, border_radius=3)
        if ch is not None and ui.selected == ch.id:
            pygame.draw.rect(surface, (20, 20, 20), rr, 1, border_radius=3)
    if mat.empty:
        ey = (mat.rows[-1].rect.bottom if mat.rows else r.y + HEAD_H + INFO_H) + ROW_H // 2
        if ey < r.bottom:
            nums = [position_initial(p) for p in mat.empty]
            text = f"{len(nums)} empty passenger seat{'s' if len(nums) != 1 else ''}: " + ", ".join(nums)
            t = fonts.text(
                fonts.fit(text, SMALL, r.width - 12, condensed=True), SMALL, theme.MAT_DIM, condensed=True
            )
            surface.blit(t, t.get_rect(midleft=(r.x + 9, ey)))
    pygame.draw.rect(surface, theme.MAT_EDGE, r, 1, border_radius=5)


def _draw_crewman(
    surface: pygame.Surface,
    game: Game,
    fonts: Fonts,
    ch: Character,
    seat: Any,
    x0: int,
    cy: int,
    cols: list[int],
    v: Vehicle,
) -> None:
    """Name, wounds, TQ (LDR), morale, order and Target Marker cells of a crewman's row."""
    name_w = cols[3] - cols[2] - 6
    colour = theme.MAT_TEXT if ch.status is Status.ACTIVE else theme.KIA
    nt = fonts.text(fonts.fit(ch.name, TEXT, name_w, condensed=True), TEXT, colour, condensed=True)
    surface.blit(nt, nt.get_rect(midleft=(x0 + cols[2], cy)))
    if ch.status is Status.INCAPACITATED:
        pygame.draw.line(surface, theme.KIA, (x0 + cols[2], cy), (x0 + cols[2] + nt.get_width(), cy), 1)
    wx = x0 + cols[2] + nt.get_width() + 5
    for w in ch.wounds:
        rad = 4 if w.value == "bad" else 3
        pygame.draw.circle(surface, theme.WOUND_BAD if w.value == "bad" else theme.WOUND_LIGHT, (wx, cy), rad)
        wx += 2 * rad + 2
    tq = f"TQ {ch.effective_tq}" + (f" L{ch.ldr}" if ch.ldr else "")
    tt = fonts.text(tq, TEXT, theme.MAT_TEXT, bold=True, condensed=True)
    surface.blit(tt, tt.get_rect(midleft=(x0 + cols[3], cy)))
    morale = ch.morale.value
    if morale == "normal":
        mt = fonts.text("Normal", SMALL, theme.MAT_DIM, condensed=True)
        surface.blit(mt, mt.get_rect(midleft=(x0 + cols[4], cy)))
    else:
        _chip(
            surface,
            fonts,
            morale.capitalize(),
            x0 + cols[4],
            cy,
            theme.MORALE_COLOURS.get(morale, theme.MAT_DIM),
        )
    order = crew_order_text(game, ch)
    if ch.order is not None and ch.order.order != "no_order":
        ow = cols[6] - cols[5] - 4
        _chip(
            surface,
            fonts,
            fonts.fit(order, SMALL, ow - 6, bold=True, condensed=True),
            x0 + cols[5],
            cy,
            theme.ORDER_BADGE,
        )
    else:
        t = fonts.text("no order", SMALL, theme.MAT_DIM, condensed=True)
        surface.blit(t, t.get_rect(midleft=(x0 + cols[5], cy)))
    # the Target Marker: on the board (a ringed initial and its hex) or not
    mx = x0 + cols[6] + 7
    if seat.marker is not None:
        colour = theme.MARKER_COLOURS["friendly" if ch.side is Side.FRIENDLY else "enemy"]
        pygame.draw.circle(surface, (252, 252, 248), (mx, cy), 7)
        pygame.draw.circle(surface, colour, (mx, cy), 7, 2)
        it = fonts.text(position_initial(seat.position)[:2], 8, colour, bold=True, condensed=True)
        surface.blit(it, it.get_rect(center=(mx, cy)))
        ht = fonts.text(str(seat.marker), SMALL, theme.MAT_TEXT, bold=True, condensed=True)
        surface.blit(ht, ht.get_rect(midleft=(mx + 10, cy)))
    elif _uses_marker(game, v, seat.position):
        t = fonts.text("no marker", SMALL, theme.MAT_DIM, condensed=True)
        surface.blit(t, t.get_rect(midleft=(mx - 7, cy)))


def _uses_marker(game: Game, v: Vehicle, position: str) -> bool:
    """Whether the position has a Target Marker (C2 31.7.1-31.7.3; solo.rules.vehicles.crew decides)."""
    from solo.rules.vehicles.seats import uses_target_marker

    try:
        return bool(uses_target_marker(game, v, position))
    except Exception:  # an unknown vehicle type: no marker cell
        return False


HALF_COLUMNS = (0, 26, 116, 146, 178)
"""Cell x offsets in a passenger's half row: position, name, morale, TQ, order (for a 219-pixel half
row; scaled to the row's width)."""


def _half_cols(width: int) -> list[int]:
    k = max(0.6, width / 219)
    return [round(c * k) for c in HALF_COLUMNS]


def _draw_passenger(
    surface: pygame.Surface, game: Game, fonts: Fonts, ch: Character, x0: int, cy: int, width: int
) -> None:
    """Name, morale (if not Normal), TQ and order of a passenger's half row ``width`` pixels wide."""
    c = _half_cols(width)
    colour = theme.MAT_TEXT if ch.status is Status.ACTIVE else theme.KIA
    nt = fonts.text(fonts.fit(ch.name, TEXT, c[2] - c[1] - 3, condensed=True), TEXT, colour, condensed=True)
    surface.blit(nt, nt.get_rect(midleft=(x0 + c[1], cy)))
    ab = theme.MORALE_ABBREV.get(ch.morale.value, "")
    if ab:
        _chip(surface, fonts, ab, x0 + c[2], cy, theme.MORALE_COLOURS[ch.morale.value])
    elif ch.wounds:
        wx = x0 + c[2] + 4
        for w in ch.wounds:
            rad = 4 if w.value == "bad" else 3
            pygame.draw.circle(
                surface, theme.WOUND_BAD if w.value == "bad" else theme.WOUND_LIGHT, (wx, cy), rad
            )
            wx += 2 * rad + 2
    tt = fonts.text(f"TQ {ch.effective_tq}", TEXT, theme.MAT_TEXT, bold=True, condensed=True)
    surface.blit(tt, tt.get_rect(midleft=(x0 + c[3], cy)))
    if ch.order is not None and ch.order.order != "no_order":
        _chip(
            surface,
            fonts,
            fonts.fit(crew_order_text(game, ch), SMALL, max(12, width - c[4] - 8), bold=True, condensed=True),
            x0 + c[4],
            cy,
            theme.ORDER_BADGE,
        )


def marker_cell_point(row: MatRow) -> tuple[int, int]:
    """A pixel on the ring of a display row's Target Marker symbol (shown when its marker is on the board)."""
    cols = _cols(row.rect.width + 6 - 12)
    return (row.rect.x + 3 + cols[6] + 7 + 6, row.rect.centery)


def hatch_chip_point(row: MatRow) -> tuple[int, int]:
    """A pixel inside the hatch chip of a display row (for tests: it shows the hatch colour)."""
    cols = _cols(row.rect.width + 6 - 12)
    return (row.rect.x + 3 + cols[1] + 2, row.rect.centery)
