"""The decision panel (right of the top): the pending decision's prompt, its man, its options as
buttons (or the direction rose of base-rules §6 for an order's direction), and the toolbar.

:func:`decision_layout` places everything (no drawing) and :func:`draw_decision` draws it, so the
controller hit-tests what is drawn; :func:`number_keys` maps the number keys to options and
:func:`actor_line` describes a man as much as the player may know (also the map's tooltip).

May import: :mod:`solo.render.panels` (the window's :class:`~solo.render.panels.UiState` and the
panels' text sizes), :mod:`solo.render.choices`, :mod:`solo.render.vehicle_labels`, the view and
the theme; ``solo.playtest`` for the game-over summary.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import attrs
import pygame

from solo.playtest.standing import DUCK_BACK_CAPTIONS, DuckBackChoice
from solo.render import theme
from solo.render.choices import default_key, map_direction, order_rotation
from solo.render.logview import Fog
from solo.render.panels import PAD, SMALL_SIZE, TEXT_SIZE, TITLE_SIZE, UiState
from solo.render.vehicle_labels import HATCH_TEXT, position_label
from solo.render.view import Hotspot
from solo.render.words import plain
from solo.rules.state import Side
from solo.rules.vehicles.state import vehicle_of

if TYPE_CHECKING:
    from solo.engine.game import Decision, Game
    from solo.render.theme import Fonts
    from solo.rules.state import Character

TOOLS: tuple[tuple[str, str], ...] = (
    ("default", "Default (Space)"),
    ("auto", "Auto: to next turn (N)"),
    ("save", "Save (Ctrl+S)"),
    ("labels", "Hex labels (L)"),
    ("rolls", "Dice in log (R)"),
    ("fog", "Hidden info (F)"),
    ("undo", "Undo (Ctrl+Z)"),
    ("sandbox", "Sandbox undo: off"),
    ("review", "Review (H)"),
    ("duck", "Duck Back: ask (D)"),
    ("carry", "Carry on moving (M)"),
    ("defaults", "Rules defaults (G)"),
    ("team", "Order to team (T)"),
)
"""Toolbar buttons of the decision panel: (name, caption). The last four are the standing choices
(solo.playtest.standing) and the order to a whole team."""

REVIEW_TOOLS: tuple[tuple[str, str], ...] = (
    ("branch", "Branch here"),
    ("bookmark", "Bookmark (B)"),
    ("review", "Back to game (Esc)"),
    ("back", "< Back (Left)"),
    ("forward", "Forward (Right) >"),
    ("save", "Save (Ctrl+S)"),
    ("labels", "Hex labels (L)"),
    ("rolls", "Dice in log (R)"),
    ("fog", "Hidden info (F)"),
)
"""Toolbar buttons in review mode (H): the game shown is read-only."""


SHORTER: tuple[tuple[str, str], ...] = (
    ("Carry on moving", "Carry on"),
    ("Rules defaults", "Defaults"),
    ("Auto: to next turn", "Auto turn"),
    ("Sandbox undo", "Sandbox"),
    ("Duck Back: if fired on", "Duck: if fired on"),
    ("Duck Back", "Duck"),
    ("Back to game", "Game"),
    ("Forward (Right) >", "Fwd (Right) >"),
    ("Hidden info", "Hidden"),
    ("Dice in log", "Dice"),
    ("Hex labels", "Labels"),
    ("Order to team", "Team order"),
    ("Bookmark", "Mark"),
    ("Branch here", "Branch"),
)
"""A toolbar caption's shorter words, used in turn while the caption does not fit its button."""


def short_forms(caption: str) -> tuple[str, ...]:
    """``caption`` and its shorter forms (:data:`SHORTER`, applied one after another)."""
    out = [caption]
    for long, short in SHORTER:
        if long in out[-1]:
            out.append(out[-1].replace(long, short))
    return tuple(out)


def tools_for(ui: UiState) -> tuple[tuple[str, str], ...]:
    """The toolbar's (name, caption) now: :data:`REVIEW_TOOLS` in review mode, else :data:`TOOLS`
    (the Sandbox toggle's caption says whether it is on)."""
    if ui.reviewing:
        return REVIEW_TOOLS
    st = ui.standing
    captions = {
        "sandbox": "Sandbox undo: ON" if ui.sandbox else "Sandbox undo: off",
        "duck": f"{DUCK_BACK_CAPTIONS[st.duck_back]} (D)",
        "carry": f"Carry on moving: {'ON' if st.carry_on else 'ask'} (M)",
        "defaults": f"Rules defaults: {'ON' if st.rules_defaults else 'ask'} (G)",
    }
    return tuple((n, captions.get(n, c)) for n, c in TOOLS)


