"""The map editor of ``solo edit MAP`` (issue 12 item 5): paint a map in the game's window.

:class:`MapEditor` holds a :class:`~solo.data.map_draft.MapDraft` and turns pygame events
into edits: terrain per hex (brush, or fill of the connected hexes of one terrain), elevation
(brush or fill), hexside features (hedge, wall, bocage) by clicking near a hexside, overlays
(barbed wire, foxholes...) per hex, roads by dragging from hex to adjacent hex, the map's
minefields (C2 31.5: a click toggles a hex); right click removes a hexside feature, overlay,
road hex or minefield. Undo/redo keep whole drafts. The LOS tool
shows the rules' line of sight (base-rules §16, C2 27, :class:`~solo.rules.los.LineOfSight`)
between two clicked hexes of the map as it is now.

Saving writes the shipped map format (:func:`~solo.data.map_draft.dump_draft`), then runs the
validator (:func:`solo.data.validate.validate`) on the file and rings every hex a problem
names, listing the problems (``path:line: message``) under the map.

The palette's top holds the map's id and name: click one, type, Enter (or Tab) sets it
(undoable), Escape leaves it as it was. Levels 0-9 (the one-digit ``elevation`` grid); the
zoom buttons ``zoom +``, ``zoom −`` and ``fit`` work like the keys.

Keys: Ctrl+Z undo, Ctrl+Y (or Ctrl+Shift+Z) redo, Ctrl+S save, F brush/fill, L the LOS tool,
+ / − zoom (or the mouse wheel), arrows (or a middle-button drag) pan, Home fit the map,
Escape quit.

May import: :mod:`solo.core`, :mod:`solo.data`, :mod:`solo.rules` and the render room.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pygame

from solo.core.errors import Problem
from solo.core.hexes import Hex
from solo.data.map_draft import (
    MapDraft,
    code_for,
    dump_draft,
    hex_terrains,
    hexside_features,
    neighbours_of,
    overlay_features,
)
from solo.data.maps import Board, side_key
from solo.data.terrain import TerrainTable, load_terrain
from solo.data.validate import validate
from solo.render import theme
from solo.render.board import MapLayer
from solo.render.panels import PAD, SMALL_SIZE, TEXT_SIZE
from solo.render.view import Camera, Hotspot, hexside_segment

PALETTE_W = 240
"""Width in pixels of the tool palette left of the map."""
STATUS_H = 96
"""Height in pixels of the status strip under the map (hover, LOS, problems); the palette
beside it runs the window's full height."""
MIN_SIZE = (800, 680)
"""The smallest layout: the palette's buttons need 680 pixels of height."""
BUTTON_H = 22
LEVELS = tuple(range(10))
"""Elevation levels offered on the palette: 0-9, every level the map format's one-digit
``elevation`` grid allows (:mod:`solo.data.maps`; :data:`solo.core.bounds.LEVEL` allows
-3 for obstacles and depressions, which no hex's ground level takes)."""
LEVELS_PER_ROW = 5
FIELD_MAX = 40
"""Most characters typed into the id or name field."""
PAN_STEP = 60
"""Pixels an arrow key pans the map."""
_MAP_ID = re.compile(r"[a-z][a-z0-9_]*")
UNDO_LIMIT = 200
_HEX_IN_TEXT = re.compile(r"\b(\d\d\.\d\d)\b")


