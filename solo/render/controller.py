"""Pygame events → answers to the game's pending Decision (``game.apply``), and view controls.

Mouse: left click a card (play/discard), an option button, a rose direction, a
target on the map (ringed), or a counter (selects it: LOS origin and log
filter); right-drag pans; the wheel zooms the map and scrolls the option list
and the log. Keys: see :data:`KEYS_HELP`.

Every answer goes through :meth:`Controller.answer`, which calls
``game.apply`` with a legal key only: the engine records it as the player's
input, exactly as a bot's or a replayed one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pygame

from solo.errors import SoloError
from solo.policies import SimplePolicy
from solo.render import choices
from solo.render.frame import GameView
from solo.render.panels import number_keys
from solo.render.session import Session
from solo.vehicles import vehicles_of

KEYS_HELP: tuple[tuple[str, str], ...] = (
    ("1-9, 0", "choose option 1-10 (directions: the digit is the direction)"),
    ("Enter", "the default answer, else the first option"),
    ("Space", "the rules' default answer (no Duck Back, carry on moving, Hide...)"),
    ("N", "auto: answer with the simple policy until the next turn"),
    ("Ctrl+S", "save the game (the log format of solo run --log)"),
    ("L", "hex labels on/off"),
    ("R", "dice rolls in the log on/off"),
    ("F", "show hidden information (spoilers) on/off"),
    ("V", "vehicle displays on/off (click a vehicle to show its display)"),
    ("E", "Emergency Stop, when a Driver's is asked (C2 31.2)"),
    ("Esc", "clear the selection and the log filter"),
    ("wheel, + / -", "zoom the map (wheel over a panel scrolls it)"),
    ("right-drag, arrows", "pan the map; Home fits it"),
    ("PgUp / PgDn / End", "scroll the log"),
)
"""The window's keyboard controls (shown by ``solo play --help`` and the README)."""

CLICK_SLOP = 6
"""A press and release within this many pixels is a click, not a drag."""
TOAST_SECONDS = 3.5
AUTO_LIMIT = 20000


