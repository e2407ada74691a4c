"""docs/data_keys.md is generated from the data classes (tools/data_keys) and cannot drift."""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path

_TOOL = Path(__file__).resolve().parent.parent / "tools" / "data_keys"
_loader = importlib.machinery.SourceFileLoader("solo_tools_data_keys", str(_TOOL))
_spec = importlib.util.spec_from_loader("solo_tools_data_keys", _loader)
data_keys = importlib.util.module_from_spec(_spec)
_loader.exec_module(data_keys)


def test_every_number_of_the_data_files_has_a_range() -> None:
    """No field of a data class is a plain int: each declares its Range."""
    _text, bare = data_keys.render()
    assert bare == []


def test_the_doc_is_up_to_date() -> None:
    """docs/data_keys.md is what tools/data_keys writes now (run it after changing a data class)."""
    text, _bare = data_keys.render()
    assert data_keys.DOC.read_text(encoding="utf-8") == text


def test_the_doc_names_ranges_and_defaults() -> None:
    """A required number with its range, and an optional key with its default, as the doc shows them."""
    text, _bare = data_keys.render()
    assert "| `fire_ws` | integer -3–3 WS points | required |" in text
    assert "| `month` | integer 1–12 months | optional, default `6` |" in text
