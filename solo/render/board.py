"""The map and everything on it, drawn from the game state (read-only).

* :class:`MapLayer`: the static map — terrain fills and patterns, elevation
  tint and contours, roads, overlays, hexside hedges/walls/bocage, hex labels —
  rendered once per zoom step and cached.
* :func:`draw_board`: the cached layer, then objectives, Direction Counters,
  markers (smoke, fire, grenades, illumination), highlights for the pending
  decision, vehicles (:mod:`solo.render.vehicle_counters`) and their Target
  Markers (:mod:`solo.render.target_markers`), character counters and the LOS line.
* :func:`counter_spots`: where each counter is on the screen, for hit-tests.

Hidden information stays hidden: an Unknown enemy (or a dummy) is a '?'
counter with its team's band and order marker only (see
:func:`solo.render.logview.is_hidden`).

May import: the vehicle modules it layers (:mod:`~solo.render.vehicle_counters`,
:mod:`~solo.render.target_markers`), :mod:`solo.render.counter_marks`,
:mod:`solo.render.choices`, the view and the theme; none of them imports this module.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import pygame

from solo.core.hexes import Hex
from solo.render import target_markers, theme, vehicle_counters
from solo.render.choices import map_direction, option_hexes, order_rotation, turret_keys
from solo.render.counter_marks import counter_name_forms, order_abbrev, team_colour
from solo.render.terrain_art import draw_overlay, draw_pattern, tint
from solo.render.view import SQRT3, Camera, hex_corners, hexside_segment
from solo.rules.minefields import minefield_hexes
from solo.rules.state import Character, Side, Status
from solo.rules.vehicles.state import vehicles_of

if TYPE_CHECKING:
    from solo.data.maps import Board
    from solo.engine.game import Game
    from solo.render.theme import Fonts

# ---------------------------------------------------------------------------
# The static layer

MAX_LAYER_PIXELS = 24_000_000
"""The static layers kept in memory hold about this many pixels at most (4 bytes each)."""


class MapLayer:
    """The static map drawn at one scale, cached by (zoom step, labels); at most ``keep`` kept."""

    def __init__(self, board: Board, *, keep: int = 3) -> None:
        self.board = board
        self._cache: OrderedDict[tuple[int, int, bool, bool], pygame.Surface] = OrderedDict()
        self._keep = keep
        self.renders = 0
        """How many layers were drawn (for tests of the cache)."""

    def surface(self, camera: Camera, fonts: Fonts, *, labels: bool, night: bool = False) -> pygame.Surface:
        """The layer for ``camera``'s scale; blit it at ``camera.to_screen(left, top)`` of ``world``.

        ``night`` darkens it with a blue tint (§15).
        """
        key = (camera.step, round(camera.scale * 100), labels, night)
        surf = self._cache.get(key)
        if surf is not None:
            self._cache.move_to_end(key)
            return surf
        surf = self._render(camera, fonts, labels, night)
        self.renders += 1
        self._cache[key] = surf
        # keep at most ``keep`` layers and about 24 million pixels (the newest always stays)
        while len(self._cache) > 1 and (
            len(self._cache) > self._keep
            or sum(s.get_width() * s.get_height() for s in self._cache.values()) > MAX_LAYER_PIXELS
        ):
            self._cache.popitem(last=False)
        return surf

    def blit(
        self, screen: pygame.Surface, camera: Camera, fonts: Fonts, *, labels: bool, night: bool = False
    ) -> None:
        """Draw the cached layer into the map rectangle of ``screen``."""
        layer = self.surface(camera, fonts, labels=labels, night=night)
        left, top, _r, _b = camera.world
        x, y = camera.to_screen(left, top)
        screen.blit(layer, (round(x), round(y)))

    def _render(self, camera: Camera, fonts: Fonts, labels: bool, night: bool) -> pygame.Surface:
        board = self.board
        m = board.map
        s = camera.scale
        left, top, right, bottom = camera.world
        w, h = max(1, math.ceil((right - left) * s)), max(1, math.ceil((bottom - top) * s))
        surf = pygame.Surface((w, h))
        surf.fill(theme.MAP_BACKGROUND)

        def local(hx: Hex) -> tuple[float, float]:
            wx, wy = camera.world_centre(hx)
            return ((wx - left) * s, (wy - top) * s)

        centres = {hx: local(hx) for hx in board.hexes}
        # 1. terrain fills, patterns, elevation tint
        for hx, (cx, cy) in centres.items():
            tid = m.terrain[hx]
            base = theme.terrain_colour(tid)
            lvl = m.level.get(hx, 0)
            if lvl:
                base = tint(base, (214, 184, 128), min(0.5, 0.16 * lvl))
            pts = hex_corners(cx, cy, s)
            pygame.draw.polygon(surf, base, pts)
            draw_pattern(surf, tid, cx, cy, s, hx, base)
            for ov in m.overlays.get(hx, ()):
                draw_overlay(surf, ov, cx, cy, s)
        # 2. the grid
        gw = 1 if s < 30 else 2
        for cx, cy in centres.values():
            pygame.draw.polygon(surf, theme.GRID, hex_corners(cx, cy, s), gw)
        # 3. roads: an edge pass, then the fill, then round joints
        rw = max(2, round(s * 0.3))
        for a, b in m.roads:
            pygame.draw.line(surf, theme.ROAD_EDGE, centres[a], centres[b], rw + 2)
        for hx in m.road_hexes:
            pygame.draw.circle(surf, theme.ROAD_EDGE, centres[hx], (rw + 2) / 2)
        for a, b in m.roads:
            pygame.draw.line(surf, theme.ROAD_FILL, centres[a], centres[b], rw)
        for hx in m.road_hexes:
            pygame.draw.circle(surf, theme.ROAD_FILL, centres[hx], rw / 2)
        # 4. elevation contours: hexsides between different levels
        cw = max(2, round(s / 9))
        for i, hx in enumerate(board.hexes):
            lv = m.level.get(hx, 0)
            for d in (2, 3, 4):
                n = board.neighbours[i][d]
                if n < 0:
                    continue
                other = board.hexes[n]
                if m.level.get(other, 0) != lv:
                    p, q = hexside_segment(centres[hx], centres[other], s)
                    pygame.draw.line(surf, theme.CONTOUR, p, q, cw)
        # 5. hexside features
        for (a, b), fid in m.hexsides.items():
            colour = theme.HEXSIDE_COLOURS.get(fid, theme.UNKNOWN_TERRAIN)
            width = max(3, round(s * (0.26 if fid == "bocage" else 0.17)))
            p, q = hexside_segment(centres[a], centres[b], s)
            pygame.draw.line(surf, colour, p, q, width)
            pygame.draw.circle(surf, colour, p, width / 2)
            pygame.draw.circle(surf, colour, q, width / 2)
            if fid == "wall" and width >= 4:
                pygame.draw.line(surf, theme.shade(colour, 60), p, q, max(1, width // 3))
            elif fid == "bocage" and s >= 18:
                for t in (0.25, 0.5, 0.75):
                    bx, by = p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
                    pygame.draw.circle(surf, theme.shade(colour, 25), (bx, by), width * 0.45)
        # 6. night
        if night:
            dark = pygame.Surface((w, h), pygame.SRCALPHA)
            dark.fill(theme.NIGHT_TINT)
            surf.blit(dark, (0, 0))
        # 7. labels
        if labels:
            size = max(7, round(s * 0.3))
            for hx, (cx, cy) in centres.items():
                t = fonts.text(str(hx), size, theme.LABEL, condensed=True)
                surf.blit(t, (cx - t.get_width() / 2, cy - s * SQRT3 / 2 + 1))
                lvl = m.level.get(hx, 0)
                if lvl:
                    lt = fonts.text(f"L{lvl}", size, theme.CONTOUR, bold=True, condensed=True)
                    surf.blit(lt, (cx - lt.get_width() / 2, cy + s * SQRT3 / 2 - lt.get_height() - 1))
        return surf


def counter_size(camera: Camera) -> int:
    """Side of a character counter in pixels at the camera's zoom."""
    return max(14, round(camera.scale * 1.4))


