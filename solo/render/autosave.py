"""The window's autosave: the game's log kept after every decision, offered again after a crash.

After each decision the window writes the whole log (the same format as Ctrl+S, atomically:
a temporary file, then ``os.replace``) to ``autosave.jsonl`` in the user data folder
(``platformdirs.user_data_path("solo")``), with ``autosave.json`` beside it naming the
player's own save file, if any, so that Ctrl+S after a Continue goes where it went before.
A game that ends, or a window the player quits, clears both; a crash or a kill leaves them,
and the start screen then offers "Continue the interrupted game". The player's own saves are
never written here. No pygame.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

import attrs
import platformdirs

from solo.core.log import LogError, inputs_of, read_log
from solo.render.session import Session


def autosave_file() -> Path:
    """Where the autosaved log is kept (``autosave.jsonl`` in the user data folder)."""
    return platformdirs.user_data_path("solo") / "autosave.jsonl"


def _meta_file(path: Path) -> Path:
    return path.with_suffix(".json")


@attrs.frozen
class Interrupted:
    """An autosave left by a game that did not end normally: what the start screen offers."""

    path: Path
    scenario: str
    decisions: int
    """How many decisions the player (or his standing choices) had given."""
    save_path: str | None
    """The player's own save file for this game (Ctrl+S goes there again), or None."""
    table: bool

    @property
    def label(self) -> str:
        """``"the_churchyard · 37 decisions"`` (table mode says so)."""
        name = Path(self.scenario).stem if self.scenario.endswith(".yaml") else self.scenario
        return f"{name} · {self.decisions} decisions" + (" · table mode" if self.table else "")


def write_autosave(session: Session, save_path: Path | str | None, path: Path | None = None) -> Path:
    """Write ``session``'s log to the autosave (atomically) and the name of its own save file.

    Raises OSError when the folder cannot be written (the window then says so once).
    """
    path = path or autosave_file()
    session.save(path)
    meta = {"save_path": str(save_path) if save_path else None}
    fd, tmp = tempfile.mkstemp(prefix=".autosave.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(meta, f)
        os.replace(tmp, _meta_file(path))
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def clear_autosave(path: Path | None = None) -> None:
    """Remove the autosave (a normal end or quit); nothing happens when there is none."""
    path = path or autosave_file()
    for p in (path, _meta_file(path)):
        with contextlib.suppress(OSError):
            p.unlink(missing_ok=True)


def interrupted_game(path: Path | None = None) -> Interrupted | None:
    """The autosave of a game that did not end normally, or None (none kept, or one that cannot
    be read: it is then left alone for the player to look at)."""
    path = path or autosave_file()
    if not path.is_file():
        return None
    try:
        header, events = read_log(path)
    except LogError:
        return None
    save_path = None
    try:
        meta = json.loads(_meta_file(path).read_text(encoding="utf-8"))
        if isinstance(meta, dict) and isinstance(meta.get("save_path"), str):
            save_path = meta["save_path"]
    except (OSError, ValueError):
        pass
    return Interrupted(
        path, str(header.scenario), len(inputs_of(events)), save_path, header.policy.endswith("(table)")
    )


__all__ = ["Interrupted", "autosave_file", "clear_autosave", "interrupted_game", "write_autosave"]
