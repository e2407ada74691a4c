"""Everything around the map: top bar and Initiative Track, hand, Enemy cards, decision panel, log.

Each panel has a *layout* function (rectangles and hotspots, no drawing) and a
*draw* function (surface + read-only game). The controller hit-tests with the
same layout functions, so what is drawn is what is clicked.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import attrs
import pygame

from solo.render import theme
from solo.render.board import order_abbrev, team_colour
from solo.render.choices import default_key, map_direction, order_rotation
from solo.render.logview import Fog, LogLine, log_lines
from solo.render.vehicle_view import HATCH_TEXT, position_label
from solo.render.view import Hotspot
from solo.rules.state import Phase, Side
from solo.rules.vehicles.state import vehicle_of

if TYPE_CHECKING:
    from solo.engine.game import Decision, Game
    from solo.render.theme import Fonts
    from solo.rules.state import Character

PAD = 8
TEXT_SIZE = 14
SMALL_SIZE = 12
TITLE_SIZE = 15

PHASE_NAMES = {
    Phase.SETUP: "Set-up",
    Phase.FRIENDLY_CARD: "Friendly Card Phase (Step 1)",
    Phase.FRIENDLY_ORDER: "Friendly Order Phase (Step 2)",
    Phase.ENEMY_CARD_ORDER: "Enemy Card and Order Phase (Step 3)",
    Phase.ACTION: "Action Phase (Step 4)",
    Phase.END: "End Phase (Step 5)",
    Phase.OVER: "Game over",
}

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
)
"""Toolbar buttons of the decision panel: (name, caption)."""

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


def tools_for(ui: UiState) -> tuple[tuple[str, str], ...]:
    """The toolbar's (name, caption) now: :data:`REVIEW_TOOLS` in review mode, else :data:`TOOLS`
    (the Sandbox toggle's caption says whether it is on)."""
    if ui.reviewing:
        return REVIEW_TOOLS
    return tuple((n, "Sandbox undo: ON" if n == "sandbox" and ui.sandbox else c) for n, c in TOOLS)


@attrs.define
class UiState:
    """What the window remembers between frames; nothing of the game itself."""

    selected: str | None = None
    """The selected character (LOS origin and log filter)."""
    hover_hex: object = None
    mouse: tuple[int, int] = (0, 0)
    labels: bool = False
    show_rolls: bool = False
    fog: bool = True
    log_scroll: int = 0
    """Log lines scrolled up from the newest."""
    option_scroll: int = 0
    toast: str = ""
    toast_until: float = 0.0
    status: str = ""
    """A line under the map: the LOS caption or a hint."""
    show_vehicles: bool = True
    """The vehicle displays are shown above the log (key V)."""
    vehicle_tab: str | None = None
    """The vehicle whose display is shown (tabs, when the displays do not all fit) and ringed on the map."""
    sandbox: bool = False
    """Sandbox undo: undo may go back past new information (the log is then marked sandbox)."""
    reviewing: bool = False
    """Review mode (H): the game shown is a past point of the live game, read-only."""


# ---------------------------------------------------------------------------
# Top bar: turn, phase, impulse, Initiative Track


def draw_top(surface: pygame.Surface, rect: pygame.Rect, game: Game, fonts: Fonts) -> None:
    """Scenario, turn, phase and impulse at the left; the Initiative Track (0-99) at the right."""
    st = game.state
    fl = st.flow
    pygame.draw.rect(surface, theme.PANEL, rect)
    pygame.draw.line(surface, theme.PANEL_EDGE, rect.bottomleft, (rect.right, rect.bottom - 1))
    x = rect.x + PAD
    t = fonts.text(game.scenario.name, 17, theme.PANEL_TITLE, bold=True)
    surface.blit(t, (x, rect.y + 6))
    turn = f"Turn {fl.turn} of {game.scenario.turns}" if fl.turn else "Set-up"
    t2 = fonts.text(f"{turn} · {PHASE_NAMES.get(fl.phase, fl.phase.value)}", TEXT_SIZE, theme.TEXT)
    surface.blit(t2, (x, rect.y + 30))
    # impulse boxes
    bx = x
    by = rect.y + 50
    lab = fonts.text("Impulse", SMALL_SIZE, theme.TEXT_DIM)
    surface.blit(lab, (bx, by))
    bx += lab.get_width() + 6
    for i in (1, 2, 3, 4):
        r = pygame.Rect(bx, by, 20, 16)
        on = fl.impulse == i
        pygame.draw.rect(surface, theme.ACTIVE if on else theme.BUTTON, r, border_radius=3)
        n = fonts.text(str(i), SMALL_SIZE, (10, 10, 10) if on else theme.TEXT, bold=on)
        surface.blit(n, n.get_rect(center=r.center))
        bx += 24
    vp = st.vp
    info = f"Weather {st.weather} · wind {st.wind} · VP Friendly {vp.get('friendly', 0)}"
    info += f", Enemy {vp.get('enemy', 0)}"
    if game.scenario.night:
        info += " · night"
    t3 = fonts.text(info, SMALL_SIZE, theme.TEXT_DIM)
    surface.blit(t3, (bx + 10, by + 1))
    left_w = max(t.get_width(), t2.get_width(), bx + 10 + t3.get_width() - x) + 3 * PAD
    track = pygame.Rect(rect.x + left_w, rect.y, rect.right - rect.x - left_w, rect.height)
    draw_track(surface, track, game, fonts)


def draw_track(surface: pygame.Surface, rect: pygame.Rect, game: Game, fonts: Fonts) -> None:
    """The Initiative Track: a 0-99 scale with a marker per team at its initiative (base-rules §2)."""
    st = game.state
    title = fonts.text("Initiative Track", SMALL_SIZE, theme.TEXT_DIM, bold=True)
    y = rect.y + 50
    surface.blit(title, title.get_rect(midleft=(rect.x + 8, y)))
    x0, x1 = rect.x + 8 + title.get_width() + 20, rect.right - 24
    if x1 - x0 < 100:
        return
    pygame.draw.line(surface, theme.TEXT_DIM, (x0, y), (x1, y), 2)
    for v in range(0, 100, 10):
        px = x0 + (x1 - x0) * v / 99
        pygame.draw.line(surface, theme.TEXT_DIM, (px, y - 3), (px, y + 3), 1)
        n = fonts.text(str(v), 10, theme.TEXT_DIM)
        surface.blit(n, n.get_rect(midtop=(px, y + 5)))
    order = {t: i for i, t in enumerate(st.flow.track)}
    teams = [t for t in st.teams.values() if t.initiative is not None]
    teams.sort(key=lambda t: (t.initiative, order.get(t.id, 99)))
    labels = []
    for team in teams:
        px = x0 + (x1 - x0) * team.initiative / 99
        colour = team_colour(game, team.id)
        label = f"{team.name} {team.initiative:02d}"
        if team.id in order and st.flow.phase in (Phase.ACTION, Phase.END):
            label = f"{order[team.id] + 1}. {label}"
        t = fonts.text(label, SMALL_SIZE, theme.text_on(colour), bold=True, condensed=True)
        labels.append((team, px, colour, t))
    rects = spread_labels(
        [(px, t.get_width() + 8) for _team, px, _c, t in labels], rect.x + 4, rect.right - 4
    )
    for (team, px, colour, t), (left, width) in zip(labels, rects, strict=True):
        r = pygame.Rect(round(left), y - 26, round(width), t.get_height() + 2)
        pygame.draw.line(surface, colour, (r.centerx, r.bottom), (px, y), 2)
        pygame.draw.circle(surface, colour, (px, y), 4)
        pygame.draw.rect(surface, colour, r, border_radius=4)
        active = st.flow.active_team == team.id
        pygame.draw.rect(
            surface, theme.ACTIVE if active else (20, 20, 20), r, 2 if active else 1, border_radius=4
        )
        surface.blit(t, t.get_rect(center=r.center))


def spread_labels(
    items: list[tuple[float, float]], lo: float, hi: float, gap: float = 4
) -> list[tuple[float, float]]:
    """Left edges for labels of (ideal centre, width), in order, without overlaps, inside ``lo..hi``."""
    lefts = []
    prev_right = lo - gap
    for centre, width in items:
        left = max(centre - width / 2, prev_right + gap)
        lefts.append(left)
        prev_right = left + width
    next_left = hi + gap
    for i in range(len(items) - 1, -1, -1):
        width = items[i][1]
        lefts[i] = min(lefts[i], next_left - gap - width)
        next_left = lefts[i]
    return [(left, w) for left, (_c, w) in zip(lefts, items, strict=True)]


# ---------------------------------------------------------------------------
# The Friendly hand


def hand_layout(rect: pygame.Rect, game: Game) -> list[tuple[str, pygame.Rect]]:
    """(card id, rectangle) of each card in the Friendly hand, left to right."""
    hand = list(game.state.cards.hand)
    n = max(len(hand), 5)
    top = rect.y + 26
    h = rect.bottom - top - PAD
    w = min(210, (rect.width - PAD * (n + 1)) // n)
    return [(cid, pygame.Rect(rect.x + PAD + i * (w + PAD), top, w, h)) for i, cid in enumerate(hand)]


def _card_clickable(game: Game) -> bool:
    d = game.pending
    return d is not None and d.kind.value in ("play_card", "discard")


def draw_hand(surface: pygame.Surface, rect: pygame.Rect, game: Game, fonts: Fonts, ui: UiState) -> None:
    """The Friendly hand: id, title, initiatives (Able/Baker/Charlie) and card text (base-rules §18)."""
    pygame.draw.rect(surface, theme.PANEL, rect)
    pygame.draw.rect(surface, theme.PANEL_EDGE, rect, 1)
    cards = game.state.cards
    title = f"Your hand ({len(cards.hand)})"
    if cards.played:
        c = game.data.friendly_deck.card(cards.played)
        title += f" · on the track: {c.id} {c.title}"
    if cards.plan:
        title += f" · Plan: {', '.join(cards.plan)}"
    clickable = _card_clickable(game)
    if clickable:
        title += " · click a card to " + (
            "play it" if game.pending.kind.value == "play_card" else "discard it"
        )
    surface.blit(
        fonts.text(
            fonts.fit(title, TITLE_SIZE, rect.width - 2 * PAD), TITLE_SIZE, theme.PANEL_TITLE, bold=True
        ),
        (rect.x + PAD, rect.y + 5),
    )
    for i, (cid, r) in enumerate(hand_layout(rect, game)):
        hover = r.collidepoint(ui.mouse)
        draw_card(
            surface,
            r,
            game,
            cid,
            fonts,
            highlight=clickable,
            hover=hover,
            number=i + 1 if clickable else None,
        )


def draw_card(
    surface: pygame.Surface,
    r: pygame.Rect,
    game: Game,
    card_id: str,
    fonts: Fonts,
    *,
    highlight: bool = False,
    hover: bool = False,
    number: int | None = None,
) -> None:
    """One Friendly card in ``r``."""
    card = game.data.friendly_deck.card(card_id)
    pygame.draw.rect(surface, theme.shade(theme.CARD, 10) if hover else theme.CARD, r, border_radius=6)
    edge = theme.CARD_HILITE if highlight else theme.CARD_EDGE
    pygame.draw.rect(surface, edge, r, 3 if (highlight and hover) else 2 if highlight else 1, border_radius=6)
    x, y = r.x + 6, r.y + 4
    head = f"{card.id} · {card.kind.value.replace('_', ' ')}"
    if number is not None:
        head = f"[{number}] {head}"
    surface.blit(fonts.text(fonts.fit(head, SMALL_SIZE, r.width - 12), SMALL_SIZE, (90, 80, 60)), (x, y))
    y += 15
    for line in fonts.wrap(card.title, TEXT_SIZE, r.width - 12, bold=True)[:2]:
        surface.blit(fonts.text(line, TEXT_SIZE, theme.CARD_TEXT, bold=True), (x, y))
        y += 17
    if card.initiatives is not None:
        bw = (r.width - 12 - 8) // 3
        for j, (team, v) in enumerate(
            zip(("able", "baker", "charlie"), card.initiatives.as_tuple(), strict=True)
        ):
            col = theme.FRIENDLY_TEAM_COLOURS[team]
            br = pygame.Rect(x + j * (bw + 4), y, bw, 22)
            pygame.draw.rect(surface, col, br, border_radius=4)
            text = f"{team[0].upper()} {v:02d}"
            if fonts.width(text, TEXT_SIZE, bold=True) > bw - 4:
                text = f"{v:02d}"
            t = fonts.text(text, TEXT_SIZE, theme.text_on(col), bold=True)
            surface.blit(t, t.get_rect(center=br.center))
        y += 26
    lines = fonts.wrap(card.text, SMALL_SIZE, r.width - 12, condensed=True)
    room = max(0, (r.bottom - 4 - y) // 14)
    for k, line in enumerate(lines[:room]):
        if k == room - 1 and len(lines) > room:
            line = fonts.fit(line + " …", SMALL_SIZE, r.width - 12, condensed=True)
        surface.blit(fonts.text(line, SMALL_SIZE, theme.CARD_TEXT, condensed=True), (x, y))
        y += 14


# ---------------------------------------------------------------------------
# The Enemy cards drawn this turn


def enemy_card_lines(game: Game, fog: Fog) -> list[str]:
    """One line per Enemy card drawn this turn: team initiative cards, then each man's card (9.1)."""
    out = []
    st = game.state
    for key, card_id in st.cards.enemy_this_turn.items():
        card = game.data.enemy_deck.card(card_id)
        if key.startswith("team:"):
            team = st.teams.get(key[5:])
            name = team.name if team else key[5:]
            out.append(f"{card.id} ({card.initiative:02d}) · {name} initiative")
            continue
        cid, _, extra = key.partition("#")
        ch = st.characters.get(cid)
        if ch is None:
            who = cid
        elif cid in fog.hidden_ids:
            who = f"Unknown enemy at {ch.hex}" if ch.hex else "Unknown enemy"
        else:
            who = ch.name
        order = ""
        if ch is not None and ch.order is not None and not extra:
            oid = ch.order.order
            crewman = getattr(ch, "vehicle", None) is not None and oid in game.data.orders
            order = f" → {game.data.orders.get(oid).name if crewman else order_abbrev(game, oid)}"
            if ch.order.directions:
                order += f" {ch.order.directions}"
        out.append(f"{card.id} ({card.initiative:02d}) · {who}{' (again)' if extra else ''}{order}")
    return out


def draw_enemy_cards(surface: pygame.Surface, rect: pygame.Rect, game: Game, fonts: Fonts, fog: Fog) -> None:
    """The Enemy Order cards drawn this turn, with the order each gave (base-rules §5, 9.1)."""
    pygame.draw.rect(surface, theme.PANEL, rect)
    pygame.draw.rect(surface, theme.PANEL_EDGE, rect, 1)
    surface.blit(
        fonts.text("Enemy cards this turn", TITLE_SIZE, theme.PANEL_TITLE, bold=True),
        (rect.x + PAD, rect.y + 5),
    )
    lines = enemy_card_lines(game, fog)
    y = rect.y + 28
    if not lines:
        surface.blit(fonts.text("none drawn yet", SMALL_SIZE, theme.TEXT_DIM), (rect.x + PAD, y))
        return
    cols = 1 if len(lines) * 16 <= rect.height - 34 else 2
    col_w = (rect.width - PAD * (cols + 1)) // cols
    per_col = max(1, (rect.bottom - y - 4) // 16)
    for i, line in enumerate(lines[: per_col * cols]):
        c, rrow = divmod(i, per_col)
        x = rect.x + PAD + c * (col_w + PAD)
        chip = pygame.Rect(x, y + rrow * 16, col_w, 15)
        pygame.draw.rect(surface, theme.ENEMY_CARD, chip, border_radius=3)
        t = fonts.text(
            fonts.fit(line, SMALL_SIZE, col_w - 6, condensed=True),
            SMALL_SIZE,
            theme.CARD_TEXT,
            condensed=True,
        )
        surface.blit(t, (chip.x + 3, chip.y))
    if len(lines) > per_col * cols:
        more = fonts.text(f"+{len(lines) - per_col * cols} more", SMALL_SIZE, theme.TEXT_DIM)
        surface.blit(more, more.get_rect(topright=(rect.right - PAD, rect.y + 7)))


# ---------------------------------------------------------------------------
# The decision panel


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


def number_keys(decision: Decision) -> dict[int, str]:
    """Number key (1-9, 10 for 0) → option key; direction decisions map digit d to direction d."""
    if decision.kind.value == "order_direction":
        return {int(k): k for k in decision.keys if "/" not in k}
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

        header = ["Game over.", *summary(game).splitlines()]
    else:
        header.append(fog.clean(d.prompt))
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
        n = len(d.options)
        cols = 1 if n <= 7 else 2 if n <= 24 else 3
        col_w = (area.width - PAD * (cols - 1)) // cols
        rows_h: list[int] = []
        cells = []
        for i, opt in enumerate(d.options):
            num = nums.get(opt.key)
            label = fog.clean(opt.label)
            if num is not None:
                label = f"{num % 10}. {label}"
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
    on = {"labels": ui.labels, "rolls": ui.show_rolls, "fog": not ui.fog, "sandbox": ui.sandbox}
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
        cap = fonts.fit(hs.label, SMALL_SIZE, hs.rect.width - 6, condensed=True)
        t = fonts.text(cap, SMALL_SIZE, theme.BUTTON_TEXT if enabled else theme.TEXT_DIM, condensed=True)
        surface.blit(t, t.get_rect(center=hs.rect.center))


# ---------------------------------------------------------------------------
# The log panel


class LogPanel:
    """The log panel: events as sentences with rule numbers, filterable by unit, scrollable.

    Wrapped lines are cached per event and width, so a long game scrolls cheaply.
    """

    LINE_H = 15

    def __init__(self) -> None:
        self._wrapped: dict[tuple[int, str, int], list[str]] = {}
        self._lines_key: tuple = ()
        self._lines: list[LogLine] = []

    def lines(self, game: Game, fog: Fog, ui: UiState) -> list[LogLine]:
        """The log lines shown now (cached until the game or the filter changes)."""
        key = (id(game), len(game.events), ui.selected, ui.show_rolls, fog.enabled, fog.hidden_ids)
        if key != self._lines_key:
            self._lines = log_lines(game, fog, unit=ui.selected, show_rolls=ui.show_rolls)
            self._lines_key = key
        return self._lines

    def header_hotspots(self, rect: pygame.Rect, ui: UiState) -> list[Hotspot]:
        """The "show all" button when the log is filtered by a unit."""
        if ui.selected is None:
            return []
        r = pygame.Rect(rect.right - PAD - 90, rect.y + 4, 90, 20)
        return [Hotspot(r, ("log", "clear_filter"), "Show all (Esc)")]

    def rows(
        self, game: Game, fog: Fog, ui: UiState, fonts: Fonts, width: int
    ) -> list[tuple[str, theme.Colour, bool]]:
        """Every wrapped row: (text, colour, first row of its event)."""
        out = []
        for ln in self.lines(game, fog, ui):
            key = (ln.seq, ln.text, width)
            wrapped = self._wrapped.get(key)
            if wrapped is None:
                if len(self._wrapped) > 20000:
                    self._wrapped.clear()
                wrapped = fonts.wrap(f"{ln.when}  {ln.sentence}", SMALL_SIZE, width, condensed=True)
                self._wrapped[key] = wrapped
            colour = theme.LOG_COLOURS.get(ln.kind, theme.TEXT)
            for i, w in enumerate(wrapped):
                out.append((w, colour, i == 0))
        return out

    def draw(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        game: Game,
        fonts: Fonts,
        ui: UiState,
        fog: Fog,
        *,
        note: str = "",
    ) -> None:
        """Draw the newest rows at the bottom, ``ui.log_scroll`` rows up; ``note`` ends the title."""
        pygame.draw.rect(surface, theme.PANEL, rect)
        pygame.draw.rect(surface, theme.PANEL_EDGE, rect, 1)
        if ui.selected is not None:
            ch = game.state.characters.get(ui.selected)
            who = "Unknown enemy" if ui.selected in fog.hidden_ids else (ch.name if ch else ui.selected)
            title = f"Log · {who}"
        else:
            title = "Log · all units (click a unit to filter)"
        if not fog.enabled:
            title += " · hidden info shown"
        if note:
            title += f" · {note}"
        surface.blit(
            fonts.text(
                fonts.fit(title, TITLE_SIZE, rect.width - 120), TITLE_SIZE, theme.PANEL_TITLE, bold=True
            ),
            (rect.x + PAD, rect.y + 5),
        )
        for hs in self.header_hotspots(rect, ui):
            pygame.draw.rect(surface, theme.BUTTON, hs.rect, border_radius=4)
            t = fonts.text(hs.label, 11, theme.BUTTON_TEXT, condensed=True)
            surface.blit(t, t.get_rect(center=hs.rect.center))
        body = pygame.Rect(rect.x + PAD, rect.y + 28, rect.width - 2 * PAD, rect.height - 34)
        rows = self.rows(game, fog, ui, fonts, body.width - 4)
        visible = max(1, body.height // self.LINE_H)
        max_scroll = max(0, len(rows) - visible)
        ui.log_scroll = max(0, min(ui.log_scroll, max_scroll))
        end = len(rows) - ui.log_scroll
        start = max(0, end - visible)
        y = body.y
        for text, colour, _first in rows[start:end]:
            surface.blit(fonts.text(text, SMALL_SIZE, colour, condensed=True), (body.x, y))
            y += self.LINE_H
        if ui.log_scroll:
            t = fonts.text(f"↓ {ui.log_scroll} newer rows (wheel down, End)", 11, theme.ACTIVE)
            surface.blit(t, t.get_rect(bottomright=(rect.right - PAD, rect.bottom - 2)))


# ---------------------------------------------------------------------------
# Tooltip, status line and toast


def draw_tooltip(
    surface: pygame.Surface, pos: tuple[int, int], lines: list[str], fonts: Fonts, bounds: pygame.Rect
) -> None:
    """A box of text lines near ``pos``, kept inside ``bounds``."""
    if not lines:
        return
    width = 380
    rows: list[str] = []
    for line in lines:
        rows.extend(fonts.wrap(line, SMALL_SIZE, width - 12, condensed=True))
    w = min(width, max(fonts.width(r, SMALL_SIZE, condensed=True) for r in rows) + 12)
    r = pygame.Rect(pos[0] + 18, pos[1] + 18, w, 15 * len(rows) + 8)
    r.clamp_ip(bounds)
    pygame.draw.rect(surface, (250, 248, 236), r, border_radius=4)
    pygame.draw.rect(surface, (60, 60, 60), r, 1, border_radius=4)
    y = r.y + 4
    for row in rows:
        surface.blit(fonts.text(row, SMALL_SIZE, (20, 20, 20), condensed=True), (r.x + 6, y))
        y += 15


def draw_status(surface: pygame.Surface, rect: pygame.Rect, text: str, fonts: Fonts) -> None:
    """A line of text at the bottom of the map (LOS caption, hints)."""
    if not text:
        return
    t = fonts.text(fonts.fit(text, TEXT_SIZE, rect.width - 20), TEXT_SIZE, (255, 255, 255))
    r = t.get_rect(bottomleft=(rect.x + 8, rect.bottom - 6)).inflate(10, 4)
    pygame.draw.rect(surface, (0, 0, 0), r, border_radius=4)
    surface.blit(t, t.get_rect(center=r.center))


def draw_toast(surface: pygame.Surface, rect: pygame.Rect, text: str, fonts: Fonts) -> None:
    """A message at the top of the map for a few seconds (saved, errors)."""
    if not text:
        return
    t = fonts.text(fonts.fit(text, TEXT_SIZE, rect.width - 40), TEXT_SIZE, (255, 255, 255), bold=True)
    r = t.get_rect(midtop=(rect.centerx, rect.y + 10)).inflate(20, 10)
    pygame.draw.rect(surface, theme.TOAST, r, border_radius=6)
    pygame.draw.rect(surface, theme.ACTIVE, r, 1, border_radius=6)
    surface.blit(t, t.get_rect(center=r.center))


def draw_legend(surface: pygame.Surface, rect: pygame.Rect, fonts: Fonts, *, vehicles: bool = False) -> None:
    """A small key in the map's top-left corner: counters' frames and markers (Target Markers too
    when ``vehicles``)."""
    items = [
        (theme.SPOTTED_FRAME, "Spotted (red frame)"),
        (theme.UNKNOWN_BODY, "? Unknown enemy"),
        (theme.ORDER_BADGE, "order marker"),
        (theme.ACTOR, "decision's man"),
        (theme.TARGET_HINT, "choosable target"),
    ]
    if vehicles:
        items.append((theme.MARKER_COLOURS["enemy"], "Enemy Target Marker"))
        items.append((theme.MARKER_COLOURS["friendly"], "Friendly Target Marker"))
    x, y = rect.x + 6, rect.y + 6
    box = pygame.Rect(x, y, 150, 15 * len(items) + 6)
    s = pygame.Surface(box.size, pygame.SRCALPHA)
    s.fill((20, 20, 20, 150))
    surface.blit(s, box.topleft)
    for i, (c, label) in enumerate(items):
        pygame.draw.rect(surface, c, (x + 4, y + 5 + 15 * i, 10, 10))
        surface.blit(fonts.text(label, 11, (240, 240, 240), condensed=True), (x + 18, y + 3 + 15 * i))
