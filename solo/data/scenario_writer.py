"""Writing scenarios (``maps/scenarios/*.yaml``): :func:`scenario_doc` and :func:`dump_scenario`.

The scenario editor (``solo edit SCENARIO.yaml``) keeps a scenario as a plain document: the
nested dicts and lists of :func:`scenario_doc`, in the order of the fields of
:class:`~solo.data.scenario_format.Scenario`, with every value equal to its default left out.
:func:`dump_scenario` writes such a document (or a :class:`Scenario`) as YAML in the shipped
layout: the setting first, teams and vehicles as block lists, each character, objective, band
and Direction Counter on one line in flow style. Keys keep the field order, so the same data
always give the same text; loading the text gives the same :class:`Scenario` back
(``tests/test_scenario_writer.py`` checks it for every shipped scenario). Given the text the
scenario was read from, the writer keeps every section the edits left alone byte for byte, with
its comments, so a scenario loaded and saved without edits is the same file.

Pure: no pygame, no game rules. :func:`parse_scenario_text` reads text back and structures it
(YAML and field types only: the checks against a card set are
:func:`~solo.data.scenario.load_scenario`'s).

May import: :mod:`solo.core` and :mod:`solo.data.scenario_format`.
"""

from __future__ import annotations

import enum
import json
from typing import Any

import attrs
import yaml

from solo.core.datafile import read_text, structure
from solo.data.scenario_format import Scenario
from solo.data.yaml_sections import key_comment, top_sections

__all__ = [
    "ALWAYS",
    "HEADER",
    "TOP_ORDER",
    "dump_scenario",
    "order_doc",
    "parse_scenario_text",
    "scenario_doc",
]

HEADER = (
    "# Written by `solo edit` (the scenario editor). The format: see the_churchyard.yaml, which\n"
    "# comments every key. The editor keeps comments above the sections it leaves alone.\n"
)
"""The comment at the top of a file the editor writes."""

_FLOW_ITEMS = frozenset(
    {"characters", "objectives", "bands", "exits", "direction_counters", "barrages", "weapons", "cup"}
)
"""Lists whose items are written one a line in flow style (``- {id: able_1, ...}``)."""
_FOLD_AT = 95
"""A longer one-line string (a description) is written folded, cut into lines of this length."""
_FLOW_WIDTH = 110
"""A mapping whose flow form is at most this long (and holds no list of mappings) goes on one line."""


def _plain(value: Any) -> Any:
    """``value`` as plain YAML data: attrs classes as dicts without defaults, enums as values."""
    if attrs.has(type(value)):
        out: dict[str, Any] = {}
        for f in attrs.fields(type(value)):
            if not f.eq:
                continue  # source, map_def: not keys of the file
            v = getattr(value, f.name)
            default = f.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]  # attrs types Factory as a function
                default = default.factory()
            if default is not attrs.NOTHING and _same(v, default):
                continue
            out[f.name] = _plain(v)
        return out
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return (type(a) is type(b) and a == b) or (isinstance(a, enum.Enum) and a == b)


TOP_ORDER: tuple[str, ...] = (
    "id", "name", "map", "month", "weather", "ground", "night", "turns", "hand", "elite",
    "large_battle", "wind", "options", "fires", "description", "minefields", "overlays",
    "direction_counters", "edges", "events", "target_tables", "barrages", "c4", "prisoners",
    "first_orders", "building_aimed_fire",
    "victory", "friendly", "enemy", "reinforcements", "vehicles", "panzerfaust",
)  # fmt: skip
"""The order of a scenario's top-level keys, as the shipped files have them: the setting, the
special rules, victory, then the forces."""
ALWAYS: tuple[str, ...] = (
    "id", "name", "map", "month", "weather", "ground", "turns", "hand", "friendly", "victory",
)  # fmt: skip
"""Top-level keys written even when they hold their default (the setting a reader looks for, and
``victory:``, which a scenario file must hold: ``{}`` is the standard bands, base-rules §21)."""


def scenario_doc(sc: Scenario) -> dict[str, Any]:
    """The document of ``sc``: nested dicts/lists, defaults left out, top keys in :data:`TOP_ORDER`.

    The keys of :data:`ALWAYS` are always present; nested keys follow the fields of their class.
    """
    doc = _plain(sc)
    for key in ALWAYS:
        doc.setdefault(key, _plain(getattr(sc, key)))
    return order_doc(doc)


