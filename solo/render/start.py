"""The start screen of ``solo play`` with no scenario (issue 12 item 1), and the recent saves.

:class:`StartScreen` lists the shipped scenarios; the one selected shows a picture of its map,
its turns, forces, weather and the Combat!2 features it uses. Below: the seed, table mode, the
house options with their defaults (base-rules §20, :class:`~solo.core.options.Options`), and the
recent saves to continue. :meth:`StartScreen.handle` turns pygame events into a
:class:`StartChoice` once the player starts or continues a game.

Recent saves are kept in ``recent.json`` under the user data directory
(``platformdirs.user_data_path("solo")``); :func:`remember_save` adds one (the window calls it
on every Ctrl+S).

May import: :mod:`solo.core`, :mod:`solo.data`, :mod:`solo.playtest` and the render room.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import platformdirs
import pygame

from solo.core.errors import DataError
from solo.core.options import OPTION_CHOICES, OPTION_RANGES, Options
from solo.data.house import HouseData
from solo.data.maps import Board
from solo.data.scenario import load_scenario, shipped_scenarios
from solo.data.scenario_format import Scenario
from solo.render import board as board_draw
from solo.render import theme
from solo.render.autosave import Interrupted, interrupted_game
from solo.render.option_labels import option_forms
from solo.render.panels import PAD, SMALL_SIZE, TEXT_SIZE
from solo.render.start_settings import PACES, StartSettings, load_start_settings, save_start_settings
from solo.render.view import Camera, Hotspot
from solo.render.words import word

RECENT_MIN_H = 190
"""The least height kept for "Continue a saved game" (the interrupted game, a save, Start)."""
RECENT_LIMIT = 8
"""How many recent saves the start screen offers."""
SEED_MAX = 999_999


def recent_file() -> Path:
    """Where the list of recent saves is kept (``recent.json`` in the user data directory)."""
    return platformdirs.user_data_path("solo") / "recent.json"


def recent_saves(path: Path | None = None) -> list[Path]:
    """The saved games to continue, newest first (those still on disk; at most :data:`RECENT_LIMIT`)."""
    path = path or recent_file()
    try:
        names = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(names, list):
        return []
    return [Path(n) for n in names if isinstance(n, str) and Path(n).is_file()][:RECENT_LIMIT]


def remember_save(save: Path | str, path: Path | None = None) -> None:
    """Put ``save`` first in the recent saves (written atomically; a failure to write is ignored)."""
    path = path or recent_file()
    entry = str(Path(save).resolve())
    names = [str(p) for p in recent_saves(path) if str(p) != entry]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps([entry, *names][: RECENT_LIMIT * 2], indent=1), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass


def path_forms(path: str) -> tuple[str, ...]:
    """A save's path and its shorter forms: with ``~`` for the home folder, then its folder's
    name and the file name, then the file name alone."""
    p = Path(path)
    home = str(Path.home())
    forms = [path]
    if path.startswith(home + "/"):
        forms.append("~" + path[len(home) :])
    forms += [f"{p.parent.name}/{p.name}", p.name]
    return tuple(forms)


@attrs.frozen
class ScenarioCard:
    """What the start screen shows of one scenario."""

    id: str
    scenario: Scenario
    board: Board
    friendly: str
    """The Friendly forces: ``"Able 4, Baker 3 (7 men)"``."""
    enemy: str
    features: tuple[str, ...]
    """The Combat!2 features and special rules it uses, with their rule numbers."""

    @property
    def setting(self) -> str:
        """Turns, month, weather, ground and night."""
        sc = self.scenario
        months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        text = f"{sc.turns} turns · {months[sc.month - 1]} · weather {word(sc.weather.value)}"
        text += f" · ground {word(sc.ground.value)}"
        return text + (" · night" if sc.night else "")


def _friendly(sc: Scenario) -> str:
    parts = []
    men = 0
    for t in sc.friendly:
        if t.roll is not None:
            parts.append(f"{t.display_name} rolled (C2 25.0)")
            continue
        parts.append(f"{t.display_name} {len(t.characters)}")
        men += len(t.characters)
    vehicles = [v for v in sc.vehicles if v.side == "friendly"]
    text = ", ".join(parts) + (f" ({men} men)" if men else "")
    if vehicles:
        text += f"; {len(vehicles)} vehicle(s)"
    return text or "none"


def _enemy(sc: Scenario) -> str:
    parts = []
    for t in sc.enemy:
        n = len(t.characters) + sum(c.size for c in t.cup)
        dummies = sum(c.dummies for c in t.cup)
        parts.append(f"{t.display_name} {n}" + (f" (incl. {dummies} dummies)" if dummies else ""))
    vehicles = [v for v in sc.vehicles if v.side == "enemy"]
    text = ", ".join(parts)
    if vehicles:
        text += ("; " if text else "") + ", ".join(v.name or v.type for v in vehicles)
    turns = [str(w.turn) for w in sc.reinforcements if w.turn is not None]
    waits = sum(1 for w in sc.reinforcements if w.turn is None)  # event waves (base-rules §18)
    when = ([f"on turn {', '.join(turns)}"] if turns else []) + (["on an Event roll (§18)"] if waits else [])
    if when:
        text += f"; reinforcements {' and '.join(when)}"
    return text or "none"


def _features(sc: Scenario) -> tuple[str, ...]:
    out = []
    if sc.vehicles:
        out.append("vehicles and the VOM (C2 31)")
    if sc.panzerfaust is not None and sc.panzerfaust.level > 0:
        out.append(f"Panzerfausts, level {sc.panzerfaust.level} (C2 32.3)")
    if sc.weather.value != "clear" or sc.ground.value != "normal":
        out.append("weather and ground (C2 28)")
    if sc.night:
        out.append("night (§15)")
    if sc.elite or any(t.elite for t in sc.enemy):
        out.append("SS counters (C2 24.0)")
    if any(t.roll is not None for t in sc.friendly):
        out.append("New Character Selection (C2 25.0)")
    if any(t.cup for t in sc.enemy):
        out.append("cups and dummies (§3)")
    if sc.reinforcements:
        out.append("reinforcements (§5.7)")
    if sc.large_battle:
        out.append("large battle (9.2)")
    if sc.direction_counters:
        out.append("Direction Counters")
    if sc.options:
        out.append("own house options: " + ", ".join(word(o) for o in sorted(sc.options)))
    return tuple(out)


def scenario_cards(data: HouseData) -> list[ScenarioCard]:
    """The shipped scenarios as the start screen shows them (one that fails its checks is left out)."""
    out = []
    for path in shipped_scenarios():
        try:
            sc = load_scenario(path, data)
        except DataError:
            continue
        board = Board.for_map(sc.map_of(data.maps), data.terrain)
        out.append(ScenarioCard(path.stem, sc, board, _friendly(sc), _enemy(sc), _features(sc)))
    return out


@attrs.frozen
class StartChoice:
    """What the player chose: a new game (``scenario``, ``seed``, ``table``, ``options``) or a save."""

    scenario: str | None = None
    seed: int = 1
    table: bool = False
    options: dict[str, Any] = attrs.field(factory=dict)
    """House options changed from their defaults (name → value), as ``--option`` gives them."""
    load: str | None = None
    pace: str = "instant"
    """The pace of the Enemy's turn (solo.render.stage.Pace value); a save's own pace wins on Continue."""
    resumed: str | None = None
    """Set when ``load`` is the autosave of an interrupted game: the player's own save file for
    it ("" when it was never saved), where Ctrl+S goes next (solo.render.autosave)."""


PACE_LABELS = {
    "instant": "Enemy's turn: Instant (P)",
    "step": "Enemy's turn: Step (P)",
    "timed": "Enemy's turn: Timed (P)",
}


def option_values(name: str, default: Any) -> tuple[Any, ...]:
    """The values the start screen cycles an option through (its default first)."""
    if isinstance(default, bool):
        return (default, not default)
    if name in OPTION_CHOICES:
        values = OPTION_CHOICES[name]
        i = values.index(default)
        return values[i:] + values[:i]
    lo, hi = OPTION_RANGES.get(name, (default, default))
    span = list(range(lo, hi + 1)) if hi - lo <= 12 else sorted({lo, default, min(hi, default * 2), hi})
    i = span.index(default)
    return tuple(span[i:] + span[:i])


class StartScreen:
    """The start screen: pick a scenario, seed, table mode and options, or continue a save."""

    def __init__(
        self,
        data: HouseData,
        fonts: theme.Fonts,
        *,
        recent: list[Path] | None = None,
        interrupted: Interrupted | bool | None = True,
        settings: Path | None = None,
    ) -> None:
        self.data = data
        self.fonts = fonts
        self.cards = scenario_cards(data)
        self.selected = 0
        self.seed = 1
        self.table = False
        self.pace = "instant"
        self.options: dict[str, Any] = {}
        self.recent = list(recent) if recent is not None else recent_saves()
        self.interrupted: Interrupted | None = (
            interrupted_game() if interrupted is True else interrupted or None
        )
        """The autosave of a game that did not end normally (offered first), or None."""
        self.mouse = (0, 0)
        self._layers: dict[str, board_draw.MapLayer] = {}
        self.settings_path = settings
        """Where the pace, scenario and options are remembered (None: solo.render.start_settings's)."""
        kept, self.notice = load_start_settings(settings)
        """``notice``: what was wrong with the remembered settings ("" if nothing), shown at the top."""
        self.pace = kept.pace
        self.options = dict(kept.options)
        self.selected = next((i for i, c in enumerate(self.cards) if c.id == kept.scenario), 0)

    def remember(self) -> bool:
        """Keep the pace, the selected scenario and the changed house options for the next run
        (the window calls it when a game is started or continued); False if they could not be
        written."""
        scenario = self.cards[self.selected].id if self.cards else None
        kept = StartSettings(pace=self.pace, scenario=scenario, options=dict(self.options))
        return save_start_settings(kept, self.settings_path)

    # -- layout ---------------------------------------------------------------

    def rects(self, size: tuple[int, int]) -> dict[str, pygame.Rect]:
        """The screen's areas: ``list`` (scenarios), ``detail``, ``map``, ``settings``, ``recent``."""
        w, h = size
        left = pygame.Rect(PAD, 60, max(260, w // 5), h - 60 - PAD)
        right_w = max(360, w // 3)
        detail = pygame.Rect(left.right + PAD, 60, w - left.right - right_w - 3 * PAD, h - 60 - PAD)
        step = self.option_step(size)
        rows = self.option_rows(size)
        tall = max(int((h - 60) * 0.62), 94 + rows * step + 20)
        settings = pygame.Rect(detail.right + PAD, 60, right_w, tall)
        recent = pygame.Rect(settings.x, settings.bottom + PAD, right_w, h - settings.bottom - 2 * PAD)
        mp = pygame.Rect(detail.x, detail.y + 150, detail.width, detail.height - 150)
        return {"list": left, "detail": detail, "map": mp, "settings": settings, "recent": recent}

    def option_step(self, size: tuple[int, int]) -> int:
        """Pixels from one house option's row to the next: 24, less (down to 20) on a short window
        so that every option and the saves below stay in view."""
        room = size[1] - 60 - 2 * PAD - RECENT_MIN_H - 94 - 20
        return max(20, min(24, room // max(1, len(attrs.fields(Options)))))

    def option_rows(self, size: tuple[int, int]) -> int:
        """Rows of house options: all in one column when they fit at :meth:`option_step`, else two
        columns (each option then shown in its shorter form, :func:`option_forms`)."""
        n = len(attrs.fields(Options))
        room = size[1] - 60 - 2 * PAD - RECENT_MIN_H - 94 - 20
        return n if n * self.option_step(size) <= room else -(-n // 2)

    def scenario_step(self, size: tuple[int, int]) -> int:
        """Pixels from one scenario's button to the next: 48, less (down to 36) so all are in view."""
        room = size[1] - 60 - PAD - 30
        return max(36, min(48, room // max(1, len(self.cards))))

    def hotspots(self, size: tuple[int, int]) -> list[Hotspot]:
        """Every clickable rectangle and what a click there does."""
        r = self.rects(size)
        out: list[Hotspot] = []
        y = r["list"].y + 30
        sstep = self.scenario_step(size)
        for card in self.cards:
            out.append(
                Hotspot(
                    pygame.Rect(r["list"].x, y, r["list"].width, sstep - 4), ("scenario", card.id), card.id
                )
            )
            y += sstep
        s = r["settings"]
        y = s.y + 30
        out.append(Hotspot(pygame.Rect(s.x + 150, y, 28, 24), ("seed", "-"), "-"))
        out.append(Hotspot(pygame.Rect(s.x + 260, y, 28, 24), ("seed", "+"), "+"))
        y += 30
        half = s.width // 2 - 4
        out.append(Hotspot(pygame.Rect(s.x, y, half, 24), ("table",), "table"))
        out.append(Hotspot(pygame.Rect(s.right - half, y, half, 24), ("pace",), "pace"))
        y += 34
        step = self.option_step(size)
        rows = self.option_rows(size)
        fields = attrs.fields(Options)
        cols = -(-len(fields) // rows)
        col_w = (s.width - 4 * (cols - 1)) // cols
        for i, field in enumerate(fields):
            x = s.x + (i // rows) * (col_w + 4)
            at = pygame.Rect(x, y + (i % rows) * step, col_w, step - 2)
            out.append(Hotspot(at, ("option", field.name), field.name))
        rr = self.rects(size)["recent"]
        y = rr.y + 30
        if self.interrupted is not None:
            out.append(Hotspot(pygame.Rect(rr.x, y, rr.width, 40), ("resume",), "resume"))
            y += 48
        for p in self.recent:
            if y + 24 > rr.bottom - 44:
                break
            out.append(Hotspot(pygame.Rect(rr.x, y, rr.width, 24), ("recent", str(p)), p.name))
            y += 28
        out.append(Hotspot(pygame.Rect(rr.x, rr.bottom - 40, rr.width, 36), ("start",), "Start"))
        return out

    # -- events ---------------------------------------------------------------

    def handle(self, ev: pygame.event.Event, size: tuple[int, int]) -> StartChoice | None:
        """One pygame event; the choice once the player starts (Enter, Start) or continues a save."""
        if ev.type == pygame.MOUSEMOTION:
            self.mouse = ev.pos
        elif ev.type == pygame.MOUSEBUTTONUP and getattr(ev, "button", 1) == 1:
            for hs in self.hotspots(size):
                if hs.rect.collidepoint(ev.pos):
                    return self.click(hs.action)
        elif ev.type == pygame.KEYDOWN:
            return self.key(ev.key, getattr(ev, "unicode", "") or "")
        return None

    def click(self, action: tuple[Any, ...]) -> StartChoice | None:
        """Do what a hotspot's ``action`` means."""
        kind = action[0]
        if kind == "scenario":
            self.selected = next(i for i, c in enumerate(self.cards) if c.id == action[1])
        elif kind == "seed":
            self.seed = max(0, min(SEED_MAX, self.seed + (1 if action[1] == "+" else -1)))
        elif kind == "table":
            self.table = not self.table
        elif kind == "pace":
            self.cycle_pace()
        elif kind == "option":
            self.cycle_option(action[1])
        elif kind == "recent":
            return StartChoice(load=action[1], pace=self.pace)
        elif kind == "resume":
            return self.resume()
        elif kind == "start":
            return self.choice()
        return None

    def key(self, key: int, text: str) -> StartChoice | None:
        """Up/Down a scenario; digits type the seed (Backspace deletes); T table mode; Enter starts."""
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            return self.choice()
        if key == pygame.K_UP:
            self.selected = max(0, self.selected - 1)
        elif key == pygame.K_DOWN:
            self.selected = min(len(self.cards) - 1, self.selected + 1)
        elif key == pygame.K_BACKSPACE:
            self.seed //= 10
        elif text.isdigit() and len(text) == 1:
            self.seed = min(SEED_MAX, self.seed * 10 + int(text))
        elif key == pygame.K_t:
            self.table = not self.table
        elif key == pygame.K_p:
            self.cycle_pace()
        elif key == pygame.K_c and self.interrupted is not None:
            return self.resume()
        return None

    def cycle_pace(self) -> str:
        """P: the pace of the Enemy's turn, Instant → Step → Timed; returns it."""
        self.pace = PACES[(PACES.index(self.pace) + 1) % len(PACES)]
        return self.pace

    def resume(self) -> StartChoice | None:
        """Continue the interrupted game: its autosave, loaded to its last decision."""
        i = self.interrupted
        if i is None:
            return None
        return StartChoice(load=str(i.path), resumed=i.save_path or "", pace=self.pace)

    def cycle_option(self, name: str) -> Any:
        """The next value of option ``name``; back at the default it is no longer listed as changed."""
        default = getattr(Options(), name)
        values = option_values(name, default)
        now = self.options.get(name, default)
        new = values[(values.index(now) + 1) % len(values)] if now in values else default
        if new == default:
            self.options.pop(name, None)
        else:
            self.options[name] = new
        return new

    def choice(self) -> StartChoice | None:
        """The new game as set now (None when no scenario could be loaded)."""
        if not self.cards:
            return None
        return StartChoice(
            self.cards[self.selected].id, self.seed, self.table, dict(self.options), pace=self.pace
        )

    # -- drawing --------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        """The whole start screen."""
        size = surface.get_size()
        f = self.fonts
        surface.fill(theme.PANEL)
        title = f.text("solo — Combat! (house edition): choose a game", 22, theme.PANEL_TITLE, bold=True)
        surface.blit(title, (PAD, 16))
        if self.notice:  # the remembered settings could not be used: said on this screen, once
            room = size[0] - title.get_width() - 3 * PAD
            for i, ln in enumerate(f.wrap(self.notice, SMALL_SIZE, room)[:2]):
                surface.blit(f.text(ln, SMALL_SIZE, theme.FIRE), (title.get_width() + 2 * PAD, 14 + i * 16))
        r = self.rects(size)
        hs = self.hotspots(size)
        surface.blit(f.text("Scenarios", TEXT_SIZE, theme.TEXT_DIM, bold=True), (r["list"].x, r["list"].y))
        for spot in hs:
            kind = spot.action[0]
            if kind == "scenario":
                card = next(c for c in self.cards if c.id == spot.action[1])
                on = self.cards[self.selected] is card
                self._button(surface, spot.rect, on)
                surface.blit(
                    f.text(
                        f.first_fitting((card.scenario.name,), TEXT_SIZE, spot.rect.width - 16, bold=True),
                        TEXT_SIZE,
                        theme.BUTTON_TEXT,
                        bold=True,
                    ),
                    spot.rect.move(8, 2),
                )
                where = card.board.map.name.replace(" (house edition)", "")
                sub = (f"{card.scenario.turns} turns · {where}", f"{card.scenario.turns} turns")
                line = f.first_fitting(sub, SMALL_SIZE, spot.rect.width - 16, condensed=True)
                surface.blit(
                    f.text(line, SMALL_SIZE, theme.TEXT_DIM, condensed=True),
                    spot.rect.move(8, max(17, spot.rect.height - 20)),
                )
        if self.cards:
            self._draw_detail(surface, r["detail"], r["map"], self.cards[self.selected])
        self._draw_settings(surface, r["settings"], hs)
        self._draw_recent(surface, r["recent"], hs)

    def _button(self, surface: pygame.Surface, rect: pygame.Rect, on: bool) -> None:
        bg = theme.shade(theme.BUTTON, 40) if on else theme.BUTTON
        if rect.collidepoint(self.mouse):
            bg = theme.shade(bg, 24)
        pygame.draw.rect(surface, bg, rect, border_radius=5)
        pygame.draw.rect(
            surface, theme.ACTIVE if on else theme.BUTTON_EDGE, rect, 2 if on else 1, border_radius=5
        )

    def _draw_detail(
        self, surface: pygame.Surface, rect: pygame.Rect, mp: pygame.Rect, card: ScenarioCard
    ) -> None:
        f = self.fonts
        y = rect.y
        surface.blit(f.text(card.scenario.name, 20, theme.PANEL_TITLE, bold=True), (rect.x, y))
        y += 28
        lines = [
            f"{card.id} · map: {card.board.map.name} · {card.setting}",
            f"Friendly: {card.friendly}",
            f"Enemy: {card.enemy}",
            "Uses: " + ("; ".join(card.features) or "the base rules only"),
        ]
        for text in lines:
            for ln in f.wrap(text, SMALL_SIZE, rect.width):
                if y > mp.y - 16:
                    break
                surface.blit(f.text(ln, SMALL_SIZE, theme.TEXT), (rect.x, y))
                y += 16
        self._draw_map(surface, mp, card)

    def _draw_map(self, surface: pygame.Surface, rect: pygame.Rect, card: ScenarioCard) -> None:
        """A picture of the scenario's map, fitted to ``rect``."""
        layer = self._layers.get(card.id)
        if layer is None:
            layer = self._layers[card.id] = board_draw.MapLayer(card.board, keep=1)
        cam = Camera(card.board, rect)
        old = surface.get_clip()
        surface.set_clip(rect)
        surface.fill(theme.MAP_BACKGROUND, rect)
        layer.blit(surface, cam, self.fonts, labels=False, night=card.scenario.night)
        surface.set_clip(old)
        pygame.draw.rect(surface, theme.PANEL_EDGE, rect, 1)

    def _draw_settings(self, surface: pygame.Surface, rect: pygame.Rect, hs: list[Hotspot]) -> None:
        f = self.fonts
        surface.blit(f.text("Game settings", TEXT_SIZE, theme.TEXT_DIM, bold=True), (rect.x, rect.y))
        defaults = Options()
        for spot in hs:
            kind = spot.action[0]
            if kind == "seed":
                self._button(surface, spot.rect, False)
                t = f.text(spot.label, TEXT_SIZE, theme.BUTTON_TEXT, bold=True)
                surface.blit(t, t.get_rect(center=spot.rect.center))
            elif kind == "table":
                self._button(surface, spot.rect, self.table)
                text = "Table mode: ON, your dice (T)" if self.table else "Table mode: off (T)"
                text = f.fit(text, SMALL_SIZE, spot.rect.width - 12)
                surface.blit(f.text(text, SMALL_SIZE, theme.BUTTON_TEXT), spot.rect.move(8, 4))
            elif kind == "pace":
                self._button(surface, spot.rect, self.pace != "instant")
                surface.blit(
                    f.text(PACE_LABELS[self.pace], SMALL_SIZE, theme.BUTTON_TEXT), spot.rect.move(8, 4)
                )
            elif kind == "option":
                name = spot.action[1]
                default = getattr(defaults, name)
                value = self.options.get(name, default)
                changed = name in self.options
                self._button(surface, spot.rect, changed)
                forms = option_forms(name, value, changed=changed)
                line = f.first_fitting(forms, SMALL_SIZE, spot.rect.width - 12, condensed=True)
                surface.blit(
                    f.text(line, SMALL_SIZE, theme.BUTTON_TEXT, condensed=True), spot.rect.move(6, 3)
                )
        seed_y = next(s.rect for s in hs if s.action == ("seed", "-"))
        surface.blit(f.text("Seed (type digits)", SMALL_SIZE, theme.TEXT), (rect.x, seed_y.y + 4))
        t = f.text(str(self.seed), TEXT_SIZE, theme.ACTIVE, bold=True)
        surface.blit(t, t.get_rect(center=(seed_y.right + 41, seed_y.centery)))
        note = "House options (base-rules §20): click to change; the manual lists them."
        surface.blit(f.text(note, 11, theme.TEXT_DIM), (rect.x, rect.bottom - 14))

    def _draw_recent(self, surface: pygame.Surface, rect: pygame.Rect, hs: list[Hotspot]) -> None:
        f = self.fonts
        surface.blit(f.text("Continue a saved game", TEXT_SIZE, theme.TEXT_DIM, bold=True), (rect.x, rect.y))
        if not self.recent and self.interrupted is None:
            surface.blit(
                f.text("no saves yet (Ctrl+S in a game)", SMALL_SIZE, theme.TEXT_DIM), (rect.x, rect.y + 30)
            )
        for spot in hs:
            if spot.action[0] == "resume" and self.interrupted is not None:
                pygame.draw.rect(surface, theme.AUTO_BUTTON, spot.rect, border_radius=6)
                pygame.draw.rect(surface, theme.ACTIVE, spot.rect, 2, border_radius=6)
                head = f.fit("Continue the interrupted game (C)", TEXT_SIZE, spot.rect.width - 12)
                surface.blit(f.text(head, TEXT_SIZE, theme.BUTTON_TEXT, bold=True), spot.rect.move(6, 3))
                sub = f.fit(self.interrupted.label, SMALL_SIZE, spot.rect.width - 12, condensed=True)
                surface.blit(
                    f.text(sub, SMALL_SIZE, theme.BUTTON_TEXT, condensed=True), spot.rect.move(6, 22)
                )
            elif spot.action[0] == "recent":
                self._button(surface, spot.rect, False)
                line = f.first_fitting(
                    path_forms(spot.action[1]), SMALL_SIZE, spot.rect.width - 12, condensed=True
                )
                surface.blit(
                    f.text(line, SMALL_SIZE, theme.BUTTON_TEXT, condensed=True), spot.rect.move(6, 4)
                )
            elif spot.action[0] == "start":
                pygame.draw.rect(surface, theme.AUTO_BUTTON, spot.rect, border_radius=6)
                name = self.cards[self.selected].scenario.name if self.cards else "?"
                text = f"Start {name} (Enter)"
                t = f.text(
                    f.fit(text, TEXT_SIZE, spot.rect.width - 12), TEXT_SIZE, theme.BUTTON_TEXT, bold=True
                )
                surface.blit(t, t.get_rect(center=spot.rect.center))


__all__ = [
    "ScenarioCard",
    "StartChoice",
    "StartScreen",
    "option_values",
    "recent_file",
    "recent_saves",
    "remember_save",
    "scenario_cards",
]