class MapEditor:
    """The editor's state and its drawing; :meth:`handle` takes pygame events.

    ``path`` is where :meth:`save` writes. ``size`` is the window size in pixels.
    """

    def __init__(
        self,
        draft: MapDraft,
        path: Path | str,
        fonts: theme.Fonts,
        *,
        size: tuple[int, int] = (1600, 1000),
        table: TerrainTable | None = None,
    ) -> None:
        self.draft = draft
        self.path = Path(path)
        self.fonts = fonts
        self.size = size
        self.table = table if table is not None else load_terrain()
        self.tool: tuple[str, str] = ("terrain", "trees" if "trees" in self.table else "open")
        self.fill = False
        self.undo_stack: list[MapDraft] = []
        self.redo_stack: list[MapDraft] = []
        self.los_ends: list[Hex] = []
        self.los_caption = ""
        self.los_clear = False
        self.los_blocked: Hex | None = None
        self.problems: list[Problem] = []
        self.problem_hexes: list[Hex] = []
        self.message = f"editing {self.path}"
        self.hover: Hex | None = None
        self.editing: str | None = None
        """The field being typed into ("id" or "name"), or None."""
        self.typed = ""
        self.panning = False
        self.quit = False
        self._stroke: MapDraft | None = None
        self._road: list[Hex] = []
        self._board: Board | None = None
        self._layer: MapLayer | None = None
        self.camera = Camera(self.board, self.map_rect)

    # -- geometry ------------------------------------------------------------

    @property
    def map_rect(self) -> pygame.Rect:
        """Where the map is drawn."""
        w, h = self.size
        return pygame.Rect(PALETTE_W, 0, w - PALETTE_W, h - STATUS_H)

    def resize(self, size: tuple[int, int]) -> None:
        """The window is now ``size`` pixels: lay the editor out again and fit the map."""
        self.size = (max(MIN_SIZE[0], size[0]), max(MIN_SIZE[1], size[1]))
        self.camera.fit(self.map_rect)

    @property
    def board(self) -> Board:
        """The :class:`Board` of the draft as it is now (rebuilt after an edit)."""
        if self._board is None:
            self._board = Board.from_map(self.draft.to_map(str(self.path)), self.table)
            self._layer = MapLayer(self._board)
        return self._board

    def _changed(self) -> None:
        self._board = None
        self._layer = None
        self.los_caption = self._los() if len(self.los_ends) == 2 else ""

    def hotspots(self) -> list[Hotspot]:
        """The palette's buttons: the map's id and name fields, tools, levels, fill, zoom,
        undo/redo, save."""
        out: list[Hotspot] = []
        x, y, w = PAD, PAD + 24, PALETTE_W - 2 * PAD
        half = (w - 4) // 2
        third = (w - 8) // 3

        def add(action: tuple[str, ...], label: str, *, col: int = 0, width: int = w) -> None:
            nonlocal y
            out.append(Hotspot(pygame.Rect(x + col * (half + 4), y, width, BUTTON_H), action, label))

        def row() -> None:
            nonlocal y
            y += BUTTON_H + 3

        for field in ("id", "name"):
            add(("field", field), f"{field}: {getattr(self.draft, field)}")
            row()
        y += 4
        terrains = hex_terrains(self.table)
        for i, tid in enumerate(terrains):
            add(("terrain", tid), self.table[tid].name, col=i % 2, width=half)
            if i % 2 == 1 or i == len(terrains) - 1:
                row()
        y += 4
        lw = (w - (LEVELS_PER_ROW - 1) * 3) // LEVELS_PER_ROW
        for i, lv in enumerate(LEVELS):
            col = i % LEVELS_PER_ROW
            rect = pygame.Rect(x + col * (lw + 3), y, lw, BUTTON_H)
            out.append(Hotspot(rect, ("level", str(lv)), f"L{lv}"))
            if col == LEVELS_PER_ROW - 1 or i == len(LEVELS) - 1:
                row()
        y += 4
        for i, f in enumerate(hexside_features(self.table)):
            add(("side", f), f"side: {self.table[f].name}", col=i % 2, width=half)
            if i % 2 == 1:
                row()
        if len(hexside_features(self.table)) % 2:
            row()
        overlays = overlay_features(self.table)
        for i, f in enumerate(overlays):
            add(("overlay", f), self.table[f].name, col=i % 2, width=half)
            if i % 2 == 1 or i == len(overlays) - 1:
                row()
        y += 4
        add(("road", ""), "road (drag)", width=half)
        add(("los", ""), "LOS (two hexes)", col=1, width=half)
        row()
        y += 4
        add(("mines", ""), "minefield", width=half)
        add(("fill", ""), "fill: on" if self.fill else "fill: off (brush)", col=1, width=half)
        row()
        for i, (action, label) in enumerate((("zoom_in", "zoom +"), ("zoom_out", "zoom −"), ("fit", "fit"))):
            out.append(Hotspot(pygame.Rect(x + i * (third + 4), y, third, BUTTON_H), (action, ""), label))
        row()
        add(("undo", ""), "undo", width=half)
        add(("redo", ""), "redo", col=1, width=half)
        row()
        add(("save", ""), "save + validate")
        return out

    def hexside_at(self, pos: tuple[float, float]) -> tuple[Hex, Hex] | None:
        """The hexside nearest to ``pos`` within the hex under it (by :func:`side_key`), or None."""
        h = self.camera.hex_at(pos)
        if h is None:
            return None
        best, best_d = None, math.inf
        for _d, n in neighbours_of(self.draft, h):
            a, b = self.camera.centre(h), self.camera.centre(n)
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            dist = (mx - pos[0]) ** 2 + (my - pos[1]) ** 2
            if dist < best_d:
                best, best_d = side_key(h, n), dist
        return best

    # -- events --------------------------------------------------------------

    def handle(self, ev: pygame.event.Event) -> None:
        """Apply one pygame event (mouse on the palette or the map, keys)."""
        if ev.type == pygame.QUIT:
            self.quit = True
        elif ev.type == pygame.VIDEORESIZE:
            self.resize(ev.size)
        elif ev.type == pygame.KEYDOWN and self.editing is not None:
            self._type(ev)
        elif ev.type == pygame.KEYDOWN:
            self._key(ev.key, ev.mod)
        elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button in (1, 3):
            if self.editing is not None:
                self._commit_field(keep_open=False)
            for spot in self.hotspots():
                if spot.rect.collidepoint(ev.pos) and ev.button == 1:
                    self.click(spot.action)
                    return
            h = self.camera.hex_at(ev.pos)
            if h is not None:
                self._press(h, ev.pos, right=ev.button == 3)
        elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 2:
            self.panning = True
        elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 2:
            self.panning = False
        elif ev.type == pygame.MOUSEMOTION and self.panning:
            self.camera.pan(*ev.rel)
        elif ev.type == pygame.MOUSEMOTION:
            self.hover = self.camera.hex_at(ev.pos)
            if self._stroke is not None and self.hover is not None:
                self._drag(self.hover)
        elif ev.type == pygame.MOUSEBUTTONUP and ev.button in (1, 3):
            self._release()
        elif ev.type == pygame.MOUSEWHEEL:
            self.camera.zoom(ev.y, pygame.mouse.get_pos())

    def click(self, action: tuple[str, ...]) -> None:
        """A palette button: a field to type in, choose a tool or a level, toggle fill, zoom,
        undo, redo or save."""
        kind, value = action[0], action[1] if len(action) > 1 else ""
        if kind == "field":
            self.editing = value
            self.typed = str(getattr(self.draft, value))
            self.message = f"type the map's {value}; Enter sets it, Esc leaves it as it was"
        elif kind == "zoom_in":
            self.camera.zoom(1)
        elif kind == "zoom_out":
            self.camera.zoom(-1)
        elif kind == "fit":
            self.camera.fit(self.map_rect)
        elif kind in ("terrain", "level", "side", "overlay", "road", "los", "mines"):
            self.tool = (kind, value)
            if kind == "los":
                self.los_ends = []
                self.los_caption = "LOS: click two hexes"
        elif kind == "fill":
            self.fill = not self.fill
        elif kind == "undo":
            self.undo()
        elif kind == "redo":
            self.redo()
        elif kind == "save":
            self.save()

    def _key(self, key: int, mod: int) -> None:
        ctrl = bool(mod & pygame.KMOD_CTRL)
        if ctrl and key == pygame.K_z:
            self.redo() if mod & pygame.KMOD_SHIFT else self.undo()
        elif ctrl and key == pygame.K_y:
            self.redo()
        elif ctrl and key == pygame.K_s:
            self.save()
        elif key == pygame.K_f:
            self.fill = not self.fill
        elif key == pygame.K_l:
            self.click(("los", ""))
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.camera.zoom(1)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.camera.zoom(-1)
        elif key == pygame.K_HOME:
            self.camera.fit(self.map_rect)
        elif key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            dx = {pygame.K_LEFT: PAN_STEP, pygame.K_RIGHT: -PAN_STEP}.get(key, 0)
            dy = {pygame.K_UP: PAN_STEP, pygame.K_DOWN: -PAN_STEP}.get(key, 0)
            self.camera.pan(dx, dy)
        elif key == pygame.K_ESCAPE:
            self.quit = True

    # -- the id and name fields ----------------------------------------------

    def _type(self, ev: pygame.event.Event) -> None:
        """A key while a field is open: Enter/Tab sets it, Esc closes it unchanged."""
        if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_TAB):
            self._commit_field(keep_open=True)
        elif ev.key == pygame.K_ESCAPE:
            self.editing, self.typed = None, ""
            self.message = f"editing {self.path}"
        elif ev.key == pygame.K_BACKSPACE:
            self.typed = self.typed[:-1]
        else:
            ch = ev.unicode if isinstance(getattr(ev, "unicode", None), str) else ""
            if ch and ch.isprintable() and len(self.typed) < FIELD_MAX:
                self.typed += ch

    def _commit_field(self, *, keep_open: bool) -> None:
        """Set the open field to what was typed (an undoable edit). A map id must be
        snake_case and a name not blank; otherwise the field stays open with the reason
        (``keep_open``) or closes unchanged."""
        field, value = self.editing, self.typed.strip()
        assert field is not None
        bad = ""
        if field == "id" and not _MAP_ID.fullmatch(value):
            bad = f"map id {value!r} must be snake_case (e.g. my_town)"
        elif field == "name" and not value:
            bad = "the map's name must not be blank"
        if bad and keep_open:
            self.message = bad
            return
        self.editing, self.typed = None, ""
        if bad or getattr(self.draft, field) == value:
            self.message = bad or f"editing {self.path}"
            return
        self.undo_stack = [*self.undo_stack[-UNDO_LIMIT + 1 :], self.draft.copy()]
        self.redo_stack = []
        setattr(self.draft, field, value)
        self.message = f"map {field} set to {value!r} (saved with Ctrl+S)"

    def _press(self, h: Hex, pos: tuple[float, float], *, right: bool) -> None:
        kind, value = self.tool
        if kind == "los":
            self.los_ends = [h] if len(self.los_ends) != 1 else [*self.los_ends, h]
            self.los_caption = self._los() if len(self.los_ends) == 2 else f"LOS from {h}: click a second hex"
            return
        self._stroke = self.draft.copy()
        if kind == "side":
            side = self.hexside_at(pos)
            if side is not None:
                if right or self.draft.hexsides.get(side) == value:
                    self.draft.hexsides.pop(side, None)
                else:
                    self.draft.hexsides[side] = value
        elif kind == "overlay":
            feats = self.draft.overlays.setdefault(h, [])
            if value in feats:
                feats.remove(value)
            elif not right:
                feats.append(value)
            if not feats:
                del self.draft.overlays[h]
        elif kind == "mines":
            mined = h in self.draft.minefields
            if mined:
                self.draft.minefields.remove(h)
            elif not right:
                self.draft.minefields.append(h)
            self.message = f"{h}: {'no minefield' if mined or right else 'minefield'} (C2 31.5)"
        elif kind == "road":
            if right:
                self._cut_road(h)
            else:
                self._road = [h]
        elif not right:
            if self.fill:
                self._fill(h)
            else:
                self._paint(h)
        self._changed()

    def _drag(self, h: Hex) -> None:
        kind, _value = self.tool
        if kind == "road" and self._road and h != self._road[-1]:
            if any(n == h for _d, n in neighbours_of(self.draft, self._road[-1])):
                self._road.append(h)
        elif kind in ("terrain", "level") and not self.fill:
            self._paint(h)
            self._changed()

    def _release(self) -> None:
        if self._stroke is None:
            return
        if len(self._road) >= 2:
            self.draft.roads.append(list(self._road))
            self._changed()
        self._road = []
        if self.draft != self._stroke:
            self.undo_stack = [*self.undo_stack[-UNDO_LIMIT + 1 :], self._stroke]
            self.redo_stack = []
        self._stroke = None

    # -- edits ---------------------------------------------------------------

    def _paint(self, h: Hex) -> None:
        kind, value = self.tool
        if kind == "terrain":
            code_for(self.draft, value)
            self.draft.terrain[h] = value
        elif kind == "level":
            self.draft.level[h] = int(value)

    def _fill(self, start: Hex) -> None:
        """Paint every hex connected to ``start`` that has its terrain (or level)."""
        kind, _value = self.tool
        grid = self.draft.terrain if kind == "terrain" else self.draft.level
        old = grid[start]
        seen = {start}
        todo = [start]
        while todo:
            h = todo.pop()
            self._paint(h)
            for _d, n in neighbours_of(self.draft, h):
                if n not in seen and grid[n] == old:
                    seen.add(n)
                    todo.append(n)

    def _cut_road(self, h: Hex) -> None:
        """Take ``h`` out of every road path, splitting the paths there."""
        out: list[list[Hex]] = []
        for path in self.draft.roads:
            piece: list[Hex] = []
            for x in path:
                if x == h:
                    if len(piece) >= 2:
                        out.append(piece)
                    piece = []
                else:
                    piece.append(x)
            if len(piece) >= 2:
                out.append(piece)
        self.draft.roads = out

    def undo(self) -> None:
        """Go back one edit (a stroke, a fill, a click)."""
        if self.undo_stack:
            self.redo_stack.append(self.draft)
            self.draft = self.undo_stack.pop()
            self._changed()

    def redo(self) -> None:
        """Do again the last edit undone."""
        if self.redo_stack:
            self.undo_stack.append(self.draft)
            self.draft = self.redo_stack.pop()
            self._changed()

    def save(self) -> list[Problem]:
        """Write the map to :attr:`path`, validate it; returns (and shows) the problems."""
        text = dump_draft(self.draft)
        self.path.write_text(text, encoding="utf-8")
        _count, self.problems = validate([self.path])
        self.problem_hexes = []
        for p in self.problems:
            for tok in _HEX_IN_TEXT.findall(p.message):
                h = Hex.parse(tok)
                if self.draft.has_hex(h) and h not in self.problem_hexes:
                    self.problem_hexes.append(h)
        n = len(self.problems)
        self.message = f"saved {self.path}: " + (f"{n} problem(s)" if n else "valid")
        return self.problems

    def _los(self) -> str:
        from solo.rules.los import LineOfSight

        a, b = self.los_ends
        self.los_clear, self.los_blocked = True, None
        if a == b:
            return f"LOS {a} → {b}: same hex"
        sight = LineOfSight(self.board).check(a, b)
        self.los_clear, self.los_blocked = sight.clear, sight.blocked_by
        if sight.clear:
            return f"LOS {a} → {b}: range {sight.range}, clear" + (
                f", modifier {sight.modifier:+d}" if sight.modifier else ""
            )
        where = f" at {sight.blocked_by}" if sight.blocked_by is not None else ""
        return f"LOS {a} → {b}: range {sight.range}, blocked{where} ({sight.rule})"

    # -- drawing -------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        """The whole editor: palette, map with hexsides, LOS and problems, status strip."""
        f = self.fonts
        surface.fill(theme.PANEL)
        name = self.draft.name.replace(" (house edition)", "")
        title = f.first_fitting(
            (f"Map editor — {self.draft.name}", f"Map editor — {name}", name),
            TEXT_SIZE,
            PALETTE_W - 2 * PAD,
            bold=True,
        )
        surface.blit(f.text(title, TEXT_SIZE, theme.PANEL_TITLE, bold=True), (PAD, PAD))
        for spot in self.hotspots():
            on = (
                spot.action == self.tool
                or (spot.action[0] == "fill" and self.fill)
                or spot.action == ("field", self.editing)
            )
            bg = theme.shade(theme.BUTTON, 40) if on else theme.BUTTON
            pygame.draw.rect(surface, bg, spot.rect, border_radius=4)
            pygame.draw.rect(surface, theme.ACTIVE if on else theme.BUTTON_EDGE, spot.rect, 2 if on else 1, 4)
            tx = spot.rect.x + 5
            if spot.action[0] == "terrain":
                sw = pygame.Rect(spot.rect.x + 4, spot.rect.y + 4, 14, spot.rect.height - 8)
                pygame.draw.rect(surface, theme.terrain_colour(spot.action[1]), sw)
                tx += 16
            label = spot.label
            if spot.action == ("field", self.editing):
                label = f"{self.editing}: {self.typed}|"
            line = f.first_fitting(
                (label, label.replace("Building", "Bldg")),
                SMALL_SIZE,
                spot.rect.right - tx - 2,
                condensed=True,
            )
            surface.blit(f.text(line, SMALL_SIZE, theme.BUTTON_TEXT, condensed=True), (tx, spot.rect.y + 4))
        cam = self.camera
        old = surface.get_clip()
        surface.set_clip(cam.rect)
        surface.fill(theme.MAP_BACKGROUND, cam.rect)
        board = self.board
        assert self._layer is not None
        self._layer.blit(surface, cam, f, labels=True)
        w = max(2, round(cam.scale * 0.12))
        if self._road:
            pts = [cam.centre(h) for h in self._road]
            if len(pts) >= 2:
                pygame.draw.lines(surface, theme.ACTIVE, False, pts, w)
        if len(self.los_ends) >= 1:
            a = cam.centre(self.los_ends[0])
            if len(self.los_ends) == 2:
                b = cam.centre(self.los_ends[1])
                pygame.draw.line(surface, theme.LOS_CLEAR if self.los_clear else theme.LOS_BLOCKED, a, b, w)
                if self.los_blocked is not None and board.map.has_hex(self.los_blocked):
                    pygame.draw.circle(
                        surface, theme.LOS_BLOCKED, cam.centre(self.los_blocked), cam.scale * 0.7, w
                    )
            pygame.draw.circle(surface, theme.ACTIVE, a, w * 2)
        for h in self.draft.minefields:
            if board.map.has_hex(h):
                pygame.draw.polygon(surface, theme.MINE, cam.corners(h, 0.8), max(2, round(cam.scale * 0.08)))
                tag = f.text("MINES", SMALL_SIZE - 2, theme.MINE, bold=True, condensed=True)
                cx, cy = cam.centre(h)
                surface.blit(tag, tag.get_rect(center=(cx, cy + cam.scale * 0.55)))
        for h in self.problem_hexes:
            pygame.draw.polygon(surface, theme.LOS_BLOCKED, cam.corners(h, 0.92), w + 1)
        if self.tool[0] == "side" and self.hover is not None:
            side = self.hexside_at(pygame.mouse.get_pos())
            if side is not None:
                p, q = hexside_segment(cam.centre(side[0]), cam.centre(side[1]), cam.scale)
                pygame.draw.line(surface, theme.ACTIVE, p, q, w + 1)
        if self.hover is not None and board.map.has_hex(self.hover):
            pygame.draw.polygon(surface, (255, 255, 255), cam.corners(self.hover, 1.0), 1)
        surface.set_clip(old)
        self._draw_status(surface)

    def _draw_status(self, surface: pygame.Surface) -> None:
        f = self.fonts
        w, h = self.size
        y = h - STATUS_H + 4
        mode = "fill" if self.fill else "brush"
        tool = f"tool: {self.tool[0]} {self.tool[1]}".rstrip() + f" ({mode})"
        if self.hover is not None and self.draft.has_hex(self.hover):
            hx = self.hover
            tool += f" · {hx}: {self.draft.terrain[hx]}, level {self.draft.level.get(hx, 0)}"
            ov = self.draft.overlays.get(hx)
            if ov:
                tool += f", {', '.join(ov)}"
        lines = [(tool, theme.TEXT), (self.message, theme.TEXT_DIM)]
        if self.los_caption:
            lines.append((self.los_caption, theme.TEXT))
        lines += [(str(p), theme.LOS_BLOCKED) for p in self.problems[:3]]
        if len(self.problems) > 3:
            lines.append((f"... and {len(self.problems) - 3} more", theme.LOS_BLOCKED))
        for text, colour in lines[:5]:
            line = f.fit(text, SMALL_SIZE, w - PALETTE_W - 2 * PAD, condensed=True)
            surface.blit(f.text(line, SMALL_SIZE, colour, condensed=True), (PALETTE_W + PAD, y))
            y += SMALL_SIZE + 4


def run_editor(
    draft: MapDraft,
    path: Path | str,
    *,
    size: tuple[int, int] = (1600, 1000),
    max_frames: int | None = None,
) -> int:
    """Open the window and edit ``draft`` until Escape or the window closes; exit status 0."""
    pygame.display.init()  # no pygame.init(): the mixer would open the sound card (ALSA)
    pygame.font.init()
    try:
        screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(f"solo edit — {path}")
        editor = MapEditor(draft, path, theme.Fonts(), size=size)
        clock = pygame.time.Clock()
        frames = 0
        while not editor.quit and (max_frames is None or frames < max_frames):
            for ev in pygame.event.get():
                editor.handle(ev)
            editor.draw(screen)
            pygame.display.flip()
            clock.tick(30)
            frames += 1
    finally:
        pygame.quit()
    return 0
