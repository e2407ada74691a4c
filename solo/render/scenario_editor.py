"""The scenario editor of ``solo edit SCENARIO.yaml`` (issue 12 item 5), in the game's window.

:class:`ScenarioEditor` shows the scenario's map with its forces and edits a
:class:`~solo.data.scenario_draft.ScenarioDraft`. The palette (left) picks the team (Friendly
Able/Baker/Charlie/COM, an Enemy colour, §2) and a tool; a left click on the map uses it:

- **select/move**: click a piece to select it (again: the piece under it), drag it to
  another hex to move it (a vehicle takes its crew and passengers along);
- **character**: a Friendly character (the next unused profile of ``cards/characters.yaml``,
  C2 25.0) or an Enemy character (the next unused counter 1–21, C2 24.0);
- **dummy** (an Enemy dummy counter, §3), **cup counter** and **cup dummy** (a set-up hex of the
  team's cup with one more counter or dummy drawn onto it, §19), **set-up hex** (for members
  without a hex, a rolled Friendly team's too, C2 25.0);
- **vehicle** of the type shown (the button cycles the types; C2 31) for the team's side;
  **Direction Counter** (§6); **objective** (2 VP to the Friendly side; the form edits it, §19);
  **entry hex** of the reinforcement wave selected in the forms (§5.7).

A right click removes the top piece of a hex. The forms (right, :mod:`solo.render.scenario_forms`)
edit the setting, the selected piece, reinforcements and victory bands.

Saving (button, Ctrl+S) writes the YAML of :func:`~solo.data.scenario_writer.dump_scenario`: the
text is read back first (YAML and field types) and nothing is written if that fails; otherwise
it replaces the file atomically, then :func:`~solo.data.scenario.load_scenario` checks it and
every problem is listed under the map and its hex ringed (the hexes a message names, and the
piece on the problem's line). **Play this** (button, P or F5) saves and, when the scenario is
valid, starts it in the same window (:func:`run_scenario_editor`); closing the game returns to
the editor.

Keys: Ctrl+S save, P/F5 play, R rotate (Shift+R back), Delete remove the selection, C crew from
the hex, [ / ] the selected character's profile or counter, + / - or the mouse wheel zoom, Home
the whole map, arrows pan, Ctrl+Z/Ctrl+Y undo/redo, Escape quit. The map opens zoomed so its hex
labels are readable (:data:`READABLE_SCALE`); Home shows all of it.

May import: :mod:`solo.core`, :mod:`solo.data`, :mod:`solo.playtest` (the data loader) and the
render room.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Any

import pygame

from solo.core.datafile import read_text
from solo.core.errors import DataError, Problem
from solo.core.hexes import Hex
from solo.data.characters import FriendlyProfile
from solo.data.house import HouseData
from solo.data.maps import Board, MapDef, load_map
from solo.data.scenario import load_scenario
from solo.data.scenario_draft import ALL_TEAMS, Piece, ScenarioDraft, side_of_team
from solo.data.scenario_format import FRIENDLY_TEAMS
from solo.data.scenario_writer import parse_scenario_text
from solo.render import theme
from solo.render.board import MapLayer
from solo.render.counter_marks import counter_name_forms
from solo.render.panels import PAD, SMALL_SIZE, TEXT_SIZE
from solo.render.scenario_forms import ScenarioForms
from solo.render.view import MAX_ZOOM_STEP, Camera, Hotspot

PALETTE_W = 230
"""Width in pixels of the palette left of the map."""
FORMS_W = 300
"""Width in pixels of the forms right of the map."""
STATUS_H = 96
"""Height in pixels of the status strip under the map (message, problems)."""
BUTTON_H = 22
UNDO_LIMIT = 200
TOOLS: tuple[tuple[str, str], ...] = (
    ("select", "select / move"),
    ("character", "character"),
    ("dummy", "dummy (Enemy)"),
    ("cup", "cup counter"),
    ("cup_dummy", "cup dummy"),
    ("team_hex", "set-up hex"),
    ("vehicle", "vehicle"),
    ("direction_counter", "Direction Counter"),
    ("objective", "objective"),
    ("wave_hex", "entry hex (wave)"),
    ("minefield", "minefield"),
    ("fire", "fire"),
    ("exit_hex", "exit hex"),
)
"""The palette's tools: (id, label)."""
HINT = (
    "left click: the tool · drag: move the selection · right click: remove · R/Shift+R rotate · Del remove · "
    "C crew from the hex · [ ] profile or counter · +/- or wheel zoom · Home whole map · arrows pan · "
    "Ctrl+Z/Y undo/redo · Ctrl+S save · P play"
)
READABLE_SCALE = 30.0
"""The least hex size (circumradius, px) the editor opens at: hex labels of 9 px (solo.render.board)."""
"""The keys, shown under the map."""
_HEX_IN_TEXT = re.compile(r"\b(\d\d\.\d\d)\b")


