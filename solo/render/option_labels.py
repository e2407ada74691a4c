"""House options in the player's words (base-rules §20): a label, the rule it changes, its values.

The start screen shows ``"Night LOS limit: 5 hexes · Q20, §15"`` instead of ``night_los = 5``.
Every field of :class:`~solo.core.options.Options` has an entry (a test checks it). No pygame.
"""

from __future__ import annotations

from typing import Any

import attrs

from solo.core.options import Options


@attrs.frozen
class OptionLabel:
    """How one house option is shown: ``label``, the ``rule`` it changes, its values' words."""

    label: str
    rule: str
    values: dict[Any, str] = attrs.field(factory=dict)
    """Value → words (a value not listed is shown as it is, with ``unit`` after a number)."""
    unit: str = ""


_YES_NO = {True: "yes", False: "no"}

OPTION_LABELS: dict[str, OptionLabel] = {
    "night_los": OptionLabel("Night LOS limit", "Q20, §15", unit="hexes"),
    "optional_enemy_activation": OptionLabel("Enemy orders only when a team activates", "C2 23.5", _YES_NO),
    "morale_modifies_spotting": OptionLabel("Morale fire modifier also to spot", "Q7", _YES_NO),
    "medical_aid_range": OptionLabel("Medical Aid reach", "Q25", {0: "same hex", 1: "adjacent hexes"}),
    "smoke_grenade_timing": OptionLabel(
        "Smoke grenade smoke", "Q16", {"end_of_turn": "next turn", "immediate": "at once"}
    ),
    "blast_mc_only_if_unhurt": OptionLabel("Blast MC only if no die hit", "Q17", _YES_NO),
    "plan_roll": OptionLabel("Plan also needs d10 ≤ LDR", "Q24", _YES_NO),
    "dummy_tq": OptionLabel("Dummy spotting TQ", "§3"),
    "oba_model": OptionLabel("Off-board artillery damage", "Q22, §14", {"tq_minus_power": "TQ minus power"}),
    "rout_leaves_map": OptionLabel("Routed Enemies may leave the map", "§5.7", _YES_NO),
    "emergency_stop_ldr": OptionLabel("Emergency Stop TQC adds Commander LDR", "C2 31.2", _YES_NO),
    "closed_hatch_marker": OptionLabel(
        "Closed-hatch −2 with a Target Marker", "C2 31.7.3/31.8", {"negated": "negated", "minus_1": "−1"}
    ),
    "half_track_vom": OptionLabel(
        "Half-Track VOM columns", "C2 31.11.3", {"own": "Half-Track", "afv_open": "AFV OPEN"}
    ),
    "half_track_target": OptionLabel(
        "Half-Track Target column", "C2 31.7.2", {"sees": "if he sees one", "never": "never"}
    ),
    "hatchless_gunner_vom": OptionLabel("Tank Gunner's VOM column", "C2 31.8", {"bu": "BU", "open": "OPEN"}),
    "hatchless_gunner_spot": OptionLabel("Tank Gunner spots as closed hatch", "C2 31.7.3", _YES_NO),
    "minefield_men": OptionLabel(
        "Men entering a minefield", "C2 31.5", {"morale_check": "take an MC", "none": "nothing"}
    ),
    "wreck_cover": OptionLabel("A wreck gives AFV cover", "C2 27.9", _YES_NO),
    "hexside_vertex_los": OptionLabel(
        "Hedge/wall at a hex corner blocks",
        "§16, C2 27.3",
        {"both_sides": "if both sides", "any_touch": "if touched"},
    ),
}
"""Option name → how it is shown."""


def value_words(name: str, value: Any) -> str:
    """``value`` of option ``name`` in words: ``"yes"``, ``"next turn"``, ``"5 hexes"``."""
    lab = OPTION_LABELS.get(name)
    if lab is None:
        return str(value)
    if value in lab.values and type(value) is type(next(iter(lab.values))):
        return lab.values[value]
    return f"{value} {lab.unit}".strip()


def option_line(name: str, value: Any, *, changed: bool) -> str:
    """One option as the start screen shows it: ``"Night LOS limit: 4 hexes (house: 5) · Q20, §15"``."""
    lab = OPTION_LABELS.get(name)
    default = getattr(Options(), name)
    head = lab.label if lab is not None else name.replace("_", " ")
    text = f"{head}: {value_words(name, value)}"
    if changed:
        text += f" (house: {value_words(name, default)})"
    return text + (f" · {lab.rule}" if lab is not None else "")


__all__ = ["OPTION_LABELS", "OptionLabel", "option_line", "value_words"]
