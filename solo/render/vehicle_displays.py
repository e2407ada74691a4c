"""The vehicle displays (C2 31), drawn like the printed mats in the panel above the log.

* :func:`vehicle_panel_layout`: every mat when they fit, else one mat with tabs;
  rows are clickable (:meth:`VehiclePanelLayout.hotspots`).
* :func:`draw_vehicle_panel`: per crew position its name, TQ, morale, hatch
  (31.8), order (31.11.2) and Target Marker (31.7.3), KIA marks; passengers two
  to a row (31.9.3); damage markers (31.10.8); rounds left and the Loaded marker
  (31.9.4). :class:`VehiclePanelCache` keeps the layout and the picture while
  nothing they show changes.

May import: :mod:`solo.render.theme`, :mod:`solo.render.view`,
:mod:`solo.render.counter_marks`, :mod:`solo.render.vehicle_labels`,
:mod:`solo.render.vehicle_counters` (a counter's cache key), ``solo.rules`` and
lower rooms.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs
import pygame

from solo.render import theme
from solo.render.counter_marks import name_forms, team_colour
from solo.render.vehicle_counters import vehicle_key
from solo.render.vehicle_labels import (
    HATCH_TEXT,
    crew_order_text,
    damage_labels,
    position_initial,
    position_label,
    vehicle_type,
)
from solo.render.view import Hotspot
from solo.rules.state import Side, Status
from solo.rules.vehicles.state import CREW_ORDER, Hatch, Vehicle, vehicles_of

if TYPE_CHECKING:
    from solo.engine.game import Game
    from solo.render.logview import Fog
    from solo.render.theme import Fonts
    from solo.rules.state import Character

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


COLUMNS_NARROW = (0, 33, 72, 140, 184, 214, 286)
"""The same cells for a narrow mat (350 pixels, the 1280x800 window): short forms of the hatch,
name, TQ and morale words (:func:`_cell`) take less room, so the order and marker cells keep theirs."""


def _cols(width: int) -> list[int]:
    if width >= 430:
        return [round(c * width / 448) for c in COLUMNS]
    return [round(c * width / 350) for c in COLUMNS_NARROW]


def _cell(fonts: Fonts, forms: tuple[str, ...], size: int, width: int, *, bold: bool = False) -> str:
    """The first of ``forms`` that fits a cell ``width`` pixels wide (condensed); a cut is registered."""
    return fonts.first_fitting(forms, size, width, bold=bold, condensed=True)


HATCH_SHORT = {"Closed": "BU", "no hatch": "none"}
"""A hatch chip's word on a narrow mat (BU: buttoned up, C2 31.8)."""


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
        plabel = position_label(row.position)
        psize = TEXT if fonts.width(plabel, TEXT, bold=True, condensed=True) <= cols[1] - 3 else SMALL
        plabel = _cell(fonts, (plabel,), psize, cols[1] - 3, bold=True)
        pt = fonts.text(plabel, psize, theme.MAT_TEXT, bold=True, condensed=True)
        surface.blit(pt, pt.get_rect(midleft=(x0 + cols[0], cy)))
        name_x = x0 + (_half_cols(rr.width)[1] if row.half else cols[2])
        if not row.half and hatches:
            hatch = seat.hatch
            _chip(
                surface,
                fonts,
                _cell(
                    fonts,
                    (HATCH_TEXT[hatch], HATCH_SHORT.get(HATCH_TEXT[hatch], HATCH_TEXT[hatch])),
                    SMALL,
                    cols[2] - cols[1] - 10,
                    bold=True,
                ),
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
            _draw_crewman(surface, game, fonts, ch, seat, x0, cy, cols, v, right=rr.right)
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
    *,
    right: int,
) -> None:
    """Name, wounds, TQ (LDR), morale, order and Target Marker cells of a crewman's row (the row
    ends at x = ``right``)."""
    name_w = cols[3] - cols[2] - 6
    colour = theme.MAT_TEXT if ch.status is Status.ACTIVE else theme.KIA
    nt = fonts.text(
        fonts.first_fitting(name_forms(ch.name), TEXT, name_w, condensed=True), TEXT, colour, condensed=True
    )
    surface.blit(nt, nt.get_rect(midleft=(x0 + cols[2], cy)))
    if ch.status is Status.INCAPACITATED:
        pygame.draw.line(surface, theme.KIA, (x0 + cols[2], cy), (x0 + cols[2] + nt.get_width(), cy), 1)
    wx = x0 + cols[2] + nt.get_width() + 5
    for w in ch.wounds:
        rad = 4 if w.value == "bad" else 3
        pygame.draw.circle(surface, theme.WOUND_BAD if w.value == "bad" else theme.WOUND_LIGHT, (wx, cy), rad)
        wx += 2 * rad + 2
    ldr = f" L{ch.ldr}" if ch.ldr else ""
    tq_w = cols[4] - cols[3] - 3
    tq_size = (
        TEXT if fonts.width(f"TQ {ch.effective_tq}{ldr}", TEXT, bold=True, condensed=True) <= tq_w else SMALL
    )
    tq = _cell(fonts, (f"TQ {ch.effective_tq}{ldr}", f"TQ{ch.effective_tq}{ldr}"), tq_size, tq_w, bold=True)
    tt = fonts.text(tq, tq_size, theme.MAT_TEXT, bold=True, condensed=True)
    surface.blit(tt, tt.get_rect(midleft=(x0 + cols[3], cy)))
    morale = ch.morale.value
    if morale == "normal":
        mt = fonts.text(
            _cell(fonts, ("Normal", "Norm"), SMALL, cols[5] - cols[4] - 3),
            SMALL,
            theme.MAT_DIM,
            condensed=True,
        )
        surface.blit(mt, mt.get_rect(midleft=(x0 + cols[4], cy)))
    else:
        _chip(
            surface,
            fonts,
            _cell(
                fonts,
                (morale.capitalize(), theme.MORALE_ABBREV.get(morale) or morale[:3].upper()),
                SMALL,
                cols[5] - cols[4] - 9,
                bold=True,
            ),
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
        t = fonts.text(
            _cell(fonts, ("no order", "none"), SMALL, cols[6] - cols[5] - 4),
            SMALL,
            theme.MAT_DIM,
            condensed=True,
        )
        surface.blit(t, t.get_rect(midleft=(x0 + cols[5], cy)))
    # the Target Marker: on the board (a ringed initial and its hex) or not
    mx = x0 + cols[6] + 7
    if seat.marker is not None:
        colour = theme.MARKER_COLOURS["friendly" if ch.side is Side.FRIENDLY else "enemy"]
        pygame.draw.circle(surface, (252, 252, 248), (mx, cy), 7)
        pygame.draw.circle(surface, colour, (mx, cy), 7, 2)
        it = fonts.text(position_initial(seat.position)[:2], 8, colour, bold=True, condensed=True)
        surface.blit(it, it.get_rect(center=(mx, cy)))
        ht = fonts.text(
            _cell(fonts, (str(seat.marker),), SMALL, right - mx - 12, bold=True),
            SMALL,
            theme.MAT_TEXT,
            bold=True,
            condensed=True,
        )
        surface.blit(ht, ht.get_rect(midleft=(mx + 10, cy)))
    elif _uses_marker(game, v, seat.position):
        t = fonts.text(
            _cell(fonts, ("no marker", "none"), SMALL, right - mx + 5), SMALL, theme.MAT_DIM, condensed=True
        )
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
    nt = fonts.text(
        fonts.first_fitting(name_forms(ch.name), TEXT, c[2] - c[1] - 3, condensed=True),
        TEXT,
        colour,
        condensed=True,
    )
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
