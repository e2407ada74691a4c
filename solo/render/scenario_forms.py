"""The scenario editor's forms (issue 12 item 5): the side panel right of the map.

:class:`ScenarioForms` lays out simple fields over a
:class:`~solo.data.scenario_draft.ScenarioDraft` and applies what the player types or clicks:

- the setting: id, name, turns, month, hand (numbers and text typed: click, type, Enter; the
  first key typed replaces the old value, Backspace edits it; Escape cancels), weather and
  ground (C2 28.1–28.2, a click cycles), night;
- the team picked in the palette: an Enemy team starts Waiting or Alert, Prepared or Unprepared
  (§5.6); a Friendly Able/Baker/Charlie is placed by hand or rolled (C2 25.0, on its set-up hexes);
- the piece selected on the map: an objective's VP and name (§19), a vehicle's name and crew
  (C2 31.3), a character's profile or counter (C2 24.0, 25.0);
- reinforcements (§5.7): a wave per row (click selects it, ``x`` deletes it), ``+ wave`` adds one
  for the current team; the selected wave's turn, team, who (Enemy: counter numbers and ``+N``
  dummies, ``"12 13 +1"``; Friendly: profile ids) and forced order (``"EV 5/6"``); its entry
  hexes are clicked on the map with the entry-hex tool;
- the selected Friendly character written out: name, TQ, LDR and weapons (``"m1_garand:5"``);
- the Rules page: Play this's seed, wind (§13), board edges (C2 31.11.2), event tables (§18),
  the description (Shift+Enter: a new line);
- the Victory page: VP per man, exits (§19; their hexes clicked with the exit-hex tool), the
  VP bands, the least VP of each result;
- the Options page: the scenario's house options (base-rules §20).

The setting, team, selection and reinforcements make the Setting page (tabs at the top).

May import: :mod:`solo.core`, :mod:`solo.data` and the render room.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import attrs
import pygame

from solo.core.options import OPTION_CHOICES, Options
from solo.data.characters import FriendlyProfile
from solo.data.scenario_draft import ALL_TEAMS, Piece, ScenarioDraft, side_of_team
from solo.data.scenario_format import EventVariant, Ground, MapSide, Weather
from solo.render import theme
from solo.render.option_labels import OPTION_LABELS, value_words
from solo.render.panels import PAD, SMALL_SIZE, TEXT_SIZE


class ScenarioEditor(Protocol):
    """What the forms use of :class:`solo.render.scenario_editor.ScenarioEditor` (no import
    circle: the editor imports the forms)."""

    draft: ScenarioDraft
    fonts: theme.Fonts
    selected: Piece | None
    team: str
    tool: str
    message: str
    seed: int

    def remember(self) -> None: ...
    def changed(self) -> None: ...
    def rotate(self, steps: int = 1) -> None: ...
    def crew(self) -> None: ...
    def retarget(self, step: int) -> None: ...
    def profile(self, profile_id: str) -> FriendlyProfile | None: ...


ROW_H = 22
LABEL_W = 92
INT_FIELDS = {"turns", "month", "hand", "obj:vp", "wave:turn", "seed", "exit:vp", "chr:tq", "chr:ldr"}
"""Fields that take a whole number (and ``vic:*``, ``band:*`` and the number options)."""
PAGES: tuple[tuple[str, str], ...] = (
    ("setting", "Setting"),
    ("rules", "Rules"),
    ("victory", "Victory"),
    ("options", "Options"),
)
"""The pages of the forms: (id, tab label)."""
DESCRIPTION_ROWS = 7
"""Rows of the description box."""
VICTORY_VALUES: tuple[tuple[str, str, int], ...] = (
    ("kill", "per kill", 1),
    ("leader_kill", "per leader kill", 2),
    ("prisoner", "per prisoner", 1),
    ("friendly_killed", "lost: killed", 1),
    ("friendly_captured", "lost: captured", 1),
)
"""The per-man VP values of ``victory`` (§19): (key, label, default)."""
EDGE_CHOICES: tuple[str, ...] = tuple(m.value for m in MapSide)


@attrs.frozen
class Field:
    """One field: ``key`` names what it edits; ``kind`` is text, int, cycle, toggle, button or row."""

    key: str
    label: str
    value: str
    kind: str
    rect: pygame.Rect


class ScenarioForms:
    """The form panel of a :class:`~solo.render.scenario_editor.ScenarioEditor`."""

    def __init__(self, editor: ScenarioEditor) -> None:
        self.editor = editor
        self.focus: str | None = None
        """The key of the field being typed in, or None."""
        self.buffer = ""
        self.fresh = False
        """The focused field still shows its old value: the first key typed replaces it."""
        self.wave: int | None = None
        """The reinforcement wave selected (its entry hexes are clicked with the entry-hex tool)."""
        self.exit: int | None = None
        """The victory exit selected (its hexes are clicked with the exit-hex tool)."""
        self.page = "setting"
        """The page shown (:data:`PAGES`)."""

    # -- layout --------------------------------------------------------------

    def fields(self, rect: pygame.Rect) -> list[Field]:
        """The fields laid out top-down in ``rect`` (the panel)."""
        ed = self.editor
        doc = ed.draft.doc
        out: list[Field] = []
        x, w = rect.x + PAD, rect.width - 2 * PAD
        y = rect.y + PAD + 22

        def add(
            key: str, label: str, value: Any, kind: str, *, width: int | None = None, col: int = 0
        ) -> None:
            nonlocal y
            ww = w if width is None else width
            hh = ROW_H * DESCRIPTION_ROWS - 2 if kind == "textarea" else ROW_H - 2
            out.append(
                Field(
                    key,
                    label,
                    "" if value is None else str(value),
                    kind,
                    pygame.Rect(x + col, y, ww, hh),
                )
            )

        def row(extra: int = 0) -> None:
            nonlocal y
            y += ROW_H + extra

        def title(text: str) -> None:
            nonlocal y
            y += 6
            out.append(Field("title", text, "", "title", pygame.Rect(x, y, w, ROW_H - 2)))
            y += ROW_H

        half = (w - 4) // 2
        tab = (w - 3 * 3) // len(PAGES)
        for i, (page, label) in enumerate(PAGES):
            add(f"page:{page}", "", label, "tab", width=tab, col=i * (tab + 3))
        row(4)
        if self.page != "setting":
            {"rules": self._rules, "victory": self._victory, "options": self._options}[self.page](
                add, row, title, w, half
            )
            return out
        for key in ("id", "name"):
            add(key, key, doc.get(key, ""), "text")
            row()
        add("turns", "turns", doc.get("turns", 6), "int", width=half)
        add("month", "month", doc.get("month", 6), "int", width=half, col=half + 4)
        row()
        add("weather", "weather", doc.get("weather", "clear"), "cycle", width=half)
        add("ground", "ground", doc.get("ground", "normal"), "cycle", width=half, col=half + 4)
        row()
        add("hand", "hand", doc.get("hand", 3), "int", width=half)
        add("night", "night", "yes" if doc.get("night") else "no", "toggle", width=half, col=half + 4)
        row()
        team = next((t for t in doc.get(side_of_team(ed.team), []) if t.get("id") == ed.team), {})
        title(f"Team {ed.team} (picked in the palette)")
        if side_of_team(ed.team) == "enemy":
            add("team:alert", "start", "Alert" if team.get("alert") else "Waiting", "toggle", width=half)
            prepared = team.get("prepared", True)
            add(
                "team:prepared",
                "",
                "Prepared" if prepared else "Unprepared",
                "toggle",
                width=half,
                col=half + 4,
            )
            row()
        elif ed.team != "com":
            rolled = team.get("roll") is not None
            add("team:roll", "members", "rolled (C2 25.0)" if rolled else "placed", "toggle")
            row()
        sel = ed.selected
        if sel is not None:
            title(f"Selected: {sel.label} ({sel.kind.replace('_', ' ')}, {sel.hex})")
            entry = ed.draft.get(sel.path)
            if sel.kind == "objective":
                add("obj:vp", "VP", entry.get("vp", 0), "int", width=half)
                add("obj:side", "for", entry.get("side", "friendly"), "cycle", width=half, col=half + 4)
                row()
                add("obj:name", "name", entry.get("name", ""), "text")
                row()
            elif sel.kind == "vehicle":
                add("veh:name", "name", entry.get("name", ""), "text")
                row()
                add("veh:facing", "facing", entry.get("facing", 1), "button", width=half)
                add("veh:crew", "crew", "from hex (C)", "button", width=half, col=half + 4)
                row()
                seats = {**entry.get("crew", {}), **entry.get("passengers", {})}
                text = ", ".join(f"{k}: {v}" for k, v in seats.items()) or "drawn at set-up (AFV) / none"
                add("info", "aboard", text, "info")
                row()
            elif sel.kind == "character":
                written = "profile" not in entry and "counter" not in entry
                if not written:
                    add("chr:prev", "", "< previous", "button", width=half)
                    add("chr:next", "", "next >", "button", width=half, col=half + 4)
                    row()
                if sel.side == "friendly":
                    label = "use a profile" if written else "write out (name, TQ, weapons)"
                    add("chr:write", "", label, "button")
                    row()
                if written and sel.side == "friendly":
                    add("chr:name", "name", entry.get("name", ""), "text")
                    row()
                    add("chr:tq", "TQ", entry.get("tq", ""), "int", width=half)
                    add("chr:ldr", "LDR", entry.get("ldr", 0), "int", width=half, col=half + 4)
                    row()
                    weapons = " ".join(f"{w['weapon']}:{w['ws']}" for w in entry.get("weapons", []))
                    add("chr:weapons", "weapons", weapons, "text")
                    row()
        title("Reinforcements (§5.7)")
        waves = doc.get("reinforcements", [])
        for i, wv in enumerate(waves):
            when = f"turn {wv['turn']}" if wv.get("turn") is not None else "event"
            who = _who_text(wv)
            n = len(str(wv.get("hexes", "")).split())
            add(
                f"wave:{i}",
                "",
                f"{when}: {wv.get('team', '?')} {who}; {n} entry hex(es)",
                "row",
                width=w - 26,
            )
            add(f"wave:{i}:del", "", "x", "button", width=22, col=w - 22)
            row()
        add("wave:add", "", f"+ wave ({ed.team})", "button", width=half)
        row()
        if self.wave is not None and self.wave < len(waves):
            wv = waves[self.wave]
            add("wave:turn", "turn", wv.get("turn", ""), "int", width=half)
            add("wave:team", "team", wv.get("team", ""), "cycle", width=half, col=half + 4)
            row()
            add("wave:who", "who", _who_text(wv), "text")
            row()
            add("wave:order", "order", wv.get("order", ""), "text")
            row()
        return out

    def _rules(self, add: Any, row: Any, title: Any, w: int, half: int) -> None:
        """The rules page: Play this's seed, wind (§13), board edges (C2 31.11.2), event table
        variants (§18), the description, the minefields (C2 31.5) and fires (C2 29.0)."""
        ed = self.editor
        doc = ed.draft.doc
        add("seed", "seed (Play this)", ed.seed, "int")
        row()
        wind = doc.get("wind")
        add("wind", "wind (§13)", "rolled (d6)" if wind is None else f"toward {wind}", "cycle")
        row()
        title("Board edges (C2 31.11.2)")
        edges = doc.get("edges") or {}
        add("edge:friendly", "Friendly", edges.get("friendly", "south"), "cycle", width=half)
        add("edge:enemy", "Enemy", edges.get("enemy", "north"), "cycle", width=half, col=half + 4)
        row()
        title("Event tables (§18)")
        events = doc.get("events") or {}
        add("event:friendly", "Friendly", events.get("friendly", "attacking"), "cycle", width=half)
        add("event:enemy", "Enemy", events.get("enemy", "defending"), "cycle", width=half, col=half + 4)
        row()
        title("Description (Shift+Enter: new line)")
        add("description", "", doc.get("description", ""), "textarea")
        row(ROW_H * (DESCRIPTION_ROWS - 1))
        title("Map hexes (palette tools: click toggles)")
        for key, rule in (("minefields", "C2 31.5"), ("fires", "C2 29.0")):
            hexes = str(doc.get(key, "")).split()
            add("info", f"{key}", f"{len(hexes)} hex(es) ({rule}) {' '.join(hexes)}", "info")
            row()

    def _victory(self, add: Any, row: Any, title: Any, w: int, half: int) -> None:
        """The victory page (§19): VP per man, exits, the VP bands."""
        ed = self.editor
        victory = ed.draft.doc.get("victory") or {}
        title("VP per man (§19)")
        for key, label, default in VICTORY_VALUES:
            add(f"vic:{key}", label, victory.get(key, default), "int")
            row()
        title("Exits: VP per man leaving the map (§19)")
        exits = victory.get("exits", [])
        for i, ex in enumerate(exits):
            where = (
                f"{ex['edge']} edge" if ex.get("edge") else f"{len(str(ex.get('hexes', '')).split())} hex(es)"
            )
            text = f"{ex.get('vp', 0)} VP, {ex.get('side', 'friendly')}: {where}"
            add(f"exit:{i}", "", text, "row", width=w - 26)
            add(f"exit:{i}:del", "", "x", "button", width=22, col=w - 22)
            row()
        add("exit:add", "", "+ exit", "button", width=half)
        row()
        if self.exit is not None and self.exit < len(exits):
            ex = exits[self.exit]
            add("exit:vp", "VP", ex.get("vp", 0), "int", width=half)
            add("exit:side", "for", ex.get("side", "friendly"), "cycle", width=half, col=half + 4)
            row()
            add("exit:edge", "edge", ex.get("edge") or "none: hexes", "cycle")
            row()
            add("info", "hexes", ex.get("hexes") or "(click them with the exit-hex tool)", "info")
            row()
        title("Least VP of each result (§19)")
        for i, (result, min_vp) in enumerate(ed.draft.bands()):
            if min_vp is None:
                add("info", result, "anything lower", "info")
            else:
                add(f"band:{i}", result, min_vp, "int")
            row()

    def _options(self, add: Any, row: Any, title: Any, w: int, half: int) -> None:
        """The scenario's house options (base-rules §20): a click cycles a choice, a number is typed;
        the house default is left out of the file."""
        ed = self.editor
        options = ed.draft.doc.get("options") or {}
        title("House options (*: set by this scenario)")
        for f in attrs.fields(Options):
            value = options.get(f.name, f.default)
            lab = OPTION_LABELS.get(f.name)
            head = lab.label if lab is not None else f.name.replace("_", " ")
            shown = f"{head}: {value_words(f.name, value)}" + (f" · {lab.rule}" if lab is not None else "")
            if f.name in options:
                shown += " *"
            kind = "int" if isinstance(f.default, int) and not isinstance(f.default, bool) else "cycle"
            add(f"opt:{f.name}", "", shown, kind)
            row(-4)

    # -- input ---------------------------------------------------------------

    def click(self, f: Field) -> None:
        """A click on field ``f``: focus a typed field, cycle a choice, press a button."""
        ed = self.editor
        self.commit()
        if f.kind in ("text", "int", "textarea"):
            value = f.value
            if f.key.startswith("opt:"):  # the number itself, not its words
                name = f.key[4:]
                value = str((ed.draft.doc.get("options") or {}).get(name, getattr(Options(), name)))
            self.focus, self.buffer, self.fresh = f.key, value, f.kind != "textarea"
            return
        if f.kind == "tab":
            self.page = f.key.split(":")[1]
            return
        if f.key.startswith("exit:") and f.kind == "row":
            self.exit = int(f.key.split(":")[1])
            ed.tool = "exit_hex"
            ed.message = "exit selected: click its hexes on the map (or give it an edge)"
            return
        if f.key.startswith("wave:") and f.kind == "row":
            self.wave = int(f.key.split(":")[1])
            ed.tool = "wave_hex"
            ed.message = "wave selected: click its entry hexes on the map"
            return
        ed.remember()
        doc = ed.draft.doc
        if f.key == "weather":
            doc["weather"] = _next([w.value for w in Weather], doc.get("weather", "clear"))
        elif f.key == "ground":
            doc["ground"] = _next([g.value for g in Ground], doc.get("ground", "normal"))
        elif f.key == "night":
            if doc.get("night"):
                doc.pop("night", None)
            else:
                doc["night"] = True
        elif f.key.startswith("team:"):
            _, entry = ed.draft.team(ed.team)
            flag = f.key.split(":")[1]
            if flag == "alert":
                if entry.pop("alert", False) is False:  # Waiting (the default) -> Alert
                    entry["alert"] = True
            elif flag == "prepared":
                if entry.pop("prepared", True) is True:  # Prepared (the default) -> Unprepared
                    entry["prepared"] = False
            elif entry.get("roll") is not None:
                entry.pop("roll")
            else:
                entry["roll"] = "character_selection"
                ed.message = "rolled team: click its set-up hexes with the set-up hex tool"
        elif f.key == "obj:side" and ed.selected is not None:
            entry = ed.draft.get(ed.selected.path)
            if entry.get("side", "friendly") == "friendly":
                entry["side"] = "enemy"
            else:
                entry.pop("side", None)
        elif f.key == "veh:facing":
            ed.rotate()
        elif f.key == "veh:crew":
            ed.crew()
        elif f.key == "chr:write" and ed.selected is not None:
            entry = ed.draft.get(ed.selected.path)
            if "profile" in entry:
                profile = ed.profile(entry["profile"])
                if profile is None:
                    ed.message = f"write out: no profile {entry['profile']!r} in the card set"
                else:
                    ed.draft.write_out(ed.selected, profile)
                    ed.message = f"{profile.name} written out: edit his name, TQ, LDR and weapons"
            else:
                ed.draft.use_profile(ed.selected, ed.profiles)
        elif f.key in ("chr:prev", "chr:next"):
            ed.retarget(-1 if f.key == "chr:prev" else 1)
        elif f.key == "wind":
            wind = doc.get("wind")
            ed.draft.set_top("wind", 1 if wind is None else (None if wind == 6 else wind + 1))
        elif f.key.startswith(("edge:", "event:")):
            section, side = f.key.split(":")
            choices = EDGE_CHOICES if section == "edge" else tuple(v.value for v in EventVariant)
            defaults = {"edge": {"friendly": "south", "enemy": "north"}}.get(
                section, {"friendly": "attacking", "enemy": "defending"}
            )
            now = (doc.get(f"{section}s") or {}).get(side, defaults[side])
            ed.draft.set_nested(f"{section}s", side, _next(list(choices), now), defaults[side])
        elif f.key.startswith("opt:"):
            name = f.key.split(":")[1]
            default = getattr(Options(), name)
            now = (doc.get("options") or {}).get(name, default)
            choices = (
                [False, True] if isinstance(default, bool) else list(OPTION_CHOICES.get(name, (default,)))
            )
            ed.draft.set_option(name, choices[(choices.index(now) + 1) % len(choices)], default)
        elif f.key == "exit:add":
            enemy_edge = (doc.get("edges") or {}).get("enemy", "north")
            self.exit = ed.draft.add_exit(edge=enemy_edge)
            ed.tool = "exit_hex"
            ed.message = "new exit by the Enemy edge: change its edge, or click its hexes on the map"
        elif f.key.startswith("exit:") and f.key.endswith(":del"):
            ed.draft.remove_exit(int(f.key.split(":")[1]))
            self.exit = None
        elif f.key in ("exit:side", "exit:edge") and self.exit is not None:
            ex = doc["victory"]["exits"][self.exit]
            if f.key == "exit:side":
                if ex.pop("side", "friendly") == "friendly":
                    ex["side"] = "enemy"
            else:
                edge = _next(["", *EDGE_CHOICES], ex.pop("edge", ""))
                if edge:
                    ex["edge"] = edge
            _order_exit(ex)
        elif f.key == "wave:add":
            self.wave = ed.draft.add_wave(ed.team, min(2, int(doc.get("turns", 6))))
            ed.tool = "wave_hex"
            ed.message = "new wave: click its entry hexes on the map"
        elif f.key.startswith("wave:") and f.key.endswith(":del"):
            del doc["reinforcements"][int(f.key.split(":")[1])]
            if not doc["reinforcements"]:
                del doc["reinforcements"]
            self.wave = None
        elif f.key == "wave:team" and self.wave is not None:
            wv = doc["reinforcements"][self.wave]
            wv["team"] = _next(list(ALL_TEAMS), wv.get("team", "red"))
        ed.changed()

    def key(self, ev: pygame.event.Event) -> bool:
        """A key while a field is focused; True if the forms took it."""
        if self.focus is None:
            return False
        newline = ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and bool(ev.mod & pygame.KMOD_SHIFT)
        if newline and self.focus == "description":
            self.buffer += "\n"
        elif ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_TAB):
            self.commit()
        elif ev.key == pygame.K_ESCAPE:
            self.focus, self.buffer = None, ""
        elif ev.key == pygame.K_BACKSPACE:
            self.buffer = self.buffer[:-1]
        elif ev.unicode and ev.unicode.isprintable():
            self.buffer = ev.unicode if self.fresh else self.buffer + ev.unicode
        self.fresh = False
        return True

    def commit(self) -> None:
        """Apply the focused field's text (a bad number is refused with a message)."""
        key, text, raw = self.focus, self.buffer.strip(), self.buffer
        if key is None:
            return
        self.focus, self.buffer = None, ""
        ed = self.editor
        value: Any = text
        number_option = key.startswith("opt:") and type(getattr(Options(), key[4:])) is int
        if key in INT_FIELDS or key.startswith(("band:", "vic:")) or number_option:
            try:
                value = int(text)
            except ValueError:
                ed.message = f"{key}: {text!r} is not a whole number"
                return
        ed.remember()
        doc = ed.draft.doc
        if key in ("id", "name", "turns", "month", "hand"):
            doc[key] = value
        elif key == "seed":
            ed.seed = value
        elif key == "description":
            lines = [x.rstrip() for x in raw.split("\n")]
            ed.draft.set_top("description", "\n".join(lines).strip(), "")
        elif key.startswith("vic:"):
            ed.draft.set_victory_value(key[4:], value)
        elif key.startswith("opt:"):
            ed.draft.set_option(key[4:], value, getattr(Options(), key[4:]))
        elif key == "exit:vp" and self.exit is not None:
            doc["victory"]["exits"][self.exit]["vp"] = value
        elif key.startswith("band:"):
            ed.draft.set_band(int(key.split(":")[1]), value)
        elif key == "chr:weapons" and ed.selected is not None:
            problem = ed.draft.set_weapons(ed.selected, text)
            if problem:
                ed.message = problem
        elif key in ("chr:ldr", "chr:tq") and ed.selected is not None:
            entry = ed.draft.get(ed.selected.path)
            if key == "chr:ldr" and value == 0:
                entry.pop("ldr", None)
            else:
                entry[key[4:]] = value
        elif key.startswith(("obj:", "veh:", "chr:")) and ed.selected is not None:
            entry = ed.draft.get(ed.selected.path)
            field = key.split(":")[1]
            if value == "" and field == "name":
                entry.pop("name", None)
            else:
                entry[field] = value
        elif key.startswith("wave:") and self.wave is not None:
            wv = doc["reinforcements"][self.wave]
            if key == "wave:turn":
                wv["turn"] = value
            elif key == "wave:order":
                if text:
                    wv["order"] = text
                else:
                    wv.pop("order", None)
            elif key == "wave:who":
                _set_who(ed, self.wave, text)
        ed.changed()

    # -- drawing -------------------------------------------------------------

    def draw(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """The panel: a title, then every field."""
        f = self.editor.fonts
        surface.fill(theme.PANEL, rect)
        pygame.draw.line(surface, theme.PANEL_EDGE, rect.topleft, rect.bottomleft)
        surface.blit(
            f.text("Scenario", TEXT_SIZE, theme.PANEL_TITLE, bold=True), (rect.x + PAD, rect.y + PAD)
        )
        for fd in self.fields(rect):
            r = fd.rect
            if fd.kind == "title":
                line = f.fit(fd.label, SMALL_SIZE, r.width, bold=True)
                surface.blit(f.text(line, SMALL_SIZE, theme.PANEL_TITLE, bold=True), (r.x, r.y + 4))
                continue
            if fd.kind == "textarea":
                self._draw_textarea(surface, fd)
                continue
            if fd.kind == "tab":
                on = fd.key == f"page:{self.page}"
                bg = theme.shade(theme.BUTTON, 40) if on else theme.BUTTON
                pygame.draw.rect(surface, bg, r, border_radius=3)
                pygame.draw.rect(surface, theme.ACTIVE if on else theme.BUTTON_EDGE, r, 2 if on else 1, 3)
                line = f.fit(fd.value, SMALL_SIZE, r.width - 6, bold=on, condensed=True)
                surf = f.text(line, SMALL_SIZE, theme.BUTTON_TEXT, bold=on, condensed=True)
                surface.blit(surf, surf.get_rect(center=r.center))
                continue
            tx = r.x + 4
            if fd.label:
                lab = f.fit(
                    fd.label, SMALL_SIZE, LABEL_W - 8 if r.width > 2 * LABEL_W else 60, condensed=True
                )
                surface.blit(f.text(lab, SMALL_SIZE, theme.TEXT_DIM, condensed=True), (tx, r.y + 4))
                tx += LABEL_W - 4 if r.width > 2 * LABEL_W else 62
            if fd.kind == "info":
                line = f.fit(fd.value, SMALL_SIZE, r.right - tx, condensed=True)
                surface.blit(f.text(line, SMALL_SIZE, theme.TEXT, condensed=True), (tx, r.y + 4))
                continue
            box = pygame.Rect(tx - 2, r.y, r.right - tx + 2, r.height)
            focused = fd.key == self.focus
            on = fd.kind == "row" and self.wave is not None and fd.key == f"wave:{self.wave}"
            bg = (
                theme.BUTTON
                if fd.kind in ("button", "cycle", "toggle", "row")
                else theme.shade(theme.PANEL, 18)
            )
            pygame.draw.rect(surface, bg, box, border_radius=3)
            edge = theme.ACTIVE if focused or on else theme.BUTTON_EDGE
            pygame.draw.rect(surface, edge, box, 2 if focused or on else 1, 3)
            text = self.buffer + "|" if focused else fd.value
            forms = (text, re.sub(r" · [^*]*", "", text)) if fd.key.startswith("opt:") else (text,)
            line = f.first_fitting(forms, SMALL_SIZE, box.width - 8, condensed=True)
            surface.blit(f.text(line, SMALL_SIZE, theme.BUTTON_TEXT, condensed=True), (box.x + 4, r.y + 4))

    def _draw_textarea(self, surface: pygame.Surface, fd: Field) -> None:
        """A multi-line box: the text wrapped at words, the last lines if it is longer."""
        f = self.editor.fonts
        focused = fd.key == self.focus
        pygame.draw.rect(surface, theme.shade(theme.PANEL, 18), fd.rect, border_radius=3)
        edge = theme.ACTIVE if focused else theme.BUTTON_EDGE
        pygame.draw.rect(surface, edge, fd.rect, 2 if focused else 1, 3)
        text = self.buffer + "|" if focused else fd.value
        lines = _wrap(
            text, lambda t: f.text(t, SMALL_SIZE, theme.TEXT, condensed=True).get_width(), fd.rect.width - 8
        )
        rows = fd.rect.height // (SMALL_SIZE + 3)
        for k, line in enumerate(lines[-rows:] if focused else lines[:rows]):
            surf = f.text(line, SMALL_SIZE, theme.BUTTON_TEXT, condensed=True)
            surface.blit(surf, (fd.rect.x + 4, fd.rect.y + 3 + k * (SMALL_SIZE + 3)))


def _wrap(text: str, width_of: Any, width: int) -> list[str]:
    """``text`` cut into lines at its newlines and at spaces to fit ``width`` pixels."""
    out: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}" if line else word
            if line and width_of(trial) > width:
                out.append(line)
                line = word
            else:
                line = trial
        out.append(line)
    return out


