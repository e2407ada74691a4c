"""Drawing the stage: the Enemy step on the map and in the right column, and the Enemy panel.

* :func:`draw_overlays`: over the map, the step on stage: the path walked (hex by hex), the
  fire line from firer to target with the modified WS and the dice, Target Markers with
  their 31.7.4 priority, and what the step did written on the counter it hit (wound, morale
  check, Duck Back, killed), vehicles' turns and hatches.
* :func:`draw_beat_panel`: in place of the decision panel while the stage plays: who acts,
  his order, the one-line reason, every event of the step, and the keys.
* :func:`enemy_panel_entries` / :func:`draw_enemy_panel`: the Enemy Order cards of the turn and
  what each gave, read from the events, kept until the next Enemy Order Phase (clickable).
* :func:`explanation_lines` / :func:`draw_explanation`: the full explanation of one card: card,
  row, column or VOM cell, checks and overrides, then what the man did with it this turn
  (Target Marker priority, fire dice), with the rule numbers.

Every text goes through the fog (:class:`~solo.render.logview.Fog`): an Unknown enemy's
name and what the table would not show stay hidden.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs
import pygame

from solo.core.events import Event
from solo.core.hexes import Hex
from solo.render import theme
from solo.render.logview import Fog
from solo.render.panels import PAD, SMALL_SIZE, TEXT_SIZE, TITLE_SIZE
from solo.render.stage import CARD_KINDS, Beat, Pace, Stage
from solo.render.view import Camera
from solo.render.words import plain, word

if TYPE_CHECKING:
    from solo.engine.game import Game

__all__ = [
    "PanelEntry",
    "beat_lines",
    "card_of",
    "draw_beat_panel",
    "draw_enemy_panel",
    "draw_explanation",
    "draw_overlays",
    "draw_pace_badge",
    "enemy_panel_entries",
    "enemy_panel_layout",
    "explanation_lines",
]

FIRE_KINDS = ("fire", "vehicle_fire", "main_gun_fire", "light_at_fire", "throw")
FIRE_LINE = (255, 90, 40)
PATH_LINE = (0, 230, 255)
TAG_BG = (20, 20, 24)
EXPLAIN_BG = (28, 30, 36)


# ---------------------------------------------------------------------------
# where things are


def _char_hex(game: Game, cid: str | None) -> Hex | None:
    if cid is None:
        return None
    ch = game.state.characters.get(cid)
    if ch is None:
        return None
    if ch.hex is not None:
        return ch.hex
    v = getattr(game.state, "vehicles", {}).get(getattr(ch, "vehicle", None) or "")
    return getattr(v, "hex", None)


def _target_hex(game: Game, target: object) -> Hex | None:
    """A fire event's ``target``: a character id, ``"hex:CC.RR"`` or ``"vehicle:id"``."""
    if not isinstance(target, str):
        return None
    if target.startswith("hex:"):
        return Hex.parse(target[4:])
    if target.startswith("vehicle:"):
        v = getattr(game.state, "vehicles", {}).get(target[8:])
        return getattr(v, "hex", None)
    v = getattr(game.state, "vehicles", {}).get(target)
    if v is not None:
        return getattr(v, "hex", None)
    return _char_hex(game, target)


def _who(game: Game, cid: str | None, fog: Fog) -> str:
    if cid is None:
        return ""
    ch = game.state.characters.get(cid)
    if ch is not None:
        if cid in fog.hidden_ids:
            return f"Unknown enemy at {ch.hex}" if ch.hex else "Unknown enemy"
        return ch.name
    team = game.state.teams.get(cid)
    return team.name if team is not None else cid


def _short(game: Game, cid: str | None, fog: Fog) -> str:
    """A man's name for a panel line: ``"? 21.03"`` for an Unknown enemy (the table shows his hex)."""
    ch = game.state.characters.get(cid or "")
    if ch is not None and cid in fog.hidden_ids:
        return f"? {ch.hex}" if ch.hex else "?"
    return _who(game, cid, fog)


def _order_name(game: Game, order_id: object) -> str:
    if not isinstance(order_id, str) or not order_id:
        return ""
    o = game.data.orders.get(order_id) if order_id in game.data.orders else None
    return o.name if o is not None else word(order_id).title()


# ---------------------------------------------------------------------------
# the step on stage


