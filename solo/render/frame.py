"""One frame of the window: :class:`GameView` draws the whole screen from a read-only game.

The view owns the layout, the camera, the caches (static map layer per zoom,
counters, text, log rows) and the :class:`~solo.render.panels.UiState`; it
never changes the game. Hit-testing (:meth:`GameView.hotspots`,
:meth:`GameView.counter_at`, :meth:`GameView.hex_at`) uses the same layout
functions as drawing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from solo.core.hexes import Hex
from solo.render import board as board_draw
from solo.render import decision_panel, panels, stage_draw, theme, vehicle_counters, vehicle_displays
from solo.render.decision_panel import DecisionLayout
from solo.render.logview import Fog
from solo.render.panels import LogPanel, UiState
from solo.render.stage import Pace, Stage
from solo.render.stage_states import StateRecorder
from solo.render.stage_view import staged_game
from solo.render.vehicle_labels import vehicle_line
from solo.render.view import Camera, Hotspot, Layout
from solo.rules.vehicles.state import vehicles_of

if TYPE_CHECKING:
    from solo.data.maps import Board
    from solo.engine.game import Game


class GameView:
    """The whole window's picture of a game: layout, camera, caches and UI state."""

    def __init__(self, game: Game | None, size: tuple[int, int] = (1600, 1000)) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.fonts = theme.Fonts()
        self.ui = UiState()
        self.layout = Layout.for_size(size)
        self.counters = board_draw.CounterCache()
        self.vehicles = vehicle_counters.VehicleCache()
        self.vehicle_panels = vehicle_displays.VehiclePanelCache()
        self.log_panel = LogPanel()
        self._game: Game | None = None
        self.camera: Camera | None = None
        self.map_layer: board_draw.MapLayer | None = None
        self._fog_key: tuple = ()
        self._fog: Fog | None = None
        self._preview_night = False
        self.stage = Stage()
        """The Enemy's steps held back to be shown at the player's pace (solo.render.stage)."""
        self.explain: int | None = None
        """The Enemy card event whose full explanation is shown over the map (a seq), or None."""
        self.now: Callable[[], float] = time.monotonic
        """The clock moves are animated by (the controller gives its own)."""
        self._staged: tuple[tuple[object, ...], Game | None] = ((), None)
        self._shown_fog: tuple[Game, bool, Fog] | None = None
        self.game = game

    # -- the game shown ----------------------------------------------------

    @property
    def game(self) -> Game | None:
        """The game drawn (None before one exists, e.g. while table mode sets up)."""
        return self._game

    @game.setter
    def game(self, game: Game | None) -> None:
        old_board = self._game.board if self._game is not None else None
        if old_board is None and self.camera is not None:  # a map previewed before the game existed
            old_board = self.camera.board
        self._game = game
        # A game's board with Rubble (§14) is drawn over its map's own board: same camera and layer.
        if game is not None and (old_board is None or game.board.base is not old_board.base):
            self.camera = Camera(game.board.base, self.layout.map)
            self.map_layer = board_draw.MapLayer(game.board.base)
        self._fog_key = ()
        self.log_panel = LogPanel()  # its caches are keyed by id(game): a new game, a new panel
        self.stage.reset(len(game.events) if game is not None else 0)
        if self.stage.states is not None:
            self.stage.states.detach()
        self.stage.states = None
        if game is not None:  # the state as of each event from now on (only while the pace holds steps)
            self.stage.states = StateRecorder(game, lambda: self.stage.pace is not Pace.INSTANT).attach()
        self.explain = None

    def preview(self, board: Board, *, night: bool = False) -> None:
        """Show ``board``'s map before the game exists (table mode's set-up asks dice over it)."""
        self.camera = Camera(board, self.layout.map)
        self.map_layer = board_draw.MapLayer(board)
        self._preview_night = night

    def resize(self, size: tuple[int, int]) -> None:
        """Lay the window out again for ``size`` and fit the map."""
        self.layout = Layout.for_size(size)
        if self.camera is not None:
            self.camera.fit(self.layout.map)

    def fog(self) -> Fog:
        """The fog of war for the game now (recomputed when the game or the F toggle changes)."""
        g = self._game
        assert g is not None
        key = (id(g), len(g.events), self.ui.fog)
        if key != self._fog_key or self._fog is None:
            self._fog = Fog(g, enabled=self.ui.fog)
            self._fog_key = key
        return self._fog

    def shown_fog(self) -> Fog:
        """The fog of war of the game as drawn: while the stage holds Enemy steps back, of the step
        shown (a man Spotted at a later step is still Unknown, his name still hidden)."""
        shown = self.shown_game()
        if shown is None or shown is self._game:
            return self.fog()
        kept = self._shown_fog
        if kept is None or kept[0] is not shown or kept[1] != self.ui.fog:
            kept = self._shown_fog = (shown, self.ui.fog, Fog(shown, enabled=self.ui.fog))
        return kept[2]

    def shown_game(self) -> Game | None:
        """The game as drawn: while the stage holds Enemy steps back, the game as of the step shown
        (solo.render.stage_view.staged_game, cached while the step and its mover's hex stay)."""
        g = self._game
        if g is None or not self.stage.busy:
            return g
        now = self.now()
        key = (
            id(g),
            len(g.events),
            id(self.stage.shown),
            tuple(sorted(self.stage.walked(now).items())),
            tuple(sorted(self.stage.walked_vehicles(now).items())),
        )
        if self._staged[0] != key:
            self._staged = (key, staged_game(g, self.stage, now))
        return self._staged[1]

    def beat_button(self) -> pygame.Rect:
        """The "Next Enemy step" button of the stage panel (drawn in the decision panel's place)."""
        d = self.layout.decision
        return pygame.Rect(d.x + panels.PAD, d.bottom - 44, d.width - 2 * panels.PAD, 34)

    # -- the right column: vehicle displays over the log ----------------------

    def vehicle_panel(self) -> vehicle_displays.VehiclePanelLayout | None:
        """The vehicle displays at the top of the log's column (None: no vehicles, or hidden by V)."""
        g = self._game
        if g is None or not self.ui.show_vehicles or not vehicles_of(g.state):
            return None
        log = self.layout.log
        area = pygame.Rect(log.x, log.y, log.width, int(log.height * vehicle_displays.PANEL_SHARE))
        return self.vehicle_panels.layout(area, g, self.ui)

    def log_rect(self) -> pygame.Rect:
        """The log panel's rectangle: the log's column under the vehicle displays."""
        log = self.layout.log
        vp = self.vehicle_panel()
        if vp is None:
            return log
        return pygame.Rect(log.x, vp.rect.bottom, log.width, log.bottom - vp.rect.bottom)

    def vehicle_at(self, pos: tuple[int, int]) -> str | None:
        """The vehicle whose hex is under ``pos`` on the map, or None."""
        if self._game is None or self.camera is None or not self.layout.map.collidepoint(pos):
            return None
        return vehicle_counters.vehicle_at(self._game, self.camera, pos)

    # -- hit-testing ---------------------------------------------------------

    def decision_layout(self) -> DecisionLayout | None:
        """The decision panel's layout now (None without a game)."""
        if self._game is None:
            return None
        return decision_panel.decision_layout(
            self.layout.decision, self._game, self.fonts, self.ui, self.fog()
        )

    def hotspots(self) -> list[Hotspot]:
        """Every clickable rectangle outside the map, topmost last."""
        g = self._game
        if g is None:
            return []
        out: list[Hotspot] = []
        shown = self.shown_game() or g
        out.extend(
            Hotspot(r, ("enemy_card", str(e.seq)))
            for r, e in stage_draw.enemy_panel_layout(self.layout.enemy_cards, shown, self.shown_fog())
        )
        if self.stage.busy:
            out.append(Hotspot(self.beat_button(), ("stage", "next")))
            out.extend(self.log_panel.header_hotspots(self.log_rect(), self.ui))
            return out
        if panels._card_clickable(g):
            out.extend(Hotspot(r, ("card", cid)) for cid, r in panels.hand_layout(self.layout.hand, g))
        dl = self.decision_layout()
        if dl is not None:
            area = dl.options_area
            for b in dl.buttons:
                if dl.rose or area.colliderect(b.rect):
                    out.append(Hotspot(b.rect.clip(area) if not dl.rose else b.rect, ("option", b.key)))
            out.extend(dl.tools)
        vp = self.vehicle_panel()
        if vp is not None:
            out.extend(vp.hotspots())
        out.extend(self.log_panel.header_hotspots(self.log_rect(), self.ui))
        return out

    def hotspot_at(self, pos: tuple[int, int]) -> Hotspot | None:
        """The topmost hotspot under ``pos``."""
        hit = None
        for hs in self.hotspots():
            if hs.rect.collidepoint(pos):
                hit = hs
        return hit

    def hex_at(self, pos: tuple[int, int]) -> Hex | None:
        """The map hex under ``pos``, or None."""
        return self.camera.hex_at(pos) if self.camera is not None else None

    def counter_at(self, pos: tuple[int, int]) -> str | None:
        """The character whose counter is under ``pos``, or None."""
        if self._game is None or self.camera is None or not self.layout.map.collidepoint(pos):
            return None
        shown = self.shown_game() or self._game
        return board_draw.counter_at(shown, self.camera, pos, fan=self.fan_hex())

    def counter_rect(self, cid: str) -> pygame.Rect | None:
        """The screen rectangle of ``cid``'s counter, or None if it is not on the map."""
        if self._game is None or self.camera is None:
            return None
        for c, r in board_draw.counter_spots(self._game, self.camera, fan=self.fan_hex()):
            if c == cid:
                return r
        return None

    def fan_hex(self) -> Hex | None:
        """The hex whose stack is fanned out: the one under the mouse, kept while the mouse is on
        one of its fanned counters (:attr:`UiState.fanned`)."""
        fanned = self.ui.fanned
        return fanned if isinstance(fanned, Hex) else None

    def update_fan(self, pos: tuple[int, int]) -> None:
        """After a mouse move: fan out the stack under ``pos`` (or keep the one fanned, if the mouse
        is on one of its counters)."""
        g = self._game
        if g is None or self.camera is None or not self.layout.map.collidepoint(pos):
            self.ui.fanned = None
            return
        current = self.fan_hex()
        if current is not None:
            spots = board_draw.counter_spots(g, self.camera, fan=current)
            here = {c.id for c in g.state.at(current)}
            if any(r.collidepoint(pos) for cid, r in spots if cid in here):
                return
        h = self.hex_at(pos)
        self.ui.fanned = h if h is not None and len(board_draw.on_map(g).get(h, ())) > 1 else None

    # -- drawing -------------------------------------------------------------

    def los_viewer(self) -> str | None:
        """The LOS line's origin: the selected man, else the pending decision's man."""
        g = self._game
        if g is None:
            return None
        if self.ui.selected is not None:
            return self.ui.selected
        if g.pending is not None and g.pending.actor in g.state.characters:
            return g.pending.actor
        v = vehicles_of(g.state).get(self.ui.vehicle_tab or "")
        if v is not None:  # a selected vehicle: the LOS of its first crewman still in it
            for cid in v.crew_ids():
                if g.state.characters[cid].status.value == "active":
                    return cid
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the whole window onto ``surface``."""
        surface.fill(theme.PANEL)
        g = self._game
        if g is None and self.camera is not None and self.map_layer is not None:
            self._draw_preview(surface)
            return
        if g is None or self.camera is None or self.map_layer is None:
            t = self.fonts.text("Setting up…", 20, theme.TEXT)
            surface.blit(t, t.get_rect(center=surface.get_rect().center))
            return
        lay = self.layout
        fog = self.shown_fog()
        ui = self.ui
        live = g
        g = self.shown_game() or live
        hover = ui.hover_hex if isinstance(ui.hover_hex, Hex) else None
        caption = board_draw.draw_board(
            surface,
            g,
            self.camera,
            self.fonts,
            self.map_layer,
            self.counters,
            hidden_ids=fog.hidden_ids,
            labels=ui.labels,
            selected=ui.selected,
            los_viewer=self.los_viewer(),
            hover=hover,
            vehicles=self.vehicles,
            selected_vehicle=self.ui.vehicle_tab,
            fan=self.fan_hex(),
        )
        stage_draw.draw_overlays(surface, g, self.camera, self.fonts, self.stage.shown, fog)
        if self.explain is not None:
            stage_draw.draw_explanation(surface, lay.map, g, self.fonts, fog, self.explain)
        has_vehicles = bool(vehicles_of(g.state))
        panels.draw_legend(surface, lay.legend, self.fonts, vehicles=has_vehicles, game=g)
        old = surface.get_clip()
        surface.set_clip(lay.map)
        status = ui.status or caption
        stage_draw.draw_pace_badge(surface, lay.map, self.stage, self.fonts)
        if not status and hover is not None:
            status = f"{hover} · {g.board.terrain_of(hover).name}"
            lvl = g.board.map.level.get(hover, 0)
            if lvl:
                status += f" · level {lvl}"
        panels.draw_status(surface, lay.map, status, self.fonts)
        if ui.toast:
            panels.draw_toast(surface, lay.map, ui.toast, self.fonts)
        surface.set_clip(old)
        panels.draw_top(surface, lay.top, g, self.fonts)
        panels.draw_hand(surface, lay.hand, g, self.fonts, ui)
        stage_draw.draw_enemy_panel(surface, lay.enemy_cards, g, self.fonts, fog, self.explain)
        if self.stage.busy:
            stage_draw.draw_beat_panel(surface, lay.decision, g, self.stage, self.fonts, fog)
        else:
            dl = self.decision_layout()
            assert dl is not None
            decision_panel.draw_decision(surface, lay.decision, g, self.fonts, ui, fog, dl)
        vp = self.vehicle_panel()
        note = "V: vehicle displays" if has_vehicles and vp is None else ""
        self.log_panel.draw(surface, self.log_rect(), g, self.fonts, ui, fog, note=note)
        if vp is not None:
            self.vehicle_panels.draw(surface, vp, g, self.fonts, ui, fog)
        self._draw_tooltip(surface, g, fog)

    def _draw_preview(self, surface: pygame.Surface) -> None:
        """The map alone, while the game is set up (no game yet: table mode's set-up dice)."""
        assert self.camera is not None and self.map_layer is not None
        lay = self.layout
        old = surface.get_clip()
        surface.set_clip(lay.map)
        surface.fill(theme.MAP_BACKGROUND, lay.map)
        self.map_layer.blit(
            surface, self.camera, self.fonts, labels=self.ui.labels, night=self._preview_night
        )
        surface.set_clip(old)
        t = self.fonts.text(
            "Setting up the game: answer the dice and cards at the right.", 17, theme.PANEL_TITLE
        )
        surface.blit(t, (lay.top.x + panels.PAD, lay.top.y + 10))

    def _draw_tooltip(self, surface: pygame.Surface, g: Game, fog: Fog) -> None:
        cid = self.counter_at(self.ui.mouse)
        if cid is None:
            vid = self.vehicle_at(self.ui.mouse)
            if vid is not None:
                v = vehicles_of(g.state)[vid]
                panels.draw_tooltip(surface, self.ui.mouse, [vehicle_line(g, v)], self.fonts, self.layout.map)
            return
        here = [c for c in g.state.at(g.state.characters[cid].hex)] if g.state.characters[cid].hex else []
        lines = [decision_panel.actor_line(g, c, fog) for c in here] or [
            decision_panel.actor_line(g, g.state.characters[cid], fog)
        ]
        panels.draw_tooltip(surface, self.ui.mouse, lines, self.fonts, self.layout.map)