class Controller:
    """Turns pygame events into game answers and view changes for one :class:`GameView`."""

    def __init__(
        self,
        view: GameView,
        session: Session | None,
        *,
        save_path: Path | str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.view = view
        self.session = session
        self.save_path = Path(save_path) if save_path else None
        self.clock = clock
        self.running = True
        self.dirty = True
        self._press: tuple[int, int] | None = None
        self._drag: tuple[int, int] | None = None
        self.answered: list[str] = []
        """Keys this controller gave to the game, in order (for tests and the status line)."""

    @property
    def game(self):
        """The game being played."""
        return self.view.game

    # -- answers -------------------------------------------------------------

    def answer(self, key: str) -> bool:
        """Answer the pending decision with ``key`` if it is legal; True if the game took it."""
        g = self.game
        if g is None or g.pending is None or key not in g.pending.keys:
            return False
        try:
            g.apply(key)
        except SoloError as exc:  # table mode: a refused die, a ChanceError
            self.toast(f"Error: {exc}")
            return False
        self.answered.append(key)
        ui = self.view.ui
        ui.option_scroll = 0
        ui.log_scroll = 0
        self.dirty = True
        return True

    def answer_default(self) -> bool:
        """Space: the rules' default answer, when the decision has one."""
        g = self.game
        if g is None or g.pending is None:
            return False
        key = choices.default_key(g.pending)
        if key is None:
            self.toast(f"No default for '{g.pending.kind.value.replace('_', ' ')}': choose an option.")
            return False
        return self.answer(key)

    def answer_enter(self) -> bool:
        """Enter: the default answer, else the first option."""
        g = self.game
        if g is None or g.pending is None:
            return False
        key = choices.default_key(g.pending) or g.pending.keys[0]
        return self.answer(key)

    def auto_turn(self) -> int:
        """N: answer with the simple policy until the turn changes (or the game ends); returns how many."""
        g = self.game
        if g is None or g.pending is None:
            return 0
        policy = SimplePolicy()
        start = g.state.flow.turn
        n = 0
        while g.pending is not None and (g.state.flow.turn == start or n == 0) and n < AUTO_LIMIT:
            if not self.answer(policy(g, g.pending)):
                break
            n += 1
        self.toast(f"Auto: {n} decision(s) answered by the simple policy.")
        return n

    def save(self) -> Path | None:
        """Ctrl+S: write the log (solo.log.write_log, header from solo.play.header_for)."""
        if self.session is None:
            return None
        path = self.save_path or self.session.default_save_path()
        try:
            self.session.save(path)
        except OSError as exc:
            self.toast(f"Could not save to {path}: {exc}")
            return None
        self.toast(f"Saved to {path} ({len(self.game.events)} events).")
        return path

    def toast(self, text: str) -> None:
        """Show ``text`` over the map for a few seconds."""
        self.view.ui.toast = text
        self.view.ui.toast_until = self.clock() + TOAST_SECONDS
        self.dirty = True

    def tick(self) -> None:
        """Per-frame upkeep: expire the toast."""
        ui = self.view.ui
        if ui.toast and self.clock() > ui.toast_until:
            ui.toast = ""
            self.dirty = True

    # -- events ----------------------------------------------------------------

    def handle(self, ev: pygame.event.Event) -> None:
        """Handle one pygame event."""
        t = ev.type
        if t == pygame.QUIT:
            self.running = False
        elif t == pygame.VIDEORESIZE:
            self.view.resize((ev.w, ev.h))
            self.dirty = True
        elif t == pygame.MOUSEMOTION:
            self._motion(ev.pos)
        elif t == pygame.MOUSEBUTTONDOWN:
            if ev.button == 1:
                self._press = ev.pos
            elif ev.button == 3:
                self._drag = ev.pos
        elif t == pygame.MOUSEBUTTONUP:
            if ev.button == 1 and self._press is not None:
                px, py = self._press
                self._press = None
                if abs(ev.pos[0] - px) <= CLICK_SLOP and abs(ev.pos[1] - py) <= CLICK_SLOP:
                    self.click(ev.pos)
            elif ev.button == 3:
                self._drag = None
        elif t == pygame.MOUSEWHEEL:
            self.wheel(ev.y, self.view.ui.mouse)
        elif t == pygame.KEYDOWN:
            self.key(ev.key, ev.mod)
        elif t in (pygame.WINDOWEXPOSED, pygame.WINDOWENTER, pygame.WINDOWFOCUSGAINED):
            self.dirty = True

    def _motion(self, pos: tuple[int, int]) -> None:
        ui = self.view.ui
        ui.mouse = pos
        if self._drag is not None and self.view.camera is not None:
            dx, dy = pos[0] - self._drag[0], pos[1] - self._drag[1]
            self.view.camera.pan(dx, dy)
            self._drag = pos
        ui.hover_hex = self.view.hex_at(pos)
        self.dirty = True

    def wheel(self, y: int, pos: tuple[int, int]) -> None:
        """Mouse wheel: zoom over the map, scroll over the options or the log."""
        lay = self.view.layout
        ui = self.view.ui
        if lay.map.collidepoint(pos) and self.view.camera is not None:
            self.view.camera.zoom(1 if y > 0 else -1, pos)
            ui.hover_hex = self.view.hex_at(pos)
        elif self.view.log_rect().collidepoint(pos):
            ui.log_scroll = max(0, ui.log_scroll + 3 * y)
        elif lay.decision.collidepoint(pos):
            dl = self.view.decision_layout()
            top = max(0, dl.content_height - dl.options_area.height) if dl else 0
            ui.option_scroll = max(0, min(top, ui.option_scroll - 30 * y))
        self.dirty = True

    def click(self, pos: tuple[int, int]) -> None:
        """A left click at ``pos``: a hotspot (card, option, tool, log control), else the map."""
        self.view.ui.mouse = pos
        hs = self.view.hotspot_at(pos)
        if hs is not None:
            kind = hs.action[0]
            if kind in ("option", "card"):
                self.answer(hs.action[1])
            elif kind == "tool":
                self.tool(hs.action[1])
            elif kind == "log" and hs.action[1] == "clear_filter":
                self.view.ui.selected = None
            elif kind == "vehicle":
                self.view.ui.vehicle_tab = hs.action[1]
            elif kind == "seat":
                self.click_seat(hs.action[1], hs.action[2])
            self.dirty = True
            return
        if self.view.layout.map.collidepoint(pos):
            self.click_map(pos)

    def click_map(self, pos: tuple[int, int]) -> None:
        """A click on the map: answer the decision if the click names one of its options, else select."""
        g = self.game
        if g is None:
            return
        h = self.view.hex_at(pos)
        cid = self.view.counter_at(pos)
        vid = self.view.vehicle_at(pos) if cid is None else None
        d = g.pending
        if d is not None and h is not None:
            keys = choices.keys_at(g, d, h, character=cid, vehicle=vid)
            if len(keys) == 1:
                self.answer(keys[0])
                return
            if len(keys) > 1:
                self.toast(f"{len(keys)} options for {h}: choose one of the buttons.")
                return
            if d.kind.value == "order_direction" and d.actor in g.state.characters:
                frm = g.state.characters[d.actor].hex
                key = choices.direction_key_towards(g, d, frm, h) if frm is not None else None
                if key is not None:
                    self.answer(key)
                    return
            if d.kind.value == "order_target" and d.actor in g.state.characters:
                frm = g.state.characters[d.actor].hex
                key = choices.turret_key_towards(g, d, frm, h) if frm is not None else None
                if key is not None:
                    self.answer(key)
                    return
        ui = self.view.ui
        if vid is not None:  # a vehicle: its display is shown (and brought to the front)
            ui.vehicle_tab = vid
            ui.show_vehicles = True
            ui.selected = None
        else:
            ui.selected = cid
            ui.vehicle_tab = None
        ui.log_scroll = 0
        self.dirty = True

    def click_seat(self, vehicle_id: str, position: str) -> None:
        """A click on a vehicle display's row: the Relocate answer naming that seat (C2 31.11.2) if
        the decision has one, else select the man in it (LOS origin and log filter)."""
        g = self.game
        if g is None:
            return
        d = g.pending
        actor = g.state.characters.get(d.actor) if d is not None and d.actor else None
        if d is not None and actor is not None and getattr(actor, "vehicle", None) == vehicle_id:
            for key in (f"seat:{position}", f"swap:{position}"):
                if key in d.keys:
                    self.answer(key)
                    return
        v = vehicles_of(g.state).get(vehicle_id)
        occupant = v.seats[position].occupant if v is not None and position in v.seats else None
        self.view.ui.selected = occupant
        self.view.ui.vehicle_tab = vehicle_id
        self.view.ui.log_scroll = 0
        self.dirty = True

    def tool(self, name: str) -> None:
        """A toolbar button."""
        ui = self.view.ui
        if name == "default":
            self.answer_default()
        elif name == "auto":
            self.auto_turn()
        elif name == "save":
            self.save()
        elif name == "labels":
            ui.labels = not ui.labels
        elif name == "rolls":
            ui.show_rolls = not ui.show_rolls
        elif name == "fog":
            ui.fog = not ui.fog
            self.toast("Hidden information shown (spoilers)." if not ui.fog else "Hidden information hidden.")
        self.dirty = True

    def key(self, key: int, mod: int = 0) -> None:
        """A key press (see :data:`KEYS_HELP`)."""
        ui = self.view.ui
        g = self.game
        cam = self.view.camera
        ctrl = bool(mod & pygame.KMOD_CTRL)
        self.dirty = True
        if ctrl and key == pygame.K_s:
            self.save()
        elif ctrl and key == pygame.K_q:
            self.running = False
        elif pygame.K_0 <= key <= pygame.K_9 or pygame.K_KP0 <= key <= pygame.K_KP9:
            digit = key - pygame.K_0 if key <= pygame.K_9 else key - pygame.K_KP0
            if g is not None and g.pending is not None:
                opt = number_keys(g.pending).get(digit or 10)
                if opt is not None:
                    self.answer(opt)
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.answer_enter()
        elif key == pygame.K_SPACE:
            self.answer_default()
        elif key == pygame.K_n:
            self.auto_turn()
        elif key == pygame.K_l:
            ui.labels = not ui.labels
        elif key == pygame.K_r:
            ui.show_rolls = not ui.show_rolls
        elif key == pygame.K_f:
            self.tool("fog")
        elif key == pygame.K_v:
            ui.show_vehicles = not ui.show_vehicles
        elif key == pygame.K_e:
            if g is not None and g.pending is not None and "emergency_stop" in g.pending.keys:
                self.answer("emergency_stop")
        elif key == pygame.K_ESCAPE:
            ui.selected = None
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS) and cam is not None:
            cam.zoom(1)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS) and cam is not None:
            cam.zoom(-1)
        elif key == pygame.K_HOME and cam is not None:
            cam.fit(self.view.layout.map)
        elif key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN) and cam is not None:
            step = 60
            dx = {pygame.K_LEFT: step, pygame.K_RIGHT: -step}.get(key, 0)
            dy = {pygame.K_UP: step, pygame.K_DOWN: -step}.get(key, 0)
            cam.pan(dx, dy)
        elif key == pygame.K_PAGEUP:
            ui.log_scroll += 15
        elif key == pygame.K_PAGEDOWN:
            ui.log_scroll = max(0, ui.log_scroll - 15)
        elif key == pygame.K_END:
            ui.log_scroll = 0