def beat_title(game: Game, beat: Beat, fog: Fog) -> str:
    """``"Enemy · Sch. Dorn · Aimed Fire"``, ``"Enemy card · Red initiative"``."""
    who = _who(game, beat.actor, fog)
    first = beat.first("enemy_order", "crew_order", "passenger_order")
    if first is not None:
        return f"Enemy card · {who}"
    if beat.first("initiative") is not None:
        return f"Enemy initiative · {who}"
    order = ""
    for e in beat.events:
        if isinstance(e.data.get("order"), str):
            order = _order_name(game, e.data["order"])
            break
    if not order and beat.actor in game.state.characters:
        ch = game.state.characters[beat.actor]
        if ch.order is not None and beat.actor not in fog.hidden_ids:
            order = _order_name(game, ch.order.order)
    side = "Enemy" if beat.side == "enemy" else "Friendly" if beat.side == "friendly" else "Game"
    return " · ".join(x for x in (side, who, order) if x)


def beat_lines(game: Game, beat: Beat, fog: Fog, *, rolls: bool = False) -> list[str]:
    """The step's events as the player may read them (rolls only with ``rolls``)."""
    out = []
    for e in beat.events:
        if e.kind == "roll" and not rolls:
            continue
        if not fog.shows(e):
            continue
        text = fog.event_text(e)
        if e.rule and e.rule not in text:
            text += f" [{plain(e.rule, game.data)}]"
        out.append(text)
    return out


def draw_beat_panel(
    surface: pygame.Surface, rect: pygame.Rect, game: Game, stage: Stage, fonts: theme.Fonts, fog: Fog
) -> pygame.Rect:
    """The step on stage in the decision panel's place; returns the "Next" button's rectangle."""
    beat = stage.shown
    pygame.draw.rect(surface, theme.PANEL, rect)
    pygame.draw.rect(surface, theme.ACTIVE, rect, 2)
    if beat is None:
        return pygame.Rect(0, 0, 0, 0)
    left = sum(1 for b in stage.queue if b.waits)
    head = f"The Enemy plays · T{beat.turn}" + (f" I{beat.impulse}" if beat.impulse else "")
    surface.blit(fonts.text(head, TITLE_SIZE, theme.PANEL_TITLE, bold=True), (rect.x + PAD, rect.y + 5))
    width = rect.width - 2 * PAD
    y = rect.y + 28
    for ln in fonts.wrap(beat_title(game, beat, fog), TEXT_SIZE + 2, width, bold=True):
        surface.blit(fonts.text(ln, TEXT_SIZE + 2, theme.ACTIVE, bold=True), (rect.x + PAD, y))
        y += 20
    reason = beat.reason_event()
    why = fog.event_text(reason) if fog.shows(reason) else "(an Unknown enemy acts)"
    button = pygame.Rect(rect.x + PAD, rect.bottom - 44, width, 34)
    for ln in fonts.wrap("Why: " + why, SMALL_SIZE + 1, width):
        if y > button.y - 40:
            break
        surface.blit(fonts.text(ln, SMALL_SIZE + 1, theme.PANEL_TITLE), (rect.x + PAD, y))
        y += 16
    y += 6
    for text in beat_lines(game, beat, fog, rolls=False)[:12]:
        if text == why:
            continue
        for ln in fonts.wrap("· " + text, SMALL_SIZE, width, condensed=True):
            if y > button.y - 22:
                break
            surface.blit(fonts.text(ln, SMALL_SIZE, theme.TEXT, condensed=True), (rect.x + PAD, y))
            y += 15
    pace = "Step" if stage.pace is Pace.STEP else f"Timed {stage.seconds:g} s ([ ] to change)"
    hint = f"{left} more Enemy step(s) · pace {pace} · P: pace · Esc: rest of the Impulse"
    surface.blit(
        fonts.text(
            fonts.fit(hint, SMALL_SIZE, width, condensed=True), SMALL_SIZE, theme.TEXT_DIM, condensed=True
        ),
        (rect.x + PAD, button.y - 18),
    )
    pygame.draw.rect(surface, theme.AUTO_BUTTON, button, border_radius=6)
    label = "Next Enemy step (Space / click)" if left else "Done: back to your decision (Space / click)"
    t = fonts.text(fonts.fit(label, TEXT_SIZE, width - 12), TEXT_SIZE, theme.BUTTON_TEXT, bold=True)
    surface.blit(t, t.get_rect(center=button.center))
    return button