@attrs.frozen
class OptionButton:
    """One option of the pending decision as a button."""

    key: str
    rect: pygame.Rect
    lines: tuple[str, ...]
    number: int | None
    """The number key that chooses it (1-9, 10 for 0), or None."""


@attrs.frozen
class DecisionLayout:
    """Where the decision panel puts its text, option buttons, direction rose and toolbar."""

    header: tuple[str, ...]
    header_y: int
    options_area: pygame.Rect
    buttons: tuple[OptionButton, ...]
    rose: bool
    content_height: int
    tools: tuple[Hotspot, ...]


ORDER_KEYS: dict[str, str] = {
    "h": "hide",
    "s": "sneak",
    "e": "evade",
    "p": "sprint",
    "a": "aimed_fire",
    "f": "rapid_fire",
    "u": "suppressive_fire",
    "r": "rally",
    "g": "guard",
    "l": "reload",
    "m": "melee",
    "c": "charge",
    "n": "grenade",
    "d": "medical_aid",
}
"""Shift+letter → the order it gives when an order is asked (base-rules §1 Step 2; 7.0)."""

ORDER_DIGITS: dict[str, int] = {
    # infantry orders (base-rules §4)
    "hide": 1,
    "sneak": 2,
    "evade": 3,
    "sprint": 4,
    "run_and_gun": 5,
    "aimed_fire": 6,
    "rapid_fire": 7,
    "suppressive_fire": 8,
    "rally": 9,
    "reload": 10,
    # Driver speed orders (C2 31.11.2)
    "crawl": 1,
    "ahead_slow": 2,
    "forward": 3,
    "fast": 4,
    "reverse": 5,
    # the other crew orders (C2 31.11.2)
    "spot": 1,
    "direct_firing": 2,
    "fire_main_gun": 3,
    "load_he": 4,
    "load_ap": 5,
    "button_open_up": 6,
    "smoke_dischargers": 7,
    "smoke_grenade_hatch": 8,
    "bail_out": 9,
}
"""Order id → its number key when an order is asked (10 is the 0 key): the same key for every man.

The other orders have no number: Shift+letter (solo.render.controller.ORDER_KEYS) or a click."""


ORDER_DIGIT_GROUPS: tuple[tuple[str, ...], ...] = (
    tuple(o for o, _ in list(ORDER_DIGITS.items())[:10]),
    tuple(o for o, _ in list(ORDER_DIGITS.items())[10:15]),
    tuple(o for o, _ in list(ORDER_DIGITS.items())[15:]),
)
"""The orders with a number key: infantry, Driver speeds, the other crew orders."""

ORDER_LETTERS: dict[str, str] = {order: letter for letter, order in ORDER_KEYS.items()}
"""Order id → its Shift+letter (shown on the order's button)."""


def number_keys(decision: Decision) -> dict[int, str]:
    """Number key (1-9, 10 for 0) → option key.

    Direction decisions map digit d to direction d; an order decision gives each order its fixed
    key (:data:`ORDER_DIGITS`); any other decision numbers its first ten options in order.
    """
    if decision.kind.value == "order_direction":
        return {int(k): k for k in decision.keys if "/" not in k}
    if decision.kind.value == "give_order":
        out: dict[int, str] = {}
        for k in decision.keys:
            digit = ORDER_DIGITS.get(k)
            if digit is not None and digit not in out:
                out[digit] = k
        return out
    return {i + 1: k for i, k in enumerate(decision.keys[:10])}


