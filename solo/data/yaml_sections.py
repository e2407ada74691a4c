"""Top-level sections of a YAML data file's text, for the writers that keep a file's own text.

The map editor (:mod:`solo.data.map_draft`) and the scenario editor
(:mod:`solo.data.scenario_writer`) write a section the edits left alone byte for byte, with its
comments, and a changed one afresh under its comments; both cut the source text the same way here.
Imports only the standard library.
"""

from __future__ import annotations

import re

KEY_LINE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*):(\s|$)")
"""A top-level key line: the key at column 0, then a colon and a space or the line's end."""


def top_sections(text: str) -> dict[str, tuple[list[str], list[str]]]:
    """Top-level sections of ``text``: key → (comment and blank lines before it, its own lines).

    Comment and blank lines between two keys belong to the next key; those inside a section (an
    indented line follows them) stay in it. Lines before the first key and not followed by one are
    dropped from the result (they are the file's header, kept by the caller if it wants them).
    """
    out: dict[str, tuple[list[str], list[str]]] = {}
    pending: list[str] = []
    current: list[str] | None = None
    for line in text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"):
        m = KEY_LINE.match(line)
        if m:
            current = [line]
            out[m.group(1)] = (pending, current)
            pending = []
        elif current is None or line.startswith("#") or not line.strip():
            pending.append(line)
        else:
            current.extend(pending)
            pending = []
            current.append(line)
    if pending and current is not None:
        current.extend(pending)
    return out


def key_comment(line: str) -> str:
    """The ``   # ...`` comment after a key line's value ("" if none; not inside quotes)."""
    m = re.match(r"^[A-Za-z_]+:[^#\"']*?(\s+#.*)$", line)
    return m.group(1) if m else ""