def _tag(
    surface: pygame.Surface,
    fonts: theme.Fonts,
    text: str,
    at: tuple[float, float],
    colour: theme.Colour,
    *,
    inside: pygame.Rect | None = None,
) -> None:
    t = fonts.text(text, SMALL_SIZE, colour, bold=True, condensed=True)
    r = t.get_rect(midbottom=(round(at[0]), round(at[1])))
    if inside is not None:  # kept whole on the map: moved in from its edge
        r.clamp_ip(inside.inflate(-8, -4))
    pygame.draw.rect(surface, TAG_BG, r.inflate(8, 4), border_radius=4)
    pygame.draw.rect(surface, colour, r.inflate(8, 4), 1, border_radius=4)
    surface.blit(t, r)


def effect_tags(game: Game, beat: Beat, fog: Fog) -> list[tuple[str, str]]:
    """``(character id, short text)`` of what the step did to each man: wound, check, Duck Back..."""
    out: list[tuple[str, str]] = []
    for e in beat.events:
        d = e.data
        who = str(d.get("target") if e.kind == "wound_draw" else d.get("character", e.actor or ""))
        if not fog.shows(e):
            continue
        if e.kind == "wound":
            out.append((who, f"{str(d.get('wound', '')).replace('_', ' ')} wound"))
        elif e.kind == "wound_draw" and d.get("stamp") in ("close_call", "none"):
            out.append((who, "close call"))
        elif e.kind == "check":
            res = f"{str(d.get('check', '')).upper()} {d.get('result', '')}"
            if d.get("morale_before") != d.get("morale_after"):
                res += f": {d.get('morale_after')}"
            out.append((who, res))
        elif e.kind == "duck_back":
            out.append((who, "Duck Back"))
        elif e.kind == "morale":
            out.append((who, f"→ {d.get('after')}"))
        elif e.kind in ("killed", "incapacitated", "captured", "surrender"):
            out.append((who, e.kind.upper()))
        elif e.kind == "reveal":
            out.append((who, "Spotted"))
        elif e.kind == "dummy_removed":
            out.append((e.actor or who, "dummy: removed"))
        elif e.kind == "hatch":
            out.append((e.actor or who, f"hatch {d.get('hatch')}"))
        elif e.kind == "turret_turn":
            out.append((e.actor or who, f"turret → {d.get('turret')}"))
    return [(who, plain(text, game.data)) for who, text in out]


def draw_overlays(
    surface: pygame.Surface, game: Game, camera: Camera, fonts: theme.Fonts, beat: Beat | None, fog: Fog
) -> None:
    """The step on stage over the map (``game`` is the staged game: positions as of the step)."""
    if beat is None:
        return
    old = surface.get_clip()
    surface.set_clip(camera.rect)
    w = max(2, round(camera.scale * 0.12))
    for _cid, path in beat.moves():
        pts = [camera.centre(Hex.parse(h)) for h in path]
        pygame.draw.lines(surface, PATH_LINE, False, pts, w)
        for p in pts:
            pygame.draw.circle(surface, PATH_LINE, p, w * 1.5)
    for e in beat.events:
        if e.kind == "vehicle_move" and e.data.get("steps"):
            hexes = [str(e.data.get("start"))] + [str(s.get("hex")) for s in e.data["steps"] if s.get("hex")]
            pts = [camera.centre(Hex.parse(h)) for h in hexes if h and h != "None"]
            if len(pts) > 1:
                pygame.draw.lines(surface, PATH_LINE, False, pts, w)
        if e.kind == "target_marker" and e.data.get("hex"):
            h = Hex.parse(str(e.data["hex"]))
            c = camera.centre(h)
            pygame.draw.circle(surface, theme.MARKER_COLOURS["enemy"], c, camera.scale * 0.85, w)
            _tag(
                surface,
                fonts,
                f"Target Marker · priority {e.data.get('priority')}",
                (c[0], c[1] - camera.scale),
                theme.MARKER_COLOURS["enemy"],
            )
    for e in beat.events:
        if e.kind not in FIRE_KINDS or not fog.shows(e):
            continue
        d = e.data
        firer = _char_hex(game, str(d.get("firer", d.get("gunner", e.actor or ""))))
        target = _target_hex(game, d.get("target")) or (
            Hex.parse(str(d["landed"])) if d.get("landed") else None
        )
        if firer is None or target is None:
            continue
        a, b = camera.centre(firer), camera.centre(target)
        pygame.draw.line(surface, FIRE_LINE, a, b, w + 1)
        pygame.draw.circle(surface, FIRE_LINE, b, camera.scale * 0.7, w)
        area = surface.get_clip()
        caption = fonts.first_fitting(
            fire_captions(e), SMALL_SIZE, area.width - 16, bold=True, condensed=True
        )
        _tag(surface, fonts, caption, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), FIRE_LINE, inside=area)
    for cid, text in effect_tags(game, beat, fog):
        on = _char_hex(game, cid)
        if on is None:
            continue
        c = camera.centre(on)
        _tag(surface, fonts, text, (c[0], c[1] + camera.scale * 1.1), theme.ACTIVE)
    surface.set_clip(old)