def order_doc(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with its top-level keys in :data:`TOP_ORDER` (unknown keys last, as given)."""
    out = {k: doc[k] for k in TOP_ORDER if k in doc}
    out.update({k: v for k, v in doc.items() if k not in out})
    return out


def _scalar(value: Any) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, width=10**9, allow_unicode=True, sort_keys=False)
    text = text.strip()
    if text.endswith("\n..."):
        text = text[: -len("\n...")]
    elif text.endswith("..."):
        text = text[:-3].rstrip()
    if len(text) > 1 and text[0] == text[-1] == "'" and not any(c in text[1:-1] for c in "'\"\\"):
        text = f'"{text[1:-1]}"'  # the shipped files' quotes: "15.06"
    return text


def _flow(value: Any) -> str:
    """``value`` in flow style on one line, keys in their order."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_scalar(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return _scalar(value)


def _foldable(text: str) -> bool:
    """Whether ``text`` may be written folded (``>-``): long, one line, single spaces, plain ends."""
    return (
        len(text) > _FOLD_AT
        and "\n" not in text
        and "  " not in text
        and text == text.strip()
        and all(c.isprintable() for c in text)
    )


def _literal(text: str) -> bool:
    """Whether multi-line ``text`` may be written as a literal block (``|-``): printable lines
    without trailing spaces, the first not indented, no blank line at either end."""
    lines = text.split("\n")
    return (
        text == text.strip()
        and all(x == x.rstrip() and all(c.isprintable() for c in x) for x in lines)
        and not lines[0].startswith((" ", "#"))
    )


def _folded(text: str, indent: int) -> list[str]:
    """``text`` cut at spaces into lines of at most :data:`_FOLD_AT` characters."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > _FOLD_AT:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return [" " * indent + x for x in lines]


def _has_dict_list(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_has_dict_list(v) for v in value.values())
    if isinstance(value, list):
        return any(isinstance(v, dict) for v in value) or any(_has_dict_list(v) for v in value)
    return False


def _block(key: str, value: Any, indent: int, out: list[str]) -> None:
    pad = " " * indent
    if isinstance(value, dict) and value:
        flow = _flow(value)
        if not _has_dict_list(value) and len(flow) <= _FLOW_WIDTH:
            out.append(f"{pad}{key}: {flow}")
            return
        out.append(f"{pad}{key}:")
        for k, v in value.items():
            _block(_scalar(k), v, indent + 2, out)
    elif isinstance(value, list) and value and any(isinstance(v, dict) for v in value):
        out.append(f"{pad}{key}:")
        for item in value:
            if key in _FLOW_ITEMS or not isinstance(item, dict):
                out.append(f"{pad}  - {_flow(item)}")
                continue
            inner: list[str] = []
            for k, v in item.items():
                _block(_scalar(k), v, indent + 4, inner)
            inner[0] = f"{pad}  - {inner[0][indent + 4 :]}"
            out.extend(inner)
    elif isinstance(value, str) and "\n" in value:
        if _literal(value):
            out.append(f"{pad}{key}: |-")
            out.extend(f"{pad}  {x}" if x else "" for x in value.split("\n"))
        else:
            out.append(f"{pad}{key}: {json.dumps(value, ensure_ascii=False)}")
    elif isinstance(value, str) and _foldable(value):
        out.append(f"{pad}{key}: >-")
        out.extend(_folded(value, indent + 2))
    else:
        out.append(f"{pad}{key}: {_flow(value)}")


def dump_scenario(
    scenario: Scenario | dict[str, Any],
    *,
    header: str = HEADER,
    source: str | None = None,
    original: dict[str, Any] | None = None,
) -> str:
    """YAML text of a :class:`Scenario` or of its document (:func:`scenario_doc`).

    A document is written in its own key order, ``header`` (comment lines) first. With
    ``source`` (the text the scenario was read from) and ``original`` (its document as read),
    the text keeps the source: a top-level section whose value is as in ``original`` is copied
    byte for byte with its comments, a changed one is written afresh under its comments, a new
    one goes after the source's sections that come before it in :data:`TOP_ORDER`; so load →
    save without edits gives the same file.
    """
    doc = scenario_doc(scenario) if isinstance(scenario, Scenario) else scenario
    if source is None or original is None:
        out: list[str] = []
        for key, value in doc.items():
            _block(_scalar(key), value, 0, out)
        return header + "\n".join(out) + "\n"
    old = top_sections(source)
    keys = [k for k in old if k in doc or (k not in original and k in TOP_ORDER)]
    for k in doc:
        if k in keys:
            continue
        rank = TOP_ORDER.index(k) if k in TOP_ORDER else len(TOP_ORDER)
        at = len(keys)
        for i, other in enumerate(keys):
            if other in TOP_ORDER and TOP_ORDER.index(other) > rank:
                at = i
                break
        keys.insert(at, k)
    lines: list[str] = []
    for key in keys:
        if key in old and original.get(key) == doc.get(key):
            before, body = old[key]
            lines += before + body
            continue
        if key not in doc or (key not in old and original.get(key) == doc[key]):
            continue  # gone, or a default the source leaves out (weather: clear) and still is
        fresh: list[str] = []
        _block(_scalar(key), doc[key], 0, fresh)
        if key in old:
            before, body = old[key]
            lines += [x for x in before if x.startswith("#") or not x.strip()]
            if fresh[0].endswith(":") or fresh[0].endswith(">-"):
                fresh[0] += key_comment(body[0])
        lines += fresh
    return "\n".join(lines) + "\n"


def parse_scenario_text(text: str, name: str) -> Scenario:
    """Read scenario text and structure it (YAML and field types only).

    Raises :class:`~solo.core.errors.DataError` with ``name:line`` problems.
    """
    return structure(read_text(text, name), Scenario)
