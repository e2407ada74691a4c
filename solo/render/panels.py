"""Everything around the map but the decision panel: the window's :class:`UiState`, top bar and
Initiative Track (base-rules §2), the Friendly hand (§18), the Enemy cards drawn this turn (§5, 9.1),
the log, tooltip, status line, toast and legend.

Each panel has a *layout* function (rectangles and hotspots, no drawing) and a
*draw* function (surface + read-only game). The controller hit-tests with the
same layout functions, so what is drawn is what is clicked. The decision panel
and its toolbar are :mod:`solo.render.decision_panel`.

May import: :mod:`solo.render.counter_marks`, :mod:`solo.render.logview`, the view
and the theme, ``solo.rules`` and lower rooms (never the decision panel, which
imports this module's :class:`UiState` and text sizes).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import attrs
import pygame

from solo.playtest.standing import StandingChoices
from solo.render import theme
from solo.render.counter_marks import order_abbrev, team_colour
from solo.render.logview import Fog, LogLine, log_lines
from solo.render.view import Hotspot
from solo.render.words import word
from solo.rules.state import Phase, Side

if TYPE_CHECKING:
    from solo.engine.game import Game
    from solo.render.theme import Fonts

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
    fanned: object = None
    """The hex whose stack of counters is fanned out under the mouse (a Hex), or None."""
    standing: StandingChoices = attrs.field(factory=StandingChoices)
    """The player's standing choices (solo.playtest.standing): his settings, kept across games."""


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
    info = f"Weather {word(st.weather)} · wind {st.wind} · VP Friendly {vp.get('friendly', 0)}"
    info += f", Enemy {vp.get('enemy', 0)}"
    if game.scenario.night:
        info += " · night"
    t3 = fonts.text(info, SMALL_SIZE, theme.TEXT_DIM)
    surface.blit(t3, (bx + 10, by + 1))
    left_w = max(t.get_width(), t2.get_width(), bx + 10 + t3.get_width() - x) + 3 * PAD
    track = pygame.Rect(rect.x + left_w, rect.y, rect.right - rect.x - left_w, rect.height)
    draw_track(surface, track, game, fonts)