def stack_offsets(n: int, size: int) -> list[tuple[float, float]]:
    """Offsets of ``n`` counters stacked in one hex (the first drawn first, lowest)."""
    if n <= 1:
        return [(0.0, 0.0)]
    step = size * (0.5 if n == 2 else 0.3)
    mid = (n - 1) / 2
    return [((i - mid) * step, (i - mid) * step * -0.45) for i in range(n)]


def on_map(game: Game) -> dict[Hex, list[Character]]:
    """Characters on each hex (active or incapacitated, not aboard a vehicle), roster order."""
    out: dict[Hex, list[Character]] = {}
    for ch in game.state.characters.values():
        if getattr(ch, "vehicle", None) is not None:
            continue  # a crew member or passenger aboard: shown by his vehicle (draw_vehicles)
        if ch.hex is not None and ch.status in (Status.ACTIVE, Status.INCAPACITATED):
            out.setdefault(ch.hex, []).append(ch)
    return out


VEHICLE_HEX_SHIFT = 0.5
"""Counters in a hex with a vehicle are drawn this many hex radii right and down of its centre."""


FAN_GAP = 4
"""Pixels between the counters of a stack fanned out under the mouse."""


def fan_offsets(n: int, size: int) -> list[tuple[float, float]]:
    """Offsets of ``n`` counters of a stack fanned out side by side (the hovered hex), none hidden."""
    mid = (n - 1) / 2
    return [((i - mid) * (size + FAN_GAP), 0.0) for i in range(n)]


