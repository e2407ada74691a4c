"""Named house options (base-rules §20): each house rule the engine uses, as a value a player can change.

``Options()`` is the house edition. A scenario or the command line may change
any field by name (``Options.from_dict({"night_los": 4})``); unknown names and
values of the wrong type are errors. Options given on the command line are
written in the game log's header; a scenario's own options come with the
scenario file.
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class Options:
    """The house options of base-rules §20 that the engine reads."""

    night_los: int = 5
    """Q20: LOS limit at night, hexes (§15)."""
    optional_enemy_activation: bool = False
    """C2 23.5: draw Enemy orders only when a team activates (or an enemy is fired on)."""
    morale_modifies_spotting: bool = True
    """Q7: the firer's morale fire-WS modifier also applies to spotting."""
    medical_aid_range: int = 0
    """Q25: Medical Aid reaches the same hex (0) or adjacent hexes (1)."""
    smoke_grenade_timing: str = "end_of_turn"
    """Q16: ``end_of_turn`` (Smoke next turn) or ``immediate``."""
    blast_mc_only_if_unhurt: bool = False
    """Q17: the reconstruction's blast MC (in-hex only if no die hit) instead of C2's everyone."""
    plan_roll: bool = False
    """Q24: Plan also needs d10 <= LDR."""
    dummy_tq: int = 1
    """§3: the TQ a dummy spots with."""
    oba_model: str = "tq_minus_power"
    """Q22: off-board artillery damage model."""
    rout_leaves_map: bool = True
    """§5.7: Routed enemies may leave the map (counted as killed)."""

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> Options:
        """Options with ``values`` changed by name. Raises ``ValueError`` for an unknown name."""
        fields = {f.name: f for f in attrs.fields(cls)}
        unknown = sorted(set(values) - set(fields))
        if unknown:
            raise ValueError(f"unknown option(s) {', '.join(unknown)} (known: {', '.join(sorted(fields))})")
        defaults = cls()
        for name, value in values.items():
            want = type(getattr(defaults, name))
            if type(value) is not want:
                raise ValueError(
                    f"option {name} takes {want.__name__} values like {getattr(defaults, name)!r}, "
                    f"got {value!r}"
                )
        return attrs.evolve(defaults, **values)

    def to_dict(self) -> dict[str, Any]:
        """All options by name (for the log header)."""
        return attrs.asdict(self)