def actor_line(game: Game, ch: Character, fog: Fog) -> str:
    """A one-line description of a character, as much as the player may know."""
    if ch.id in fog.hidden_ids:
        team = game.state.teams.get(ch.team)
        return f"Unknown enemy ({team.name if team else ch.team}) at {ch.hex}"
    weapons = ", ".join(f"{game.data.weapons.get(w.weapon).name} WS {w.ws}" for w in ch.weapons)
    bits = [f"{ch.name}", f"{game.state.teams[ch.team].name if ch.team in game.state.teams else ch.team}"]
    tq = f"TQ {ch.effective_tq}" + (f" (printed {ch.tq})" if ch.effective_tq != ch.tq else "")
    bits.append(tq)
    if ch.ldr:
        bits.append(f"LDR {ch.ldr}")
    bits.append(ch.morale.value.capitalize())
    if ch.side is Side.FRIENDLY:
        bits.append("Spotted" if ch.revealed else "Hidden")
    else:
        bits.append("Known")
        bits.append("Alert" if ch.alert else "Waiting")
    if ch.wounds:
        bits.append("wounds: " + ", ".join(w.value for w in ch.wounds))
    if ch.ammo.value != "full":
        bits.append(f"ammo {ch.ammo.value}")
    if ch.order is not None:
        o = game.data.orders.get(ch.order.order)
        txt = f"order {o.name if o else ch.order.order}"
        if ch.order.directions:
            txt += f" {ch.order.directions}"
        if ch.order.target:
            tgt = game.state.characters.get(ch.order.target)
            txt += f" at {fog.clean(tgt.name) if tgt and tgt.id not in fog.hidden_ids else ch.order.target}"
        bits.append(txt)
    v = vehicle_of(game.state, ch)
    if v is not None:
        seat = v.seats.get(ch.seat or "")
        where = f"{v.name} {position_label(ch.seat or '')}"
        if seat is not None:
            where += f", hatch {HATCH_TEXT[seat.hatch].lower()}"
            if seat.marker is not None:
                where += f", Target Marker on {seat.marker}"
        bits.append(where)
    if ch.hex is not None:
        bits.append(f"in {ch.hex} ({game.board.terrain_of(ch.hex).name})")
    if weapons:
        bits.append(weapons)
    return " · ".join(bits)


def decision_layout(rect: pygame.Rect, game: Game, fonts: Fonts, ui: UiState, fog: Fog) -> DecisionLayout:
    """The decision panel's layout for the pending decision (or the game-over summary)."""
    inner_w = rect.width - 2 * PAD
    d = game.pending
    header: list[str] = []
    if d is None:
        from solo.playtest.play import summary

        header = ["Game over.", *(plain(ln, game.data) for ln in summary(game).splitlines())]
    else:
        header.append(plain(fog.clean(d.prompt), game.data))
        ch = game.state.characters.get(d.actor) if d.actor else None
        if ch is not None:
            header.append(actor_line(game, ch, fog))
        hint = _hint(d)
        if hint:
            header.append(hint)
    # toolbar: rows of three at the bottom
    tools: list[Hotspot] = []
    tw = (rect.width - 4 * PAD) // 3
    th = 24
    specs = tools_for(ui)
    rows = (len(specs) + 2) // 3
    ty0 = rect.bottom - rows * th - (rows - 1) * 4 - 2 * PAD + 6
    for i, (name, caption) in enumerate(specs):
        r, c = divmod(i, 3)
        tools.append(
            Hotspot(
                pygame.Rect(rect.x + PAD + c * (tw + PAD), ty0 + r * (th + 4), tw, th),
                ("tool", name),
                caption,
            )
        )
    # header lines
    y = rect.y + 28
    for i, text in enumerate(header):
        size = TEXT_SIZE if i == 0 else SMALL_SIZE
        y += 17 * len(fonts.wrap(text, size, inner_w, bold=i == 0))
    area = pygame.Rect(rect.x + PAD, y + 4, inner_w, ty0 - y - 10)
    buttons: list[OptionButton] = []
    rose = d is not None and d.kind.value == "order_direction"
    content = 0
    if d is not None and not rose:
        nums = {k: n for n, k in number_keys(d).items()}
        shown = list(d.options)
        if (
            d.kind.value == "give_order"
        ):  # in the order of their fixed keys (1 Hide ... 0 Reload), then the rest
            shown.sort(key=lambda o: (o.key not in nums, nums.get(o.key, 0)))
        n = len(shown)
        cols = 1 if n <= 7 else 2 if n <= 24 else 3
        col_w = (area.width - PAD * (cols - 1)) // cols
        rows_h: list[int] = []
        cells = []
        for i, opt in enumerate(shown):
            num = nums.get(opt.key)
            label = plain(fog.clean(opt.label), game.data)
            if num is not None:
                label = f"{num % 10}. {label}"
            letter = ORDER_LETTERS.get(opt.key) if d.kind.value == "give_order" else None
            if letter is not None:
                label += f" (Shift+{letter.upper()})"
            lines = tuple(fonts.wrap(label, SMALL_SIZE, col_w - 10, condensed=True)[:3])
            h = 8 + 15 * len(lines)
            cells.append((opt.key, lines, num, h))
            if i % cols == 0:
                rows_h.append(h)
            else:
                rows_h[-1] = max(rows_h[-1], h)
        yy = area.y - ui.option_scroll
        for i, (key, lines, num, _h) in enumerate(cells):
            row, col = divmod(i, cols)
            if col == 0 and row > 0:
                yy += rows_h[row - 1] + 4
            r = pygame.Rect(area.x + col * (col_w + PAD), yy, col_w, rows_h[row])
            buttons.append(OptionButton(key, r, lines, num))
        content = sum(rows_h) + 4 * max(0, len(rows_h) - 1)
    elif rose:
        buttons = list(_rose_buttons(area, game, d))
        content = area.height
    return DecisionLayout(tuple(header), rect.y + 28, area, tuple(buttons), rose, content, tuple(tools))