def counter_spots(game: Game, camera: Camera, *, fan: Hex | None = None) -> list[tuple[str, pygame.Rect]]:
    """(character id, screen rectangle) of every counter, in drawing order (the last is on top).

    The stack in hex ``fan`` (the one under the mouse) is fanned out side by side and drawn last,
    so every counter of it, and its order marker, shows whole.
    """
    size = counter_size(camera)
    out: list[tuple[str, pygame.Rect]] = []
    fanned: list[tuple[str, pygame.Rect]] = []
    with_vehicle = vehicle_counters.vehicle_hexes(game) if vehicles_of(game.state) else {}
    for h, chars in on_map(game).items():
        cx, cy = camera.centre(h)
        if h in with_vehicle:  # men beside a vehicle: moved aside so the vehicle shows
            cx, cy = cx + camera.scale * VEHICLE_HEX_SHIFT, cy + camera.scale * VEHICLE_HEX_SHIFT
        spread = h == fan and len(chars) > 1
        offsets = fan_offsets(len(chars), size) if spread else stack_offsets(len(chars), size)
        for ch, (dx, dy) in zip(chars, offsets, strict=True):
            r = pygame.Rect(0, 0, size, size)
            r.center = (round(cx + dx), round(cy + dy))
            (fanned if spread else out).append((ch.id, r))
    return out + fanned


def counter_at(game: Game, camera: Camera, pos: tuple[int, int], *, fan: Hex | None = None) -> str | None:
    """The id of the topmost counter under ``pos`` (the stack in ``fan`` fanned out), or None."""
    hit = None
    for cid, r in counter_spots(game, camera, fan=fan):
        if r.collidepoint(pos):
            hit = cid
    return hit


def counter_key(game: Game, ch: Character, hidden: bool) -> tuple[Any, ...]:
    """Everything a counter shows (its cache key)."""
    order = order_abbrev(game, ch.order.order) if ch.order is not None else ""
    if hidden:
        return ("?", ch.team, order)
    return (
        ch.side.value,
        ch.team,
        ch.name,
        ch.effective_tq,
        ch.tq,
        ch.revealed,
        ch.morale.value,
        tuple(w.value for w in ch.wounds),
        ch.status.value,
        order,
        ch.ammo.value,
        ch.alert,
    )