def fire_captions(e: Event) -> tuple[str, ...]:
    """:func:`fire_caption` and its shorter forms, longest first: without the modifiers (the
    modified WS and the dice), then the dice alone (the step panel gives the whole line)."""
    full = fire_caption(e)
    d = e.data
    rolls = d.get("rolls")
    if e.kind == "throw" or not isinstance(rolls, list) or not rolls:
        return (full,)
    dice = ", ".join(f"{r.get('roll')} {r.get('result')}" for r in rolls if isinstance(r, dict))
    forms = [full]
    if "modified_ws" in d:
        forms.append(f"WS {d['modified_ws']} · dice {dice}")
    forms.append(f"dice {dice}")
    return tuple(plain(f) for f in forms)


def fire_caption(e: Event) -> str:
    """``"WS 6 range -1 order -2 = 3 · dice 4 miss, 7 miss, 7 miss"`` from a fire event's data
    (ids in plain words: ``weather heavy rain -1``)."""
    return plain(_fire_caption(e))


def _fire_caption(e: Event) -> str:
    d = e.data
    if e.kind == "throw":
        landed = "on target" if d.get("passed") else "off target"
        return f"grenade: check {d.get('roll')} vs {d.get('target')}: {landed}"
    parts = []
    if "ws" in d:
        parts.append(f"WS {d['ws']}")
    for name, value in d.get("modifiers", ()):
        if value:
            parts.append(f"{name} {value:+d}")
    head = " ".join(parts)
    if "modified_ws" in d:
        head += f" = {d['modified_ws']}"
    rolls = d.get("rolls")
    if isinstance(rolls, list) and rolls:
        dice = ", ".join(f"{r.get('roll')} {r.get('result')}" for r in rolls if isinstance(r, dict))
        return f"{head} · dice {dice}"
    he = d.get("he")
    if isinstance(he, dict) and he.get("text"):
        return str(he["text"])
    return head or e.kind.replace("_", " ")


# ---------------------------------------------------------------------------
# the Enemy panel: this turn's cards


@attrs.frozen
class PanelEntry:
    """One line of the Enemy panel: the card event and its line."""

    seq: int
    text: str
    actor: str | None
    short: tuple[str, ...] = ()
    """Shorter forms of ``text``, longest first, for a narrow panel (a fixed rule, never a cut)."""


def panel_events(events: list[Event]) -> list[Event]:
    """The Enemy card events of the latest turn that has any (kept until the next Order Phase)."""
    last_turn = None
    for e in reversed(events):
        if e.kind in CARD_KINDS and e.kind != "enemy_waiting":
            last_turn = e.turn
            break
    if last_turn is None:
        return []
    return [e for e in events if e.turn == last_turn and e.kind in CARD_KINDS and e.kind != "enemy_waiting"]


def enemy_panel_entries(game: Game, fog: Fog) -> list[PanelEntry]:
    """The Enemy panel's lines: ``"e14 (31) · Red initiative"``, ``"e27 (05) · Obsh Brückner: RG 6/5 →
    Run & Gun 6/5"``, ``"e50 (87) · Gren. Bauer: VOM reverse 4"``."""
    out = []
    for e in panel_events(game.events):
        d = e.data
        card = d.get("card", "")
        ini = d.get("initiative")
        head = f"{card} ({ini:02d})" if isinstance(ini, int) else str(card)
        if e.kind == "initiative":
            team = game.state.teams.get(str(d.get("team", e.actor or "")))
            name = team.name if team is not None else str(d.get("team", ""))
            text = f"{head} · {name} initiative"
            short: tuple[str, ...] = (f"{head} · {name}", head)
        elif e.kind == "enemy_order":
            got = f"{d.get('entry', '')} → {_order_name(game, d.get('order'))}"
            if d.get("directions"):
                got += f" {d['directions']}"
            who = _short(game, e.actor, fog)
            text = f"{head} · {who}: {got}"
            entry = d.get("entry", "")
            short = (f"{head} · {who}: {entry}", f"{card} {who}: {entry}", f"{card}: {entry}", str(card))
        elif e.kind == "crew_order":
            who = _short(game, e.actor, fog)
            cell = plain(str(d.get("cell", "")), game.data)
            text = f"{head} · {who}: VOM {cell}"
            short = (f"{card} {who}: VOM {cell}", f"{card}: VOM {cell}", str(card))
        else:
            text = f"{_who(game, e.actor, fog)}: {_order_name(game, d.get('order'))}"
            short = (_order_name(game, d.get("order")),)
        out.append(PanelEntry(e.seq, text.strip(), e.actor, tuple(s.strip() for s in short)))
    return out