def _next(values: list[str], current: str) -> str:
    return values[(values.index(current) + 1) % len(values)] if current in values else values[0]


def _order_exit(ex: dict[str, Any]) -> None:
    """An exit's keys in the order of :class:`~solo.data.scenario_format.ExitSpec`, in place."""
    items = [(k, ex[k]) for k in ("vp", "side", "edge", "hexes") if k in ex]
    ex.clear()
    ex.update(items)


def _who_text(wave: dict[str, Any]) -> str:
    """A wave's members as typed in the form: ``"12 13 +1"`` (Enemy) or profile ids (Friendly)."""
    cup = wave.get("cup") or {}
    parts = [str(n) for n in cup.get("counters", [])]
    if cup.get("dummies"):
        parts.append(f"+{cup['dummies']}")
    parts += [str(c.get("profile") or c.get("counter") or c.get("id")) for c in wave.get("characters", [])]
    return " ".join(parts)


def _set_who(ed: ScenarioEditor, index: int, text: str) -> None:
    """Set a wave's members from the form's text (see :func:`_who_text`)."""
    wv = ed.draft.doc["reinforcements"][index]
    team = wv.get("team", "red")
    if side_of_team(team) == "enemy":
        counters, dummies = [], 0
        for tok in text.split():
            if tok.startswith("+") and tok[1:].isdigit():
                dummies += int(tok[1:])
            elif tok.isdigit():
                counters.append(int(tok))
            else:
                ed.message = f"who: {tok!r} is not a counter number or +N dummies"
                return
        wv.pop("characters", None)
        ed.draft.set_wave_who(index, counters, dummies)
        return
    wv.pop("cup", None)
    chars = []
    used = ed.draft.used_ids()
    n = 1
    for tok in text.split():
        while f"{team}_{n}" in used:
            n += 1
        used.add(f"{team}_{n}")
        chars.append({"id": f"{team}_{n}", "profile": tok})
    wv["characters"] = chars
