"""Golden logs: every shipped scenario x policy x seed replays byte for byte (tools/golden)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path

import pytest

_TOOL = Path(__file__).resolve().parent.parent / "tools" / "golden"
_loader = importlib.machinery.SourceFileLoader("solo_tools_golden", str(_TOOL))
_spec = importlib.util.spec_from_loader("solo_tools_golden", _loader)
golden = importlib.util.module_from_spec(_spec)
_loader.exec_module(golden)


def test_every_case_has_a_golden_log() -> None:
    """The golden folder holds exactly one log per scenario x policy x seed, and nothing stale."""
    have = sorted(p.name for p in golden.GOLDEN.glob("*.jsonl"))
    assert have == sorted(golden.name(*c) for c in golden.cases())
    assert len(have) >= 6 * 3 * 3


@pytest.mark.parametrize("case", golden.cases(), ids=lambda c: golden.name(*c)[: -len(".jsonl")])
def test_golden_log_is_byte_identical(case: tuple[str, str, int], tmp_path: Path) -> None:
    """Playing the case again writes exactly the bytes of its golden log."""
    assert golden.check(*case, tmp_path) is None