class ScenarioEditor:
    """The editor's state and drawing; :meth:`handle` takes pygame events.

    ``path`` is where :meth:`save` writes; ``data`` the card set and maps the scenario is
    checked against; ``size`` the window size in pixels.
    """

    def __init__(
        self,
        draft: ScenarioDraft,
        path: Path | str,
        data: HouseData,
        fonts: theme.Fonts,
        *,
        size: tuple[int, int] = (1600, 1000),
    ) -> None:
        self.draft = draft
        self.path = Path(path)
        self.data = data
        self.fonts = fonts
        self.size = size
        self.team = "able"
        self.tool = "select"
        self.vehicle_types = [t.id for t in data.vehicles]
        self.vehicle_type = self.vehicle_types[0] if self.vehicle_types else ""
        self.profiles = [p.id for p in data.characters.friendly]
        self.selected: Piece | None = None
        self.problems: list[Problem] = []
        self.problem_hexes: list[Hex] = []
        self.message = f"editing {self.path}"
        self.hover: Hex | None = None
        self.quit = False
        self.play_requested = False
        self.seed = 1
        """The seed "Play this" starts the game with (the forms' rules page)."""
        self.undo_stack: list[ScenarioDraft] = []
        self.redo_stack: list[ScenarioDraft] = []
        self.forms = ScenarioForms(self)
        self._drag: Piece | None = None
        self._cycle = False
        self.map_def = self._map()
        self.board = Board.for_map(self.map_def, data.terrain)
        self._layer = MapLayer(self.board)
        self.camera = Camera(self.board, self.map_rect)
        self.readable_view()

    def readable_view(self) -> None:
        """Fit the map to its place, then zoom in until hex labels are readable, centred on the
        scenario's pieces (Home shows the whole map)."""
        cam = self.camera
        cam.fit(self.map_rect)
        while cam.scale < READABLE_SCALE and cam.step < MAX_ZOOM_STEP:
            cam.zoom(1)
        spots = [cam.centre(p.hex) for p in self.draft.pieces() if self.map_def.has_hex(p.hex)]
        if spots and cam.step > 0:  # zoomed in: the scenario's pieces in view, not the map's middle
            cx = sum(x for x, _ in spots) / len(spots)
            cy = sum(y for _, y in spots) / len(spots)
            cam.pan(cam.rect.centerx - cx, cam.rect.centery - cy)

    def _map(self) -> MapDef:
        """The scenario's map: a map id of the data, or a file relative to the scenario file."""
        ref = str(self.draft.doc.get("map", ""))
        if ref in self.data.maps:
            return self.data.maps[ref]
        p = Path(ref).expanduser()
        if not p.is_absolute():
            p = self.path.parent / p
        return load_map(p, self.data.terrain)

    # -- geometry ------------------------------------------------------------

    @property
    def map_rect(self) -> pygame.Rect:
        """Where the map is drawn."""
        w, h = self.size
        return pygame.Rect(PALETTE_W, 0, w - PALETTE_W - FORMS_W, h - STATUS_H)

    @property
    def forms_rect(self) -> pygame.Rect:
        """Where the forms are drawn."""
        w, h = self.size
        return pygame.Rect(w - FORMS_W, 0, FORMS_W, h - STATUS_H)

    def hotspots(self) -> list[Hotspot]:
        """The palette's buttons: teams, tools, the vehicle type, actions."""
        out: list[Hotspot] = []
        x, y, w = PAD, PAD + 24, PALETTE_W - 2 * PAD

        def grid(items: list[tuple[tuple[str, ...], str]], cols: int) -> None:
            nonlocal y
            cw = (w - (cols - 1) * 3) // cols
            for i, (action, label) in enumerate(items):
                r, c = divmod(i, cols)
                out.append(
                    Hotspot(
                        pygame.Rect(x + c * (cw + 3), y + r * (BUTTON_H + 3), cw, BUTTON_H), action, label
                    )
                )
            y += ((len(items) + cols - 1) // cols) * (BUTTON_H + 3) + 6

        grid([(("team", t), t.capitalize() if t != "com" else "COM") for t in FRIENDLY_TEAMS], 4)
        grid([(("team", t), t.capitalize()) for t in ALL_TEAMS if t not in FRIENDLY_TEAMS], 3)
        grid([(("tool", t), label) for t, label in TOOLS], 2)
        grid([(("vtype", ""), f"type: {self.vehicle_type}")], 1)
        grid(
            [
                (("rotate", ""), "rotate (R)"),
                (("delete", ""), "remove (Del)"),
                (("undo", ""), "undo"),
                (("redo", ""), "redo"),
            ],
            2,
        )
        grid([(("save", ""), "save + validate (Ctrl+S)"), (("play", ""), "Play this (P)")], 1)
        return out

    # -- events --------------------------------------------------------------

    def handle(self, ev: pygame.event.Event) -> None:
        """Apply one pygame event (palette, forms, map, keys)."""
        if ev.type == pygame.QUIT:
            self.quit = True
        elif ev.type == pygame.VIDEORESIZE:
            self.resize((ev.w, ev.h))
        elif ev.type == pygame.KEYDOWN:
            if not self.forms.key(ev):
                self._key(ev.key, ev.mod)
        elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button in (1, 3):
            if ev.button == 1:
                for spot in self.hotspots():
                    if spot.rect.collidepoint(ev.pos):
                        self.click(spot.action)
                        return
                for fd in self.forms.fields(self.forms_rect):
                    if fd.rect.collidepoint(ev.pos) and fd.kind not in ("title", "info"):
                        self.forms.click(fd)
                        return
            if not self.map_rect.collidepoint(ev.pos):
                return
            self.forms.commit()
            h = self.camera.hex_at(ev.pos)
            if h is not None:
                self._press(h, right=ev.button == 3)
        elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            h = self.camera.hex_at(ev.pos) if self.map_rect.collidepoint(ev.pos) else None
            if self._drag is not None and h is not None and h != self._drag.hex:
                self.remember()
                self.draft.move(self._drag, h)
                self.changed()
                self.message = f"moved {self._drag.label} to {h}"
                self._select_path(self._drag.path, self._drag.token)
            elif self._cycle and self.selected is not None and h == self.selected.hex:
                here = self.draft.pieces_at(h)
                keys = [(p.path, p.token) for p in here]
                k = keys.index((self.selected.path, self.selected.token))
                self.selected = here[(k - 1) % len(here)]
            self._drag, self._cycle = None, False
        elif ev.type == pygame.MOUSEMOTION:
            self.hover = self.camera.hex_at(ev.pos) if self.map_rect.collidepoint(ev.pos) else None
        elif ev.type == pygame.MOUSEWHEEL:
            self.camera.zoom(ev.y, pygame.mouse.get_pos())

    def resize(self, size: tuple[int, int]) -> None:
        """The window is now ``size`` pixels: the map is fitted to its new place."""
        self.size = size
        self.readable_view()

    def click(self, action: tuple[str, ...]) -> None:
        """A palette button."""
        kind, value = action[0], action[1] if len(action) > 1 else ""
        self.forms.commit()
        if kind == "team":
            self.team = value
        elif kind == "tool":
            self.tool = value
        elif kind == "vtype" and self.vehicle_types:
            i = self.vehicle_types.index(self.vehicle_type)
            self.vehicle_type = self.vehicle_types[(i + 1) % len(self.vehicle_types)]
            self.tool = "vehicle"
        elif kind == "rotate":
            self.rotate()
        elif kind == "delete":
            self.delete()
        elif kind == "undo":
            self.undo()
        elif kind == "redo":
            self.redo()
        elif kind == "save":
            self.save()
        elif kind == "play":
            self.play()

    def _key(self, key: int, mod: int) -> None:
        ctrl = bool(mod & pygame.KMOD_CTRL)
        shift = bool(mod & pygame.KMOD_SHIFT)
        if ctrl and key == pygame.K_s:
            self.save()
        elif ctrl and key == pygame.K_z:
            self.redo() if shift else self.undo()
        elif ctrl and key == pygame.K_y:
            self.redo()
        elif key in (pygame.K_p, pygame.K_F5):
            self.play()
        elif key == pygame.K_r:
            self.rotate(-1 if shift else 1)
        elif key in (pygame.K_DELETE, pygame.K_BACKSPACE):
            self.delete()
        elif key == pygame.K_c:
            self.crew()
        elif key == pygame.K_RIGHTBRACKET:
            self.retarget(1)
        elif key == pygame.K_LEFTBRACKET:
            self.retarget(-1)
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.camera.zoom(1)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.camera.zoom(-1)
        elif key == pygame.K_HOME:
            self.camera.fit(self.map_rect)
        elif key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            dx = {pygame.K_LEFT: 60, pygame.K_RIGHT: -60}.get(key, 0)
            dy = {pygame.K_UP: 60, pygame.K_DOWN: -60}.get(key, 0)
            self.camera.pan(dx, dy)
        elif key == pygame.K_ESCAPE:
            self.quit = True

    def _press(self, h: Hex, *, right: bool) -> None:
        here = self.draft.pieces_at(h)
        if right:
            if here:
                self.remember()
                self.draft.remove(here[-1])
                self.changed()
                self.message = f"removed {here[-1].label} from {h}"
                self.selected = None
            return
        tool, team, d = self.tool, self.team, self.draft
        if tool == "select":
            if not here:
                self.selected = None
                return
            keys = [(p.path, p.token) for p in here]
            cur = (self.selected.path, self.selected.token) if self.selected is not None else None
            if cur in keys:  # pressed on the selection: a drag moves it, a click picks the next
                self._drag, self._cycle = self.selected, True
                return
            self.selected = self._drag = here[-1]
            return
        enemy_only = tool in ("dummy", "cup", "cup_dummy")
        if enemy_only and side_of_team(team) != "enemy":
            self.message = f"{tool.replace('_', ' ')}: pick an Enemy team first"
            return
        if tool in ("minefield", "fire"):
            self.remember()
            key = "minefields" if tool == "minefield" else "fires"
            added = d.toggle_hex(key, h)
            rule = "C2 31.5" if tool == "minefield" else "C2 29.0"
            self.message = f"{tool} {'set in' if added else 'taken off'} {h} ({rule})"
            return
        if tool == "exit_hex":
            ex = self.forms.exit
            if ex is None or ex >= len((d.doc.get("victory") or {}).get("exits", [])):
                self.message = "exit hex: add or select an exit in the forms (Victory page) first"
                return
            self.remember()
            added = d.toggle_exit_hex(ex, h)
            self.message = f"exit hex {h} {'added' if added else 'taken off'} (§19)"
            return
        wave = self.forms.wave
        if tool == "wave_hex" and (wave is None or wave >= len(d.doc.get("reinforcements", []))):
            self.message = "entry hex: add or select a wave in the forms first"
            return
        self.remember()
        token = None
        if tool == "character":
            path: tuple[Any, ...] = d.add_character(team, h, profiles=self.profiles)
        elif tool == "dummy":
            path = d.add_dummy(team, h)
        elif tool in ("cup", "cup_dummy"):
            path = d.add_cup_hex(team, h, dummy=tool == "cup_dummy")
            token = len(str(d.get(path).get("hexes", "")).split()) - 1
        elif tool == "team_hex":
            path = d.add_team_hex(team, h)
            token = len(str(d.get(path).get("hexes", "")).split()) - 1
        elif tool == "vehicle":
            path = d.add_vehicle(self.vehicle_type, side_of_team(team), h)
        elif tool == "direction_counter":
            path = d.add_direction_counter(h)
        elif tool == "objective":
            path = d.add_objective(h)
        else:  # wave_hex
            assert wave is not None
            path = d.add_wave_hex(wave, h)
            token = len(str(d.get(path).get("hexes", "")).split()) - 1
        self.changed()
        self._select_path(path, token)
        self.message = f"placed {self.selected.label if self.selected else tool} in {h}"

    def _select_path(self, path: tuple[Any, ...], token: int | None) -> None:
        self.selected = next((p for p in self.draft.pieces() if p.path == path and p.token == token), None)

    # -- edits ---------------------------------------------------------------

    def remember(self) -> None:
        """Keep the draft as it is for undo (before an edit)."""
        self.undo_stack = [*self.undo_stack[-UNDO_LIMIT + 1 :], self.draft.copy()]
        self.redo_stack = []

    def changed(self) -> None:
        """After an edit: the selection is looked up again (its path may have moved)."""
        if self.selected is not None:
            sel = self.selected
            got = [p for p in self.draft.pieces() if p.path == sel.path and p.token == sel.token]
            self.selected = got[0] if got else None

    def rotate(self, steps: int = 1) -> None:
        """Turn the selected vehicle or Direction Counter one hexside (R; Shift+R back)."""
        sel = self.selected
        if sel is None or sel.kind not in ("vehicle", "direction_counter"):
            self.message = "rotate: select a vehicle or a Direction Counter"
            return
        self.remember()
        self.draft.rotate(sel, steps)
        self.changed()
        entry = self.draft.get(sel.path)
        what = f"facing {entry['facing']}" if sel.kind == "vehicle" else f"rotation {entry['rotation']}"
        self.message = f"{sel.label}: {what}"

    def delete(self) -> None:
        """Remove the selected piece."""
        if self.selected is None:
            return
        self.remember()
        self.draft.remove(self.selected)
        self.message = f"removed {self.selected.label}"
        self.selected = None

    def crew(self) -> None:
        """Seat the characters in the selected vehicle's hex as its crew and passengers (C2 31.3)."""
        sel = self.selected
        if sel is None or sel.kind != "vehicle":
            self.message = "crew: select a vehicle"
            return
        entry = self.draft.get(sel.path)
        vtype = self.data.vehicles.get(entry["type"])
        afv = vtype.kind.value == "afv"
        crew = [] if afv else [p.id for p in vtype.crew]
        self.remember()
        seated = self.draft.crew_from_hex(sel, crew, [p.id for p in vtype.passengers])
        self.message = f"{sel.label}: aboard {', '.join(seated) or 'no one'}" + (
            " (the AFV crew are counters drawn at set-up, C2 31.3)" if afv else ""
        )

    def retarget(self, step: int) -> None:
        """The selected character's next or previous profile (Friendly) or counter (Enemy)."""
        sel = self.selected
        if sel is None or sel.kind != "character":
            return
        self.remember()
        self.message = "now " + self.draft.retarget(sel, step, profiles=self.profiles)
        self.changed()

    def profile(self, profile_id: str) -> FriendlyProfile | None:
        """The Friendly profile ``profile_id`` of the card set (C2 25.0), or None."""
        return next((p for p in self.data.characters.friendly if p.id == profile_id), None)

    def undo(self) -> None:
        """Go back one edit."""
        if self.undo_stack:
            self.redo_stack.append(self.draft)
            self.draft = self.undo_stack.pop()
            self.selected = None

    def redo(self) -> None:
        """Do again the last edit undone."""
        if self.redo_stack:
            self.undo_stack.append(self.draft)
            self.draft = self.redo_stack.pop()
            self.selected = None

    # -- save and play -------------------------------------------------------

    def save(self) -> list[Problem]:
        """Write the scenario to :attr:`path` and check it; returns (and shows) the problems.

        Text that does not read back (YAML or field types) is not written; the file is replaced
        atomically (a temporary file, then :func:`os.replace`).
        """
        self.forms.commit()
        text = self.draft.text()
        name = str(self.path)
        try:
            parse_scenario_text(text, name)
        except DataError as exc:
            self._show(list(exc.problems), text)
            self.message = f"not saved ({len(self.problems)} problem(s) in what would be written)"
            return self.problems
        tmp = self.path.with_name(f".{self.path.name}.tmp")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, self.path)
        try:
            load_scenario(self.path, self.data)
            problems: list[Problem] = []
        except DataError as exc:
            problems = list(exc.problems)
        self._show(problems, text)
        n = len(problems)
        self.message = f"saved {self.path}: " + (f"{n} problem(s)" if n else "valid")
        return problems

    def _show(self, problems: list[Problem], text: str) -> None:
        """Keep ``problems`` and the hexes to ring: hexes named in a message, pieces on its line."""
        self.problems = problems
        self.problem_hexes = []
        lines: dict[int, list[Hex]] = {}
        try:
            doc = read_text(text, str(self.path))
            for p in self.draft.pieces():
                line = doc.line_of(p.path)
                if line is not None:
                    lines.setdefault(line, []).append(p.hex)
        except DataError:
            pass
        for prob in problems:
            found = [Hex.parse(t) for t in _HEX_IN_TEXT.findall(prob.message)]
            found += lines.get(prob.line or -1, [])
            for h in found:
                if self.map_def.has_hex(h) and h not in self.problem_hexes:
                    self.problem_hexes.append(h)

    def play(self) -> bool:
        """Save; if the scenario is valid, ask the loop to start it (:attr:`play_requested`)."""
        if self.save():
            self.message = "Play this: fix the problems first"
            return False
        self.play_requested = True
        return True

    # -- drawing -------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        """The whole editor: palette, map with the forces, forms, status strip."""
        f = self.fonts
        surface.fill(theme.PANEL)
        name = self.draft.doc.get("name") or self.path.stem
        room = PALETTE_W - 2 * PAD
        size = (
            TEXT_SIZE if f.width(name, TEXT_SIZE, bold=True) <= room else SMALL_SIZE
        )  # a long name: smaller
        title = f.first_fitting(
            (f"Scenario editor — {name}", f"Scenario: {name}", name), size, room, bold=True
        )
        surface.blit(f.text(title, size, theme.PANEL_TITLE, bold=True), (PAD, PAD))
        for spot in self.hotspots():
            kind, value = spot.action
            on = (kind == "team" and value == self.team) or (kind == "tool" and value == self.tool)
            bg = theme.shade(theme.BUTTON, 40) if on else theme.BUTTON
            if kind == "team":
                bg = theme.team_colour(value, friendly=value in FRIENDLY_TEAMS)
            pygame.draw.rect(surface, bg, spot.rect, border_radius=4)
            pygame.draw.rect(surface, theme.ACTIVE if on else theme.BUTTON_EDGE, spot.rect, 2 if on else 1, 4)
            colour = theme.text_on(bg) if kind == "team" else theme.BUTTON_TEXT
            line = f.fit(spot.label, SMALL_SIZE, spot.rect.width - 8, condensed=True)
            surface.blit(f.text(line, SMALL_SIZE, colour, condensed=True), (spot.rect.x + 4, spot.rect.y + 4))
        cam = self.camera
        old = surface.get_clip()
        surface.set_clip(cam.rect)
        surface.fill(theme.MAP_BACKGROUND, cam.rect)
        self._layer.blit(surface, cam, f, labels=True)
        self._draw_pieces(surface)
        w = max(2, round(cam.scale * 0.12))
        for h in self.problem_hexes:
            pygame.draw.polygon(surface, theme.LOS_BLOCKED, cam.corners(h, 0.92), w + 1)
        if self.hover is not None and self.map_def.has_hex(self.hover):
            pygame.draw.polygon(surface, (255, 255, 255), cam.corners(self.hover, 1.0), 1)
        surface.set_clip(old)
        self.forms.draw(surface, self.forms_rect)
        self._draw_status(surface)

    def _draw_pieces(self, surface: pygame.Surface) -> None:
        cam = self.camera
        s = cam.scale
        by_hex: dict[Hex, list[Piece]] = {}
        for p in self.draft.pieces():
            by_hex.setdefault(p.hex, []).append(p)
        self._draw_hex_marks(surface)
        for h, pieces in by_hex.items():
            if not self.map_def.has_hex(h):
                continue
            cx, cy = cam.centre(h)
            counters = [p for p in pieces if p.kind in ("character", "dummy", "vehicle")]
            marks = [p for p in pieces if p not in counters]
            for k, p in enumerate(marks):
                self._draw_mark(surface, p, cx, cy, s, k)
            size = max(10, round(s * 0.85))
            for k, p in enumerate(counters):
                off = (k - (len(counters) - 1) / 2) * size * 0.35
                rect = pygame.Rect(0, 0, size, size)
                rect.center = (round(cx + off), round(cy + off))
                self._draw_counter(surface, p, rect)

    def _draw_hex_marks(self, surface: pygame.Surface) -> None:
        """Minefields (C2 31.5), fires (C2 29.0) and exit hexes (§19): a tag low in the hex."""
        cam, f, doc = self.camera, self.fonts, self.draft.doc
        s = cam.scale
        marks: list[tuple[str, str, theme.Colour]] = []
        marks += [(t, "MINES", theme.MINE) for t in str(doc.get("minefields", "")).split()]
        marks += [(t, "FIRE", theme.FIRE) for t in str(doc.get("fires", "")).split()]
        for ex in (doc.get("victory") or {}).get("exits", []):
            marks += [(t, "EXIT", theme.OBJECTIVE) for t in str(ex.get("hexes", "")).split()]
        seen: dict[str, int] = {}
        for text, tag, colour in marks:
            try:
                h = Hex.parse(text)
            except ValueError:
                continue
            if not self.map_def.has_hex(h):
                continue
            k = seen[text] = seen.get(text, -1) + 1
            cx, cy = cam.centre(h)
            pygame.draw.polygon(surface, colour, cam.corners(h, 0.8), max(2, round(s * 0.08)))
            surf = f.text(tag, SMALL_SIZE - 2, colour, bold=True, condensed=True)
            surface.blit(surf, surf.get_rect(center=(cx, cy + s * (0.55 - 0.3 * k))))

    def _draw_mark(self, surface: pygame.Surface, p: Piece, cx: float, cy: float, s: float, k: int) -> None:
        f = self.fonts
        w = max(2, round(s * 0.1))
        chosen = self.selected is not None and p.path == self.selected.path and p.token == self.selected.token
        if p.kind == "objective":
            pygame.draw.circle(surface, theme.OBJECTIVE, (cx, cy), s * 0.8, w)
            tag = p.label.split(" ")[0] + " VP"
            surface.blit(f.text(tag, SMALL_SIZE, theme.OBJECTIVE, bold=True), (cx - s * 0.6, cy - s * 0.95))
        elif p.kind == "direction_counter":
            pygame.draw.circle(surface, theme.MAT, (cx, cy), s * 0.45)
            pygame.draw.circle(surface, theme.MAT_EDGE, (cx, cy), s * 0.45, 1)
            _arrow(surface, theme.MAT_TEXT, cx, cy, s * 0.4, (p.facing or 0) + 1, w)
        else:
            colour = theme.team_colour(p.team, friendly=p.side == "friendly")
            r = s * (0.72 - 0.08 * k)
            pygame.draw.circle(surface, colour, (cx, cy), r, w)
            tag = {"team_hex": "set-up", "cup_hex": "cup", "wave_hex": "entry"}[p.kind]
            surface.blit(f.text(tag, SMALL_SIZE - 2, colour, condensed=True), (cx - s * 0.5, cy + s * 0.45))
        if chosen:
            pygame.draw.circle(surface, theme.SELECTED, (cx, cy), s * 0.9, 2)

    def _draw_counter(self, surface: pygame.Surface, p: Piece, rect: pygame.Rect) -> None:
        f = self.fonts
        friendly = p.side == "friendly"
        if p.kind == "dummy":
            body: theme.Colour = theme.UNKNOWN_BODY
        elif p.kind == "vehicle":
            body = theme.FRIENDLY_STRIPE if friendly else theme.ENEMY_STRIPE
        else:
            body = theme.team_colour(p.team, friendly=friendly)
        pygame.draw.rect(surface, body, rect, border_radius=3)
        pygame.draw.rect(surface, theme.VEHICLE_EDGE, rect, 1, 3)
        if p.kind == "vehicle":
            _arrow(surface, theme.ACTIVE, rect.centerx, rect.centery, rect.width * 0.55, p.facing or 1, 3)
        forms = ("?",) if p.kind == "dummy" else counter_name_forms(_short(p.label))
        line = f.first_fitting(forms, SMALL_SIZE - 2, rect.width - 2, condensed=True)
        surf = f.text(line, SMALL_SIZE - 2, theme.text_on(body), condensed=True)
        surface.blit(surf, surf.get_rect(center=rect.center))
        chosen = self.selected is not None and p.path == self.selected.path
        if chosen:
            pygame.draw.rect(surface, theme.SELECTED, rect.inflate(4, 4), 2, 4)

    def _draw_status(self, surface: pygame.Surface) -> None:
        f = self.fonts
        w, h = self.size
        y = h - STATUS_H + 4
        side = side_of_team(self.team)
        head = f"team: {self.team} ({side}) · tool: {self.tool.replace('_', ' ')}"
        if self.hover is not None and self.map_def.has_hex(self.hover):
            here = ", ".join(p.label for p in self.draft.pieces_at(self.hover))
            head += f" · {self.hover}: {self.map_def.terrain[self.hover]}" + (f" — {here}" if here else "")
        hint_lines: list[str] = []  # broken between its " · " parts, never inside one
        for part in HINT.split(" · "):
            trial = f"{hint_lines[-1]} · {part}" if hint_lines else part
            if hint_lines and f.width(trial, SMALL_SIZE, condensed=True) <= w - 2 * PAD:
                hint_lines[-1] = trial
            else:
                hint_lines.append(part)
        hint = [(ln, theme.TEXT_DIM) for ln in hint_lines]
        lines = [(head, theme.TEXT), *hint, (self.message, theme.TEXT)]
        lines += [(str(p), theme.LOS_BLOCKED) for p in self.problems[:3]]
        if len(self.problems) > 3:
            lines.append((f"... and {len(self.problems) - 3} more", theme.LOS_BLOCKED))
        for text, colour in lines[:6]:
            line = f.fit(text, SMALL_SIZE, w - 2 * PAD, condensed=True)
            surface.blit(f.text(line, SMALL_SIZE, colour, condensed=True), (PAD, y))
            y += SMALL_SIZE + 3