def track_teams(game: Game) -> list:
    """The teams whose initiative is this turn's, to show on the Initiative Track (base-rules §1-2).

    The track is cleared at the turn's start: during the Friendly Card and Order Phases
    (Steps 1-2) only the Friendly teams show, once this turn's card is played; the Enemy's
    values come with its cards in Step 3. At set-up nothing shows. (The engine keeps last turn's
    numbers until they are replaced; only the picture is cleared.)
    """
    st = game.state
    phase = st.flow.phase
    teams = [t for t in st.teams.values() if t.initiative is not None]
    if phase is Phase.SETUP:
        return []
    if phase in (Phase.FRIENDLY_CARD, Phase.FRIENDLY_ORDER):
        if st.cards.played is None:
            return []
        return [t for t in teams if t.side is Side.FRIENDLY]
    return teams


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
    teams = track_teams(game)
    if not teams and st.flow.phase is not Phase.SETUP:
        note = fonts.text("cleared: this turn's cards are not played yet", SMALL_SIZE, theme.TEXT_DIM)
        surface.blit(note, note.get_rect(midleft=(x0 + 8, y - 16)))
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
    kind = card.kind.value.replace("_", " ")
    head = kind if "_" in card.id else f"{card.id} · {kind}"  # an event card's id is its kind
    if number is not None:
        head = f"[{number}] {head}"
    surface.blit(fonts.text(fonts.fit(head, SMALL_SIZE, r.width - 12), SMALL_SIZE, (90, 80, 60)), (x, y))
    y += 15
    # the title whole on two lines at most: bold, else condensed, else smaller (never cut)
    for size, condensed in ((TEXT_SIZE, False), (TEXT_SIZE, True), (SMALL_SIZE, True)):
        title = fonts.wrap(card.title, size, r.width - 12, bold=True, condensed=condensed)
        if len(title) <= 2:
            break
    for line in title[:3]:
        surface.blit(fonts.text(line, size, theme.CARD_TEXT, bold=True, condensed=condensed), (x, y))
        y += size + 3
    if card.initiatives is not None:
        bw = (r.width - 12 - 8) // 3
        for j, (team, v) in enumerate(
            zip(("able", "baker", "charlie"), card.initiatives.as_tuple(), strict=True)
        ):
            col = theme.FRIENDLY_TEAM_COLOURS[team]
            br = pygame.Rect(x + j * (bw + 4), y, bw, 22)
            pygame.draw.rect(surface, col, br, border_radius=4)
            text = f"{team[0].upper()} {v:02d}"  # the team letter stays: smaller type before it goes
            size = TEXT_SIZE if fonts.width(text, TEXT_SIZE, bold=True) <= bw - 4 else SMALL_SIZE
            if fonts.width(text, size, bold=True, condensed=True) > bw - 4:
                text = f"{team[0].upper()}{v:02d}"
            t = fonts.text(text, size, theme.text_on(col), bold=True, condensed=size != TEXT_SIZE)
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
            fonts.first_fitting(card_line_forms(line), SMALL_SIZE, col_w - 6, condensed=True),
            SMALL_SIZE,
            theme.CARD_TEXT,
            condensed=True,
        )
        surface.blit(t, (chip.x + 3, chip.y))
    if len(lines) > per_col * cols:
        more = fonts.text(f"+{len(lines) - per_col * cols} more", SMALL_SIZE, theme.TEXT_DIM)
        surface.blit(more, more.get_rect(topright=(rect.right - PAD, rect.y + 7)))


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
        tail = (" · hidden info shown" if not fog.enabled else "") + (f" · {note}" if note else "")
        short = title.replace(" (click a unit to filter)", "")
        forms = (title + tail, short + tail, short)
        surface.blit(
            fonts.text(
                fonts.first_fitting(forms, TITLE_SIZE, rect.width - 120, bold=True),
                TITLE_SIZE,
                theme.PANEL_TITLE,
                bold=True,
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
    t = fonts.text(
        fonts.first_fitting(dot_forms(text), TEXT_SIZE, rect.width - 20), TEXT_SIZE, (255, 255, 255)
    )
    r = t.get_rect(bottomleft=(rect.x + 8, rect.bottom - 6)).inflate(10, 4)
    pygame.draw.rect(surface, (0, 0, 0), r, border_radius=4)
    surface.blit(t, t.get_rect(center=r.center))


def dot_forms(text: str) -> tuple[str, ...]:
    """``text`` and its shorter forms: its `` · ``-separated parts dropped from the end, one by one
    (the review line keeps its point and loses its key help first)."""
    parts = text.split(" · ")
    return tuple(" · ".join(parts[:n]) for n in range(len(parts), 0, -1))


def card_line_forms(line: str) -> tuple[str, ...]:
    """An Enemy card line and its shorter forms: without the initiative number, then without
    the men's ranks (``"e16 (79) · Schtz. Roth → Hide"`` → ``"e16 · Roth → Hide"``)."""
    a = re.sub(r"^(\S+) \(\d+\)", r"\1", line)
    b = re.sub(r"\b[A-Z][a-z]*\. ", "", a)
    return (line, a, b)


def draw_toast(surface: pygame.Surface, rect: pygame.Rect, text: str, fonts: Fonts) -> None:
    """A message at the top of the map for a few seconds (saved, errors)."""
    if not text:
        return
    t = fonts.text(fonts.fit(text, TEXT_SIZE, rect.width - 40), TEXT_SIZE, (255, 255, 255), bold=True)
    r = t.get_rect(midtop=(rect.centerx, rect.y + 10)).inflate(20, 10)
    pygame.draw.rect(surface, theme.TOAST, r, border_radius=6)
    pygame.draw.rect(surface, theme.ACTIVE, r, 1, border_radius=6)
    surface.blit(t, t.get_rect(center=r.center))


def map_terrain_keys(game: Game) -> list[tuple[theme.Colour, str, bool]]:
    """(colour, name, is a hexside) of each terrain the map uses, hexes then overlays then hexsides."""
    m = game.board.map
    table = game.data.terrain
    seen: list[str] = []
    for tid in m.terrain.values():
        if tid not in seen:
            seen.append(tid)
    marks: list[str] = []
    for tid in (t for ts in m.overlays.values() for t in ts):
        if tid not in seen and tid not in marks:
            marks.append(tid)
    sides: list[str] = []
    for fid in m.hexsides.values():
        if fid not in sides:
            sides.append(fid)

    def name(tid: str) -> str:
        return table[tid].name if tid in table else tid

    keys = [(theme.terrain_colour(t), name(t), False) for t in seen]
    keys += [(theme.TERRAIN_COLOURS.get(t, theme.TEXT_DIM), name(t), False) for t in marks]
    keys += [(theme.HEXSIDE_COLOURS.get(f, theme.UNKNOWN_TERRAIN), name(f), True) for f in sides]
    if m.roads:
        keys.append((theme.ROAD_FILL, "road", True))
    return keys


def draw_legend(
    surface: pygame.Surface,
    rect: pygame.Rect,
    fonts: Fonts,
    *,
    vehicles: bool = False,
    game: Game | None = None,
) -> None:
    """The legend strip under the map (never over it): counters' frames and markers (Target
    Markers too when ``vehicles``) on the first line, the map's terrain (``game``) on the second."""
    pygame.draw.rect(surface, theme.PANEL, rect)
    pygame.draw.line(surface, theme.PANEL_EDGE, rect.topleft, (rect.right, rect.top))
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
    lines: list[tuple[str, list[tuple[theme.Colour, str, bool]]]] = [
        ("Key", [(c, label, False) for c, label in items])
    ]
    if game is not None:
        lines.append(("Terrain", map_terrain_keys(game)))
    for row, (title, keys) in enumerate(lines):
        y = rect.y + 4 + 18 * row
        x = rect.x + PAD
        t = fonts.text(title, 11, theme.TEXT_DIM, bold=True)
        surface.blit(t, (x, y + 1))
        x += 56
        for c, label, side in keys:
            lab = fonts.text(label, 11, theme.TEXT, condensed=True)
            if x + 18 + lab.get_width() > rect.right - PAD:
                more = fonts.text("…", 11, theme.TEXT_DIM)
                surface.blit(more, (x, y + 1))
                break
            if side:
                pygame.draw.line(surface, c, (x, y + 13), (x + 12, y + 3), 4)
            else:
                pygame.draw.rect(surface, c, (x, y + 3, 12, 12))
                pygame.draw.rect(surface, theme.PANEL_EDGE, (x, y + 3, 12, 12), 1)
            surface.blit(lab, (x + 16, y + 1))
            x += 16 + lab.get_width() + 12