def _hint(d: Decision) -> str:
    kind = d.kind.value
    if kind == "duck_back" and "emergency_stop" in d.keys:
        kind = "emergency_stop"
    dk = default_key(d)
    tail = f" Space: {dk}." if dk else ""
    if kind == "order_target" and any(k.startswith("turn_") for k in d.keys):
        return "Click a T-marked hex beside the vehicle, or a button (C2 31.6)." + tail
    hints = {
        "play_card": "Click a card in your hand (or a button, or its number key).",
        "discard": "Click the card to discard.",
        "give_order": "Click an order (number keys work too).",
        "order_direction": "Click a direction on the rose, or a hex on the map in that direction.",
        "order_target": "Click a ringed hex or target on the map, or a button.",
        "fire_target": "Click a ringed target on the map, or a button.",
        "card_effect": "Click a character on the map, or a button.",
        "may_move": "Move this Impulse, or stay.",
        "duck_back": "Duck Back now (7.19)?",
        "emergency_stop": "Emergency Stop now (C2 31.2)? Its button or E.",
        "initiative_swap": "Choose a swap.",
    }
    return hints.get(kind, "") + tail


def _rose_buttons(area: pygame.Rect, game: Game, d: Decision) -> list[OptionButton]:
    """The 6 directions and 12 pairs as buttons around a rose, turned as the Direction Counter reads."""
    actor = game.state.characters.get(d.actor) if d.actor else None
    rot = order_rotation(game, actor) if actor is not None else 0
    rot = rot or 0
    cx, cy = area.center
    radius = max(40, min(area.width, area.height) // 2 - 22)
    out = []
    keys = set(d.keys)
    for k in d.keys:
        if "/" in k:
            a, b = (int(x) for x in k.split("/"))
            ma, mb = map_direction(rot, a), map_direction(rot, b)
            ang_a = -90 + 60 * (ma - 1)
            ang_b = -90 + 60 * (mb - 1)
            diff = ((ang_b - ang_a + 180) % 360) - 180
            # "a/b" sits on a's side of the gap between a and b, "b/a" on b's side
            ang = ang_a + diff * 0.5 - math.copysign(15, diff)
            rr = radius
            w, h = 40, 20
        else:
            m = map_direction(rot, int(k))
            ang = -90 + 60 * (m - 1)
            rr = radius * 0.52
            w, h = 34, 30
        x = cx + math.cos(math.radians(ang)) * rr
        y = cy + math.sin(math.radians(ang)) * rr
        r = pygame.Rect(0, 0, w, h)
        r.center = (round(x), round(y))
        out.append(OptionButton(k, r, (k,), int(k) if "/" not in k and k in keys else None))
    return out


def draw_decision(
    surface: pygame.Surface,
    rect: pygame.Rect,
    game: Game,
    fonts: Fonts,
    ui: UiState,
    fog: Fog,
    layout: DecisionLayout,
) -> None:
    """The decision panel: prompt, actor, options as buttons (or the direction rose), toolbar."""
    pygame.draw.rect(surface, theme.PANEL, rect)
    pygame.draw.rect(surface, theme.PANEL_EDGE, rect, 1)
    d = game.pending
    title = "Your decision" if d is not None else "The game is over"
    if d is not None:
        title += f" · {d.kind.value.replace('_', ' ')}"
    if ui.reviewing:
        title = "REVIEW (read-only) · " + title
    surface.blit(fonts.text(title, TITLE_SIZE, theme.PANEL_TITLE, bold=True), (rect.x + PAD, rect.y + 5))
    y = layout.header_y
    for i, text in enumerate(layout.header):
        size = TEXT_SIZE if i == 0 else SMALL_SIZE
        colour = (
            theme.PANEL_TITLE
            if i == 0
            else theme.TEXT_DIM
            if i == len(layout.header) - 1 and d
            else theme.TEXT
        )
        for line in fonts.wrap(text, size, rect.width - 2 * PAD, bold=i == 0):
            surface.blit(fonts.text(line, size, colour, bold=i == 0), (rect.x + PAD, y))
            y += 17
    old = surface.get_clip()
    surface.set_clip(layout.options_area.inflate(4, 4).clip(rect))
    if layout.rose:
        cx, cy = layout.options_area.center
        radius = max(40, min(layout.options_area.width, layout.options_area.height) // 2 - 22)
        pygame.draw.circle(surface, theme.shade(theme.PANEL, 14), (cx, cy), radius + 6)
        pygame.draw.circle(surface, theme.PANEL_EDGE, (cx, cy), radius + 6, 1)
        for b in layout.buttons:
            if "/" not in b.key:
                pygame.draw.line(surface, theme.PANEL_EDGE, (cx, cy), b.rect.center, 2)
        pygame.draw.circle(surface, theme.ACTOR, (cx, cy), 6)
    for b in layout.buttons:
        hover = b.rect.collidepoint(ui.mouse)
        bg = theme.BUTTON_HOVER if hover else theme.BUTTON
        if b.key == "emergency_stop":  # C2 31.2: the Driver's Emergency Stop stands out
            bg = theme.shade(theme.EMERGENCY, 24) if hover else theme.EMERGENCY
        pygame.draw.rect(surface, bg, b.rect, border_radius=5)
        pygame.draw.rect(surface, theme.BUTTON_EDGE, b.rect, 1, border_radius=5)
        if layout.rose:
            t = fonts.text(b.lines[0], TEXT_SIZE if "/" in b.key else 17, theme.BUTTON_TEXT, bold=True)
            surface.blit(t, t.get_rect(center=b.rect.center))
            continue
        yy = b.rect.y + 4
        strong = b.key == "emergency_stop"
        for line in b.lines:
            t = fonts.text(line, SMALL_SIZE, theme.BUTTON_TEXT, bold=strong, condensed=True)
            surface.blit(t, (b.rect.x + 5, yy))
            yy += 15
    surface.set_clip(old)
    if layout.content_height > layout.options_area.height and not layout.rose:
        more = fonts.text("scroll for more options", 11, theme.TEXT_DIM)
        surface.blit(more, more.get_rect(bottomright=(rect.right - PAD, layout.options_area.bottom + 8)))
    on = {
        "labels": ui.labels,
        "rolls": ui.show_rolls,
        "fog": not ui.fog,
        "sandbox": ui.sandbox,
        "duck": ui.standing.duck_back is not DuckBackChoice.ASK,
        "carry": ui.standing.carry_on,
        "defaults": ui.standing.rules_defaults,
    }
    for hs in layout.tools:
        name = hs.action[1]
        enabled = d is not None or name not in ("default", "auto", "branch")
        bg = theme.AUTO_BUTTON if name == "auto" else theme.BUTTON
        if on.get(name):
            bg = theme.shade(bg, 40)
        if hs.rect.collidepoint(ui.mouse) and enabled:
            bg = theme.shade(bg, 24)
        pygame.draw.rect(surface, bg, hs.rect, border_radius=5)
        pygame.draw.rect(surface, theme.BUTTON_EDGE, hs.rect, 1, border_radius=5)
        cap = fonts.first_fitting(short_forms(hs.label), SMALL_SIZE, hs.rect.width - 6, condensed=True)
        t = fonts.text(cap, SMALL_SIZE, theme.BUTTON_TEXT if enabled else theme.TEXT_DIM, condensed=True)
        surface.blit(t, t.get_rect(center=hs.rect.center))
