"""Colours, fonts and cached text for the window (house edition look).

Every colour the drawing code uses is named here, so tests can check pixels
against the same values. Fonts are DejaVu (the system's, when present, for its
arrows and section signs) or pygame's bundled default.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

import pygame

Colour = tuple[int, int, int]

# -- terrain (hex fill colours; patterns are drawn on top, leaving the centre in this colour)

TERRAIN_COLOURS: dict[str, Colour] = {
    "open": (198, 205, 152),
    "field": (226, 210, 128),
    "long_grass": (168, 192, 108),
    "trees": (72, 122, 62),
    "orchard": (158, 196, 112),
    "building": (156, 104, 84),
    "fortified_building": (118, 80, 72),
    "rocks": (160, 156, 146),
    "marsh": (132, 172, 152),
    "stream": (112, 162, 212),
    "depression": (186, 170, 122),
    "logs": (182, 170, 122),
    "rubble": (168, 152, 136),
    "crater": (172, 152, 112),
    "fountain": (200, 202, 206),
    "hedge": (96, 144, 66),
    "wall": (168, 166, 156),
    "bocage": (64, 104, 54),
    "abbey_exterior": (186, 172, 150),
    "abbey_interior": (214, 204, 184),
}
UNKNOWN_TERRAIN: Colour = (255, 0, 255)
"""A terrain id this table does not know (a designer's new terrain): loud on purpose."""

HEXSIDE_COLOURS: dict[str, Colour] = {
    "hedge": (34, 104, 36),
    "wall": (96, 96, 100),
    "bocage": (24, 66, 28),
}
"""Hexside features, drawn as a thick line along the hexside."""

GRID = (128, 128, 104)
CONTOUR = (134, 84, 40)
ROAD_FILL = (214, 194, 150)
ROAD_EDGE = (150, 128, 92)
LABEL = (60, 60, 50)
MAP_BACKGROUND = (58, 62, 58)
NIGHT_TINT = (16, 24, 64, 80)
"""RGBA laid over the map in a night scenario (§15)."""
OBJECTIVE = (200, 40, 40)

# -- sides and teams

FRIENDLY_TEAM_COLOURS: dict[str, Colour] = {
    "able": (82, 122, 58),
    "baker": (176, 136, 56),
    "charlie": (60, 118, 136),
    "com": (124, 92, 146),
}
ENEMY_TEAM_COLOURS: dict[str, Colour] = {
    "red": (176, 58, 48),
    "blue": (58, 84, 170),
    "white": (226, 226, 222),
    "yellow": (216, 190, 50),
    "green": (46, 140, 80),
    "black": (40, 40, 44),
    "orange": (222, 124, 40),
    "brown": (120, 80, 48),
    "purple": (120, 60, 140),
    "grey": (130, 130, 130),
}
FALLBACK_TEAM_COLOURS: tuple[Colour, ...] = ((150, 110, 90), (90, 120, 150), (140, 140, 80), (110, 90, 130))
FRIENDLY_STRIPE = (96, 104, 56)
"""The name stripe of a Friendly counter (olive drab)."""
ENEMY_STRIPE = (112, 118, 112)
"""The name stripe of an Enemy counter (field grey)."""
UNKNOWN_BODY = (70, 70, 78)
"""The body of an Unknown enemy counter ('?')."""
SPOTTED_FRAME = (230, 60, 30)
HIDDEN_FRAME = (30, 30, 30)
ORDER_BADGE = (250, 218, 92)
WOUND_LIGHT = (220, 40, 40)
WOUND_BAD = (120, 0, 0)
MORALE_COLOURS: dict[str, Colour] = {
    "berserk": (200, 0, 160),
    "aggressive": (220, 120, 0),
    "bold": (60, 140, 220),
    "normal": (200, 200, 200),
    "cautious": (230, 200, 60),
    "shaken": (240, 120, 40),
    "rout": (210, 30, 30),
}
MORALE_ABBREV: dict[str, str] = {
    "berserk": "BRS",
    "aggressive": "AGG",
    "bold": "BLD",
    "normal": "",
    "cautious": "CAU",
    "shaken": "SHK",
    "rout": "RT",
}

# -- highlights and markers

SELECTED = (255, 255, 255)
ACTOR = (0, 230, 255)
ACTIVE = (255, 230, 0)
TARGET_HINT = (255, 80, 200)
LOS_CLEAR = (40, 220, 60)
LOS_BLOCKED = (235, 40, 40)
SMOKE = (200, 200, 204)
FADING = (228, 228, 232)
FIRE = (240, 110, 20)
RAGING = (210, 30, 10)
GRENADE = (30, 30, 30)
ILLUMINATION = (255, 246, 140)
MINE = (150, 40, 30)
"""A minefield (C2 31.5): its mines and its MINES tag."""
TERRAIN_CHANGE = (90, 80, 70)
"""The tag of a hex whose terrain changed in play (a Building hit became RUBBLE, base-rules §14)."""

# -- vehicles (C2 31)

VEHICLE_COLOURS: dict[str, Colour] = {
    "enemy": (138, 144, 152),
    "friendly": (104, 120, 60),
}
"""Vehicle hulls by side: Panzer grey for the Enemy, olive drab for Friendly vehicles."""
VEHICLE_EDGE = (18, 18, 18)
TRACKS = (62, 60, 56)
WRECK = (70, 62, 56)
"""A destroyed vehicle's hull."""
WRECK_CROSS = (15, 15, 15)
"""The cross over a destroyed vehicle."""
WRECK_TAG = (24, 24, 24)
ABANDONED_TAG = (96, 96, 96)
DAMAGE_TAG = (196, 32, 32)
"""Damage markers (immobilized, turret jammed...) on counters and displays."""
LOADED_COLOURS: dict[str, Colour] = {"he": (240, 196, 40), "ap": (36, 36, 40)}
"""The Loaded marker (C2 31.9.4) by round."""
MARKER_COLOURS: dict[str, Colour] = {"enemy": (236, 70, 16), "friendly": (24, 112, 236)}
"""Target Markers (C2 31.7.3) and their link lines, by the owner's side."""
HATCH_COLOURS: dict[str, Colour] = {
    "open": (58, 168, 78),
    "closed": (74, 74, 84),
    "jammed_open": (214, 134, 30),
    "jammed_closed": (150, 30, 30),
    "none": (184, 184, 178),
}
"""The hatch chip of a display row (C2 31.8, 31.10.8)."""
MAT = (230, 224, 204)
"""A vehicle display's background (the printed mat)."""
MAT_EDGE = (120, 108, 84)
MAT_TEXT = (28, 28, 24)
MAT_DIM = (120, 116, 104)
KIA = (170, 20, 20)
EMERGENCY = (176, 36, 28)
"""The Emergency Stop button (C2 31.2)."""

# -- panels

PANEL = (36, 38, 44)
PANEL_EDGE = (80, 84, 96)
PANEL_TITLE = (236, 236, 236)
TEXT = (226, 226, 226)
TEXT_DIM = (150, 152, 160)
BUTTON = (64, 72, 92)
BUTTON_HOVER = (88, 100, 130)
BUTTON_EDGE = (130, 140, 170)
BUTTON_TEXT = (245, 245, 245)
AUTO_BUTTON = (120, 70, 40)
CARD = (238, 232, 214)
CARD_EDGE = (110, 100, 80)
CARD_TEXT = (30, 30, 30)
CARD_HILITE = (0, 200, 255)
ENEMY_CARD = (222, 206, 186)
TOAST = (20, 20, 20)

LOG_COLOURS: dict[str, Colour] = {
    "choice": (120, 200, 255),
    "enemy_order": (240, 190, 120),
    "initiative": (240, 190, 120),
    "track": (200, 200, 140),
    "fire": (255, 130, 120),
    "wound": (255, 100, 100),
    "wound_draw": (255, 130, 130),
    "killed": (255, 80, 80),
    "incapacitated": (255, 80, 80),
    "throw": (255, 150, 110),
    "explosion": (255, 150, 110),
    "smoke": (200, 200, 210),
    "check": (230, 200, 150),
    "victory": (255, 220, 0),
    "morale": (255, 170, 90),
    "spot": (170, 230, 170),
    "move": (190, 190, 210),
    "turn": (255, 255, 255),
    "impulse": (255, 255, 255),
    "roll": (130, 130, 140),
    "game_over": (255, 220, 0),
}


def team_colour(team_id: str, *, friendly: bool, index: int = 0) -> Colour:
    """The counter colour of a team (Friendly Able/Baker/Charlie/COM or an Enemy colour name)."""
    table = FRIENDLY_TEAM_COLOURS if friendly else ENEMY_TEAM_COLOURS
    if team_id in table:
        return table[team_id]
    return FALLBACK_TEAM_COLOURS[index % len(FALLBACK_TEAM_COLOURS)]


def terrain_colour(terrain_id: str) -> Colour:
    """The fill colour of a terrain id."""
    return TERRAIN_COLOURS.get(terrain_id, UNKNOWN_TERRAIN)


def shade(c: Colour, amount: int) -> Colour:
    """``c`` made lighter (amount > 0) or darker (< 0), each channel clamped to 0-255."""
    return (
        max(0, min(255, c[0] + amount)),
        max(0, min(255, c[1] + amount)),
        max(0, min(255, c[2] + amount)),
    )


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """``a`` moved a fraction ``t`` (0-1) of the way to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def text_on(bg: Colour) -> Colour:
    """Black or white, whichever reads better on ``bg``."""
    return (20, 20, 20) if (bg[0] * 299 + bg[1] * 587 + bg[2] * 114) / 1000 > 140 else (250, 250, 250)


# -- fonts

_FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/Library/Fonts"),
)
_FONT_FILES = {
    (False, False): "DejaVuSans.ttf",
    (True, False): "DejaVuSans-Bold.ttf",
    (False, True): "DejaVuSansCondensed.ttf",
    (True, True): "DejaVuSansCondensed-Bold.ttf",
}


def _font_path(bold: bool, condensed: bool) -> str | None:
    name = _FONT_FILES[(bold, condensed)]
    for d in _FONT_DIRS:
        p = d / name
        if p.is_file():
            return str(p)
    return None


class Fonts:
    """Fonts by pixel size, and an LRU cache of rendered text surfaces."""

    def __init__(self, max_cached: int = 4000) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[tuple[int, bool, bool], pygame.font.Font] = {}
        self._text: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self._max = max_cached
        self.cuts: list[tuple[str, str, int]] | None = None
        """The registry of cut labels, when a test asks for it (a list): every text that
        :meth:`fit` shortened or :meth:`wrap` broke inside a word, as (text, shown, width in px)."""
        self.shown: list[str] | None = None
        """The registry of words on screen, when a test asks for it (a list): every text drawn by
        :meth:`text`, cached or not (tests/test_labels.py looks for identifiers in it)."""

    def font(self, size: int, *, bold: bool = False, condensed: bool = False) -> pygame.font.Font:
        """A font of ``size`` pixels (at least 6)."""
        size = max(6, int(size))
        key = (size, bold, condensed)
        f = self._fonts.get(key)
        if f is None:
            path = _font_path(bold, condensed)
            f = pygame.font.Font(path, size)
            if path is None and bold:
                f.set_bold(True)
            self._fonts[key] = f
        return f

    def text(
        self,
        text: str,
        size: int,
        colour: Colour,
        *,
        bold: bool = False,
        condensed: bool = False,
    ) -> pygame.Surface:
        """``text`` rendered (antialiased, transparent background), cached."""
        if self.shown is not None:
            self.shown.append(text)
        key = (text, int(size), colour, bold, condensed)
        surf = self._text.get(key)
        if surf is not None:
            self._text.move_to_end(key)
            return surf
        surf = self.font(size, bold=bold, condensed=condensed).render(text, True, colour)
        self._text[key] = surf
        if len(self._text) > self._max:
            self._text.popitem(last=False)
        return surf

    def width(self, text: str, size: int, *, bold: bool = False, condensed: bool = False) -> int:
        """Width in pixels of ``text`` in that font."""
        return self.font(size, bold=bold, condensed=condensed).size(text)[0]

    def wrap(
        self, text: str, size: int, width: int, *, bold: bool = False, condensed: bool = False
    ) -> list[str]:
        """``text`` broken into lines no wider than ``width`` pixels (long words are cut)."""
        f = self.font(size, bold=bold, condensed=condensed)
        out: list[str] = []
        for para in text.split("\n"):
            words = para.split(" ")
            line = ""
            for w in words:
                trial = w if not line else f"{line} {w}"
                if f.size(trial)[0] <= width:
                    line = trial
                    continue
                if line:
                    out.append(line)
                if self.cuts is not None and f.size(w)[0] > width and len(w) > 1:
                    self.cuts.append((text, w, width))
                while f.size(w)[0] > width and len(w) > 1:
                    cut = len(w)
                    while cut > 1 and f.size(w[:cut])[0] > width:
                        cut -= 1
                    out.append(w[:cut])
                    w = w[cut:]
                line = w
            out.append(line)
        return out

    def first_fitting(
        self, texts: Sequence[str], size: int, width: int, *, bold: bool = False, condensed: bool = False
    ) -> str:
        """The first of ``texts`` (a label, then its shorter forms by a fixed rule) that fits in
        ``width`` pixels; when none does, the last one cut by :meth:`fit` (and registered)."""
        for t in texts:
            if self.width(t, size, bold=bold, condensed=condensed) <= width:
                return t
        return self.fit(texts[-1], size, width, bold=bold, condensed=condensed)

    def fit(self, text: str, size: int, width: int, *, bold: bool = False, condensed: bool = False) -> str:
        """``text`` cut (with an ellipsis) to fit in ``width`` pixels."""
        f = self.font(size, bold=bold, condensed=condensed)
        if f.size(text)[0] <= width:
            return text
        full = text
        while text and f.size(text + "…")[0] > width:
            text = text[:-1]
        if self.cuts is not None:
            self.cuts.append((full, text + "…" if text else "", width))
        return text + "…" if text else ""