def enemy_panel_layout(rect: pygame.Rect, game: Game, fog: Fog) -> list[tuple[pygame.Rect, PanelEntry]]:
    """Where each line of the Enemy panel goes in ``rect`` (the newest lines when they do not all fit)."""
    entries = enemy_panel_entries(game, fog)
    y = rect.y + 28
    if not entries:
        return []
    cols = 1 if len(entries) * 16 <= rect.height - 34 else 2
    col_w = (rect.width - PAD * (cols + 1)) // cols
    per_col = max(1, (rect.bottom - y - 4) // 16)
    shown = entries[-per_col * cols :]
    out = []
    for i, entry in enumerate(shown):
        c, row = divmod(i, per_col)
        out.append((pygame.Rect(rect.x + PAD + c * (col_w + PAD), y + row * 16, col_w, 15), entry))
    return out


def draw_enemy_panel(
    surface: pygame.Surface, rect: pygame.Rect, game: Game, fonts: theme.Fonts, fog: Fog, chosen: int | None
) -> None:
    """The Enemy cards of the turn and what each gave (base-rules §5, 9.1; C2 31 VOM), clickable."""
    pygame.draw.rect(surface, theme.PANEL, rect)
    pygame.draw.rect(surface, theme.PANEL_EDGE, rect, 1)
    chips = enemy_panel_layout(rect, game, fog)
    turn = game.events[chips[0][1].seq].turn if chips else game.state.flow.turn
    titles = (
        (f"Enemy cards · turn {turn} · click: why", f"Enemy cards · turn {turn}", "Enemy cards")
        if chips
        else ("Enemy cards this turn", "Enemy cards")
    )
    surface.blit(
        fonts.text(
            fonts.first_fitting(titles, TITLE_SIZE, rect.width - 2 * PAD, bold=True),
            TITLE_SIZE,
            theme.PANEL_TITLE,
            bold=True,
        ),
        (rect.x + PAD, rect.y + 5),
    )
    if not chips:
        surface.blit(fonts.text("none drawn yet", SMALL_SIZE, theme.TEXT_DIM), (rect.x + PAD, rect.y + 28))
        return
    for chip, entry in chips:
        colour = theme.ACTIVE if entry.seq == chosen else theme.ENEMY_CARD
        pygame.draw.rect(surface, colour, chip, border_radius=3)
        line = fonts.first_fitting((entry.text, *entry.short), SMALL_SIZE, chip.width - 6, condensed=True)
        surface.blit(fonts.text(line, SMALL_SIZE, theme.CARD_TEXT, condensed=True), (chip.x + 3, chip.y))


def card_of(game: Game, cid: str) -> int | None:
    """The seq of the Enemy panel's card event for man ``cid`` (his latest this turn), or None."""
    for e in reversed(panel_events(game.events)):
        if e.actor == cid:
            return e.seq
    return None


# ---------------------------------------------------------------------------
# the full explanation of a card


def explanation_lines(game: Game, seq: int, fog: Fog) -> list[str]:
    """Everything the events say about card event ``seq`` and what its man did this turn.

    Card and initiative, row and column read (or the VOM cell and modified number), the entry,
    checks, conversions and overrides, the order; then the man's Target Marker placements (with
    their 31.7.4 priority), fire (modified WS, dice, result) and what hit him, with rule numbers.
    """
    if not 0 <= seq < len(game.events):
        return []
    e = game.events[seq]
    d = e.data
    if not fog.shows(e):
        return ["An Unknown enemy's card: hidden until he is Known."]
    who = _who(game, e.actor, fog)
    out = [
        f"{who}: card {d.get('card', '?')}"
        + (f", initiative {d['initiative']:02d}" if isinstance(d.get("initiative"), int) else "")
    ]
    if e.kind == "enemy_order":
        out.append(
            f"Row {d.get('row')} (morale {d.get('morale')}) × column {d.get('column')}: "
            f"reads '{d.get('entry')}'"
        )
        if d.get("cards_read") and list(d["cards_read"]) != [d.get("card")]:
            out.append("Cards read: " + ", ".join(map(str, d["cards_read"])))
        for check in d.get("checks", ()):
            if isinstance(check, dict):
                out.append(f"Check {check.get('check')}: {check.get('result')}")
        for conv in d.get("conversions", ()):
            out.append(f"Override: {conv}")
        order = _order_name(game, d.get("order"))
        out.append(f"Order given: {order}" + (f" {d['directions']}" if d.get("directions") else ""))
    elif e.kind == "crew_order":
        out.append(
            f"VOM {d.get('column')}: modified number {d.get('modified')} "
            f"({d.get('morale')} {d.get('morale_modifier', 0):+d}) → cell {d.get('cell')}"
        )
        for check in d.get("checks", ()):
            out.append(f"Check: {check}")
        for note in d.get("notes", ()):
            out.append(f"Note: {note}")
    elif e.kind == "initiative":
        out.append(f"Why: {d.get('why', '')}")
    out.append(f"Rules: {e.rule}" if e.rule else "")
    out.append("Text: " + fog.event_text(e))
    if e.actor in game.state.characters:
        later = [
            x
            for x in game.events[seq + 1 :]
            if x.turn == e.turn
            and x.kind
            in ("target_marker", "target_marker_removed", "fire_target", *FIRE_KINDS, "no_fire", "move")
            and (x.actor == e.actor or x.data.get("firer") == e.actor)
            and fog.shows(x)
        ]
        if later:
            out.append("This turn:")
        for x in later[:8]:
            line = fog.event_text(x)
            out.append(
                f"· T{x.turn} I{x.impulse}: {line}"
                + (f" [{x.rule}]" if x.rule and x.rule not in line else "")
            )
    return [plain(ln, game.data) for ln in out if ln]


def draw_explanation(
    surface: pygame.Surface, area: pygame.Rect, game: Game, fonts: theme.Fonts, fog: Fog, seq: int
) -> pygame.Rect:
    """The explanation of card event ``seq`` in a box at the bottom of ``area`` (the map); its rect."""
    lines = explanation_lines(game, seq, fog)
    width = min(area.width - 24, 760)
    rows: list[tuple[str, bool]] = []
    for i, text in enumerate(lines):
        for ln in fonts.wrap(text, SMALL_SIZE + 1, width - 20, bold=i == 0):
            rows.append((ln, i == 0))
    rows.append(("Esc or a click elsewhere closes this.", False))
    h = min(area.height - 20, 16 * len(rows) + 16)
    box = pygame.Rect(area.x + 12, area.bottom - h - 12, width, h)
    pygame.draw.rect(surface, EXPLAIN_BG, box, border_radius=8)
    pygame.draw.rect(surface, theme.ACTIVE, box, 2, border_radius=8)
    y = box.y + 8
    for text, bold in rows:
        if y > box.bottom - 18:
            break
        colour = theme.ACTIVE if bold else theme.TEXT
        surface.blit(fonts.text(text, SMALL_SIZE + 1, colour, bold=bold), (box.x + 10, y))
        y += 16
    return box


def pace_caption(stage: Stage) -> str:
    """``"Pace: Step"``, ``"Pace: Timed 1 s"``, ``"Pace: Instant"`` (the badge, the start screen)."""
    if stage.pace is Pace.TIMED:
        return f"Pace: Timed {stage.seconds:g} s"
    return "Pace: " + stage.pace.value.title()


def draw_pace_badge(surface: pygame.Surface, area: pygame.Rect, stage: Stage, fonts: theme.Fonts) -> None:
    """The pace, at the top right of the map (key P changes it)."""
    text = pace_caption(stage) + " (P)"
    t = fonts.text(text, SMALL_SIZE, theme.PANEL_TITLE, bold=True)
    r = t.get_rect(topright=(area.right - 10, area.y + 8))
    pygame.draw.rect(surface, TAG_BG, r.inflate(10, 6), border_radius=5)
    pygame.draw.rect(
        surface, theme.ACTIVE if stage.busy else theme.PANEL_EDGE, r.inflate(10, 6), 1, border_radius=5
    )
    surface.blit(t, r)