def _short(label: str) -> str:
    """A counter's text: the last word of a name, a counter number, a profile's surname."""
    if label.startswith("counter "):
        return label.split(" ", 1)[1]
    return label.replace("_", " ").split(" ")[-1].capitalize() if "_" in label else label.split(" ")[-1]


def _arrow(
    surface: pygame.Surface, colour: theme.Colour, cx: float, cy: float, r: float, d: int, w: int
) -> None:
    """An arrow from the centre toward direction ``d`` (1 up the map, clockwise)."""
    a = math.radians((d - 1) * 60)
    tip = (cx + r * math.sin(a), cy - r * math.cos(a))
    pygame.draw.line(surface, colour, (cx, cy), tip, w)
    for side in (-1, 1):
        b = a + math.pi + side * 0.5
        pygame.draw.line(
            surface, colour, tip, (tip[0] + r * 0.4 * math.sin(b), tip[1] - r * 0.4 * math.cos(b)), w
        )


def run_scenario_editor(
    draft: ScenarioDraft,
    path: Path | str,
    data: HouseData,
    *,
    size: tuple[int, int] = (1600, 1000),
    max_frames: int | None = None,
) -> int:
    """Open the window and edit ``draft`` until Escape or the window closes; exit status 0.

    "Play this" starts the saved scenario in the same window (the seed of the forms' rules page,
    default 1); closing the game returns to the editor.
    """
    from solo.render.app import Window
    from solo.render.session import new_session

    pygame.display.init()  # no pygame.init(): the mixer would open the sound card (ALSA)
    pygame.font.init()
    try:
        screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(f"solo edit — {path}")
        editor = ScenarioEditor(draft, path, data, theme.Fonts(), size=size)
        clock = pygame.time.Clock()
        frames = 0
        while not editor.quit and (max_frames is None or frames < max_frames):
            for ev in pygame.event.get():
                editor.handle(ev)
            screen = pygame.display.get_surface() or screen
            if editor.play_requested:
                editor.play_requested = False
                window = Window(
                    new_session(str(editor.path), seed=editor.seed, data=data), size=size, autosave=False
                )
                window.draw()
                window.run(max_frames=None if max_frames is None else max_frames - frames)
                frames += window.frames
                screen = pygame.display.set_mode(size, pygame.RESIZABLE)
                pygame.display.set_caption(f"solo edit — {path}")
                continue
            editor.draw(screen)
            pygame.display.flip()
            clock.tick(30)
            frames += 1
    finally:
        pygame.quit()
    return 0
