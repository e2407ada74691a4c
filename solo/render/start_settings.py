"""What the start screen remembers between runs: the pace, the scenario and the house options.

Kept in ``settings.json`` in the user data directory (``platformdirs.user_data_path("solo")``,
beside ``recent.json``), written when the player starts or continues a game from the start
screen. The seed and table mode are not kept (a new game starts at seed 1 unless ``--seed``
says otherwise; table mode is chosen for the game at hand, or by ``--table``).

A settings file that cannot be read as one (not JSON, a wrong value) never stops the start
screen: the defaults are used for what is wrong, and :func:`load_start_settings` returns one
line saying so, which the screen shows. A file that is not JSON at all is moved aside to
``settings.json.bad`` so that the line is said once, not at every start.

May import: :mod:`solo.core` and the render room's option words; no pygame.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import platformdirs

from solo.core.options import OPTION_CHOICES, OPTION_RANGES, Options

__all__ = ["PACES", "StartSettings", "load_start_settings", "save_start_settings", "settings_file"]

PACES = ("instant", "step", "timed")
"""The paces of the Enemy's turn (solo.render.stage.Pace values)."""


DEFAULTS_USED = "the start screen uses its defaults"


def settings_file() -> Path:
    """Where the start screen's settings are kept (``settings.json`` in the user data directory)."""
    return platformdirs.user_data_path("solo") / "settings.json"


@attrs.frozen
class StartSettings:
    """The start screen's remembered choices (all optional: the defaults are the screen's own)."""

    pace: str = "instant"
    scenario: str | None = None
    """The scenario id last started (selected again if it is still shipped)."""
    options: dict[str, Any] = attrs.field(factory=dict)
    """House options changed from their defaults (name → value)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON object written to the file."""
        return {"pace": self.pace, "scenario": self.scenario, "options": dict(self.options)}


def _option_ok(name: str, value: Any) -> bool:
    """Whether ``value`` is one the start screen could have set for house option ``name``."""
    fields = {f.name for f in attrs.fields(Options)}
    if name not in fields:
        return False
    default = getattr(Options(), name)
    if isinstance(default, bool):
        return isinstance(value, bool)
    if name in OPTION_CHOICES:
        return value in OPTION_CHOICES[name]
    if isinstance(default, int) and isinstance(value, int) and not isinstance(value, bool):
        lo, hi = OPTION_RANGES.get(name, (value, value))
        return lo <= value <= hi
    return False


def load_start_settings(path: Path | None = None) -> tuple[StartSettings, str]:
    """The settings kept at ``path`` (default :func:`settings_file`) and a problem line.

    The line is ``""`` when the file is absent or fine; else ``"PATH: what is wrong; ..."``
    and the settings hold the defaults for what was wrong. Never raises: a file that cannot be
    read or is not JSON gives the defaults (and is moved to ``settings.json.bad``, best effort).
    """
    path = path or settings_file()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return StartSettings(), ""
    except (OSError, UnicodeDecodeError) as exc:
        return StartSettings(), f"{path}: cannot be read ({exc}); {DEFAULTS_USED}"
    try:
        doc = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", 1)
        aside = path.with_name(path.name + ".bad")
        try:
            path.replace(aside)
            kept = f"; it is kept as {aside.name}"
        except OSError:
            kept = ""
        return StartSettings(), f"{path}:{line}: not a settings file{kept}; {DEFAULTS_USED}"
    if not isinstance(doc, dict):
        return StartSettings(), f"{path}:1: not a settings file (a JSON object); {DEFAULTS_USED}"
    wrong: list[str] = []
    pace = doc.get("pace", "instant")
    if pace not in PACES:
        wrong.append(f"pace {pace!r} (expected one of: {', '.join(PACES)})")
        pace = "instant"
    scenario = doc.get("scenario")
    if scenario is not None and not isinstance(scenario, str):
        wrong.append(f"scenario {scenario!r} (expected a scenario name)")
        scenario = None
    options: dict[str, Any] = {}
    raw = doc.get("options", {})
    if not isinstance(raw, dict):
        wrong.append(f"options {raw!r} (expected an object)")
        raw = {}
    for name, value in raw.items():
        if _option_ok(str(name), value):
            options[str(name)] = value
        else:
            wrong.append(f"option {name} {value!r}")
    got = StartSettings(pace=pace, scenario=scenario, options=options)
    if wrong:
        return got, f"{path}:1: {'; '.join(wrong)} ignored (the default is used)"
    return got, ""


def save_start_settings(settings: StartSettings, path: Path | None = None) -> bool:
    """Write ``settings`` to ``path`` (default :func:`settings_file`) atomically; False if the
    folder cannot be written (then nothing is kept, and nothing else happens)."""
    path = path or settings_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(settings.to_dict(), indent=1, sort_keys=True), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        return False
    return True