def render_counter(game: Game, ch: Character, size: int, fonts: Fonts, *, hidden: bool) -> pygame.Surface:
    """One counter (with its order badge) on a transparent surface of side ``size * 1.3``.

    The counter's centre is the surface's centre. Friendly: body in the team
    colour, olive name stripe, red frame when Spotted (dark when Hidden).
    Enemy Known: body in the team colour, field-grey name stripe. Unknown (or a
    dummy): dark body, a '?', the team's band. Wounds are red dots (bigger for
    Bad), a morale badge shows any state but Normal.
    """
    pad = round(size * 0.15)
    full = size + 2 * pad
    surf = pygame.Surface((full, full), pygame.SRCALPHA)
    body = pygame.Rect(pad, pad, size, size)
    radius = max(2, size // 8)
    colour = team_colour(game, ch.team)
    stripe_h = max(5, round(size * 0.3))
    small = max(7, round(size * 0.27))
    if hidden:
        pygame.draw.rect(surf, theme.UNKNOWN_BODY, body, border_radius=radius)
        band = pygame.Rect(body.x, body.y, size, max(3, round(size * 0.16)))
        pygame.draw.rect(surf, colour, band, border_top_left_radius=radius, border_top_right_radius=radius)
        q = fonts.text("?", round(size * 0.62), (240, 240, 240), bold=True)
        surf.blit(q, q.get_rect(center=(body.centerx, body.centery + size * 0.06)))
        pygame.draw.rect(surf, (20, 20, 20), body, 1, border_radius=radius)
    else:
        pygame.draw.rect(surf, colour, body, border_radius=radius)
        stripe = theme.FRIENDLY_STRIPE if ch.side is Side.FRIENDLY else theme.ENEMY_STRIPE
        srect = pygame.Rect(body.x, body.y, size, stripe_h)
        pygame.draw.rect(surf, stripe, srect, border_top_left_radius=radius, border_top_right_radius=radius)
        forms = counter_name_forms(ch.name or ch.id)
        while small > max(7, round(size * 0.2)) and fonts.width(forms[0], small, condensed=True) > size - 3:
            small -= 1
        short = fonts.first_fitting(forms, small, size - 2, condensed=True)
        nt = fonts.text(short, small, (245, 245, 235), condensed=True)
        surf.blit(nt, nt.get_rect(center=srect.center))
        # TQ (effective, with wounds) at the bottom left
        tq_size = max(8, round(size * 0.36))
        tq_text = str(ch.effective_tq)
        tt = fonts.text(tq_text, tq_size, theme.text_on(colour), bold=True)
        surf.blit(tt, (body.x + max(2, size * 0.08), body.bottom - tt.get_height()))
        # wounds at the bottom right
        r_light, r_bad = max(2, size * 0.07), max(3, size * 0.1)
        x = body.right - max(3, size * 0.1)
        y = body.bottom - max(4, size * 0.13)
        for w in reversed(ch.wounds):
            r = r_bad if w.value == "bad" else r_light
            pygame.draw.circle(surf, theme.WOUND_BAD if w.value == "bad" else theme.WOUND_LIGHT, (x, y), r)
            pygame.draw.circle(surf, (255, 255, 255), (x, y), r, 1)
            x -= 2 * r + 1
        if ch.side is Side.FRIENDLY:
            frame = theme.SPOTTED_FRAME if ch.revealed else theme.HIDDEN_FRAME
            pygame.draw.rect(surf, frame, body, 3 if ch.revealed else 1, border_radius=radius)
        else:
            pygame.draw.rect(surf, (20, 20, 20), body, 1, border_radius=radius)
        # morale badge at the top left
        ab = theme.MORALE_ABBREV.get(ch.morale.value, "")
        if ab:
            bc = theme.MORALE_COLOURS[ch.morale.value]
            bt = fonts.text(ab, max(7, round(size * 0.24)), theme.text_on(bc), bold=True, condensed=True)
            br = bt.get_rect(topleft=(0, 0)).inflate(4, 0)
            pygame.draw.rect(surf, bc, br, border_radius=3)
            surf.blit(bt, bt.get_rect(center=br.center))
        if ch.status is Status.INCAPACITATED:
            pygame.draw.line(surf, (20, 20, 20), body.topleft, body.bottomright, 3)
            pygame.draw.line(surf, (20, 20, 20), body.topright, body.bottomleft, 3)
    # order marker at the top right
    if ch.order is not None:
        ab = order_abbrev(game, ch.order.order)
        ot = fonts.text(ab, max(7, round(size * 0.26)), (20, 20, 20), bold=True, condensed=True)
        orr = ot.get_rect(topright=(full, 0)).inflate(4, 2)
        orr.topright = (full, 0)
        pygame.draw.rect(surf, theme.ORDER_BADGE, orr, border_radius=3)
        pygame.draw.rect(surf, (60, 50, 10), orr, 1, border_radius=3)
        surf.blit(ot, ot.get_rect(center=orr.center))
    return surf


class CounterCache:
    """Rendered counters by what they show and the zoom; cleared when it grows large."""

    def __init__(self) -> None:
        self._cache: dict[tuple[Any, ...], pygame.Surface] = {}

    def get(self, game: Game, ch: Character, size: int, fonts: Fonts, *, hidden: bool) -> pygame.Surface:
        """The counter surface of ``ch`` at ``size``."""
        key = (counter_key(game, ch, hidden), size)
        surf = self._cache.get(key)
        if surf is None:
            if len(self._cache) > 600:
                self._cache.clear()
            surf = render_counter(game, ch, size, fonts, hidden=hidden)
            self._cache[key] = surf
        return surf


# ---------------------------------------------------------------------------
# The dynamic layer


def _ring(
    surface: pygame.Surface, camera: Camera, h: Hex, colour: theme.Colour, width: int, radius: float = 0.92
) -> None:
    pygame.draw.polygon(surface, colour, camera.corners(h, radius), width)


def draw_objectives(surface: pygame.Surface, game: Game, camera: Camera, fonts: Fonts) -> None:
    """Victory objectives of the scenario: a red ring and flag (C2 scenario rules)."""
    for obj in game.scenario.victory.objectives:
        try:
            h = Hex.parse(obj.hex)
        except Exception:
            continue
        if not game.board.map.has_hex(h):
            continue
        _ring(surface, camera, h, theme.OBJECTIVE, max(2, round(camera.scale * 0.1)), 0.8)
        cx, cy = camera.centre(h)
        t = fonts.text(f"{obj.vp} VP", max(7, round(camera.scale * 0.3)), theme.OBJECTIVE, bold=True)
        surface.blit(t, t.get_rect(midbottom=(cx, cy + camera.scale * 0.84)))


def draw_direction_counters(surface: pygame.Surface, game: Game, camera: Camera, fonts: Fonts) -> None:
    """The scenario's Direction Counters: a small rose with order direction 1 marked (base-rules §6)."""
    for dc in game.scenario.direction_counters:
        h = Hex.parse(dc.hex)
        if not game.board.map.has_hex(h):
            continue
        cx, cy = camera.centre(h)
        r = camera.scale * 0.78
        pygame.draw.circle(surface, (250, 250, 240), (cx, cy), r)
        pygame.draw.circle(surface, (40, 40, 40), (cx, cy), r, 1)
        size = max(8, round(camera.scale * 0.3))
        for d in range(1, 7):
            md = map_direction(dc.rotation, d)
            a = math.radians(-90 + 60 * (md - 1))
            x, y = cx + math.cos(a) * r * 0.72, cy + math.sin(a) * r * 0.72
            t = fonts.text(str(d), size, (200, 30, 30) if d == 1 else (30, 30, 30), bold=d == 1)
            surface.blit(t, t.get_rect(center=(x, y)))


def draw_markers(surface: pygame.Surface, game: Game, camera: Camera, fonts: Fonts) -> None:
    """Terrain changed in play (a Building hit became Rubble, §14: the new terrain drawn over the
    map's, tagged), minefields (the map's and the scenario's, C2 31.5), then the smoke, fire, grenade and
    illumination markers of ``game.state.markers`` (§12-§15, C2 29)."""
    mk = game.state.markers
    s = camera.scale
    size = max(8, round(s * 0.34))

    def tag(h: Hex, text: str, colour: theme.Colour, dx: float, dy: float) -> None:
        cx, cy = camera.centre(h)
        t = fonts.text(text, size, theme.text_on(colour), bold=True, condensed=True)
        r = t.get_rect(center=(cx + dx * s, cy + dy * s)).inflate(6, 2)
        pygame.draw.rect(surface, colour, r, border_radius=4)
        pygame.draw.rect(surface, (30, 30, 30), r, 1, border_radius=4)
        surface.blit(t, t.get_rect(center=r.center))

    for h, tid in game.state.terrain_changes.items():  # a Building hit became Rubble (§14)
        if not game.board.map.has_hex(h):
            continue
        cx, cy = camera.centre(h)
        fill = theme.terrain_colour(tid)
        lvl = game.board.map.level.get(h, 0)
        if lvl:
            fill = tint(fill, (214, 184, 128), min(0.5, 0.16 * lvl))
        if game.scenario.night:  # as the map layer's night tint (§15)
            fill = tint(fill, theme.NIGHT_TINT[:3], theme.NIGHT_TINT[3] / 255)
        pygame.draw.polygon(surface, fill, hex_corners(cx, cy, s))
        draw_pattern(surface, tid, cx, cy, s, h, fill)
        pygame.draw.polygon(surface, theme.GRID, hex_corners(cx, cy, s), 1 if s < 30 else 2)
        name = game.board.terrain_of(h).name.upper()
        tag(h, name, theme.TERRAIN_CHANGE, 0, 0.5)
    for h in minefield_hexes(game):
        if not game.board.map.has_hex(h):
            continue
        cx, cy = camera.centre(h)
        for dx, dy in ((-0.35, 0.15), (0.0, 0.4), (0.35, 0.15)):
            pygame.draw.circle(surface, theme.MINE, (cx + dx * s, cy + dy * s), max(3, s * 0.1))
        tag(h, "MINES", theme.MINE, 0, -0.15)
    for h, kinds in mk.smoke.items():
        if not game.board.map.has_hex(h) or not kinds:
            continue
        cx, cy = camera.centre(h)
        heavy = "smoke" in kinds
        col = theme.SMOKE if heavy else theme.FADING
        for dx, dy in ((-0.3, -0.1), (0.3, -0.1), (0.0, 0.25), (0.0, -0.35)):
            pygame.draw.circle(surface, col, (cx + dx * s, cy + dy * s), s * 0.38)
        label = "SMOKE" if heavy else "FADING"
        if len(kinds) > 1:
            label += f" ×{len(kinds)}"
        tag(h, label, col, 0, 0.55)
    for h, kind in mk.fire.items():
        if not game.board.map.has_hex(h):
            continue
        colour = theme.RAGING if kind == "raging" else theme.FIRE
        cx, cy = camera.centre(h)
        r = s * 0.9
        o = r + 1
        glow = pygame.Surface((round(2 * o), round(2 * o)), pygame.SRCALPHA)
        pygame.draw.polygon(glow, (*colour, 110), hex_corners(o, o, r))
        for dx, hgt in ((-0.35, 0.5), (0.0, 0.75), (0.35, 0.5)):
            bx = o + dx * s
            flame = [(bx - s * 0.18, o + s * 0.3), (bx, o + s * (0.3 - hgt)), (bx + s * 0.18, o + s * 0.3)]
            pygame.draw.polygon(glow, (*colour, 230), flame)
        surface.blit(glow, (cx - o, cy - o))
        tag(h, "RAGING FIRE" if kind == "raging" else "FIRE", colour, 0, -0.6)
    for g in mk.grenades:
        try:
            h = g["hex"] if isinstance(g["hex"], Hex) else Hex.parse(str(g["hex"]))
        except Exception:
            continue
        if not game.board.map.has_hex(h):
            continue
        kind = str(g.get("kind", "grenade"))
        label = {"smoke_grenade": "SG", "grenade": "G", "rifle_grenade": "RG"}.get(kind, kind[:3].upper())
        cx, cy = camera.centre(h)
        gx, gy, gr = cx + s * 0.45, cy - s * 0.2, max(6, s * 0.24)
        pygame.draw.circle(surface, theme.GRENADE, (gx, gy), gr)
        pygame.draw.circle(surface, (210, 210, 210), (gx, gy), gr, 1)
        t = fonts.text(label, size, (255, 255, 255), bold=True, condensed=True)
        surface.blit(t, t.get_rect(center=(gx, gy)))
    for h in mk.illuminated:
        if not game.board.map.has_hex(h):
            continue
        cx, cy = camera.centre(h)
        pts = []
        for i in range(10):
            a = math.radians(-90 + 36 * i)
            r = s * (0.5 if i % 2 == 0 else 0.22)
            pts.append((cx + math.cos(a) * r, cy + math.sin(a) * r))
        pygame.draw.polygon(surface, theme.ILLUMINATION, pts)
        pygame.draw.polygon(surface, (120, 100, 0), pts, 1)


def draw_decision_hints(surface: pygame.Surface, game: Game, camera: Camera, fonts: Fonts) -> None:
    """Where the pending decision points on the map: its actor, its target hexes, its directions."""
    d = game.pending
    if d is None:
        return
    width = max(2, round(camera.scale * 0.12))
    actor = game.state.characters.get(d.actor) if d.actor else None
    if actor is not None and actor.hex is not None:
        _ring(surface, camera, actor.hex, theme.ACTOR, width + 1, 0.98)
    for h in dict.fromkeys(option_hexes(game, d).values()):
        _ring(surface, camera, h, theme.TARGET_HINT, width, 0.86)


def draw_direction_hints(surface: pygame.Surface, game: Game, camera: Camera, fonts: Fonts) -> None:
    """For a direction decision: the legal single directions around the man's hex, as the counter reads."""
    d = game.pending
    if d is None:
        return
    actor = game.state.characters.get(d.actor) if d.actor else None
    if actor is None or actor.hex is None:
        return
    turns = turret_keys(d)
    if turns and d.kind.value == "order_target":
        draw_turret_hints(surface, game, camera, fonts, actor.hex, turns)
        return
    if d.kind.value != "order_direction":
        return
    rot = order_rotation(game, actor)
    if rot is None:
        return
    cx, cy = camera.centre(actor.hex)
    size = max(9, round(camera.scale * 0.45))
    for k in d.keys:
        if "/" in k:
            continue
        md = map_direction(rot, int(k))
        a = math.radians(-90 + 60 * (md - 1))
        x, y = cx + math.cos(a) * camera.scale * SQRT3, cy + math.sin(a) * camera.scale * SQRT3
        pygame.draw.circle(surface, theme.ACTOR, (x, y), size * 0.8)
        pygame.draw.circle(surface, (10, 10, 10), (x, y), size * 0.8, 1)
        t = fonts.text(k, size, (10, 10, 10), bold=True)
        surface.blit(t, t.get_rect(center=(x, y)))


def draw_turret_hints(
    surface: pygame.Surface, game: Game, camera: Camera, fonts: Fonts, at: Hex, turns: dict[int, str]
) -> None:
    """A turret decision (C2 31.6): "T<n>" beside the vehicle's hex in each direction the turret may
    turn to (a click toward one answers it)."""
    cx, cy = camera.centre(at)
    size = max(9, round(camera.scale * 0.4))
    for md in turns:
        a = math.radians(-90 + 60 * (md - 1))
        x, y = cx + math.cos(a) * camera.scale * SQRT3, cy + math.sin(a) * camera.scale * SQRT3
        pygame.draw.circle(surface, theme.TARGET_HINT, (x, y), size)
        pygame.draw.circle(surface, (10, 10, 10), (x, y), size, 1)
        t = fonts.text(f"T{md}", size, (10, 10, 10), bold=True, condensed=True)
        surface.blit(t, t.get_rect(center=(x, y)))


def draw_counters(
    surface: pygame.Surface,
    game: Game,
    camera: Camera,
    fonts: Fonts,
    cache: CounterCache,
    *,
    hidden_ids: frozenset[str],
    selected: str | None = None,
    fan: Hex | None = None,
) -> None:
    """Every character counter on the map, stacks offset (the stack in ``fan`` fanned out);
    selected and active men ringed."""
    size = counter_size(camera)
    active = game.state.flow.active_character
    chars = game.state.characters
    for cid, rect in counter_spots(game, camera, fan=fan):
        ch = chars[cid]
        surf = cache.get(game, ch, size, fonts, hidden=cid in hidden_ids)
        surface.blit(surf, surf.get_rect(center=rect.center))
        if cid == active:
            pygame.draw.rect(surface, theme.ACTIVE, rect.inflate(6, 6), 3, border_radius=6)
        if cid == selected:
            pygame.draw.rect(surface, theme.SELECTED, rect.inflate(10, 10), 2, border_radius=7)


def draw_vehicles(
    surface: pygame.Surface,
    game: Game,
    camera: Camera,
    fonts: Fonts,
    cache: vehicle_counters.VehicleCache | None = None,
    *,
    selected: str | None = None,
) -> None:
    """Vehicle counters: hull facing, turret, name, Loaded marker, damage and fire (C2 31).

    See :func:`solo.render.vehicle_counters.render_vehicle`; nothing is drawn without vehicles.
    """
    if not vehicles_of(game.state):
        return
    vehicle_counters.draw_vehicles(
        surface, game, camera, fonts, cache or vehicle_counters.VehicleCache(), selected=selected
    )


def draw_los(
    surface: pygame.Surface,
    game: Game,
    camera: Camera,
    fonts: Fonts,
    viewer_id: str | None,
    target: Hex | None,
    *,
    hidden_ids: frozenset[str],
) -> str | None:
    """The LOS line from ``viewer_id``'s hex to ``target`` (base-rules §16), blocking hex ringed.

    Uses :meth:`Game.sight` (weather, night, smoke, low orders). Returns the
    line's caption ("range 6, clear, modifier −2"), or None when nothing is
    drawn (no viewer on the map, same hex, or a hidden viewer).
    """
    if viewer_id is None or target is None:
        return None
    viewer = game.state.characters.get(viewer_id)
    if viewer is None or viewer.hex is None or viewer.hex == target or viewer_id in hidden_ids:
        return None
    shown = [c for c in game.state.at(target) if c.side is not viewer.side]
    sight = game.sight(viewer, target, target=shown[-1] if shown else None)
    a = camera.centre(viewer.hex)
    b = camera.centre(target)
    w = max(2, round(camera.scale * 0.1))
    if sight.clear:
        pygame.draw.line(surface, theme.LOS_CLEAR, a, b, w)
        caption = f"LOS {viewer.hex} → {target}: range {sight.range}, clear"
        if sight.modifier:
            caption += f", modifier {sight.modifier:+d}"
    elif sight.blocked_by is not None and game.board.map.has_hex(sight.blocked_by):
        m = camera.centre(sight.blocked_by)
        pygame.draw.line(surface, theme.LOS_CLEAR, a, m, w)
        pygame.draw.line(surface, theme.LOS_BLOCKED, m, b, w)
        _ring(surface, camera, sight.blocked_by, theme.LOS_BLOCKED, w + 1, 0.9)
        caption = (
            f"LOS {viewer.hex} → {target}: range {sight.range}, blocked at {sight.blocked_by} ({sight.rule})"
        )
    else:
        pygame.draw.line(surface, theme.LOS_BLOCKED, a, b, w)
        caption = f"LOS {viewer.hex} → {target}: range {sight.range}, blocked ({sight.rule})"
    pygame.draw.circle(surface, theme.LOS_CLEAR if sight.clear else theme.LOS_BLOCKED, b, w * 1.6)
    return caption


def draw_board(
    surface: pygame.Surface,
    game: Game,
    camera: Camera,
    fonts: Fonts,
    layer: MapLayer,
    counters: CounterCache,
    *,
    hidden_ids: frozenset[str],
    labels: bool = False,
    selected: str | None = None,
    los_viewer: str | None = None,
    hover: Hex | None = None,
    vehicles: vehicle_counters.VehicleCache | None = None,
    selected_vehicle: str | None = None,
    fan: Hex | None = None,
) -> str | None:
    """The whole map view, clipped to ``camera.rect``; returns the LOS caption if a line is drawn.

    Layers, bottom up: the cached map, objectives, Direction Counters, markers,
    the decision's hints, Target Marker links, vehicles, character counters,
    Target Markers, direction hints, the LOS line, the hovered hex.
    """
    old = surface.get_clip()
    surface.set_clip(camera.rect)
    surface.fill(theme.MAP_BACKGROUND, camera.rect)
    layer.blit(surface, camera, fonts, labels=labels, night=bool(game.scenario.night))
    draw_objectives(surface, game, camera, fonts)
    draw_direction_counters(surface, game, camera, fonts)
    draw_markers(surface, game, camera, fonts)
    draw_decision_hints(surface, game, camera, fonts)
    spots: list[target_markers.MarkerSpot] = []
    if vehicles_of(game.state):
        spots = target_markers.draw_marker_links(surface, game, camera)
        draw_vehicles(surface, game, camera, fonts, vehicles, selected=selected_vehicle)
    draw_counters(surface, game, camera, fonts, counters, hidden_ids=hidden_ids, selected=selected, fan=fan)
    if spots:
        target_markers.draw_target_markers(surface, game, camera, fonts, spots)
    draw_direction_hints(surface, game, camera, fonts)
    caption = draw_los(surface, game, camera, fonts, los_viewer, hover, hidden_ids=hidden_ids)
    if hover is not None and game.board.map.has_hex(hover):
        _ring(surface, camera, hover, (255, 255, 255), 1, 1.0)
    surface.set_clip(old)
    return caption
