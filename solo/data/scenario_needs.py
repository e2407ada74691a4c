"""What a scenario needs from its card set, and the sections it cannot do without (C2 31.3, 32.3;
base-rules §21).

:func:`card_needs` names every piece a scenario takes from the card files that the card set
does not hold: the crew counters an AFV draws at random for each unnamed position (C2 31.3), the
Panzerfaust weapon of a Panzerfaust Level (C2 32.3). Each problem is put on the scenario's line
that needs the piece and names the card file that lacks it, so a card set that validates plays
every scenario it is checked with. :func:`missing_sections` refuses a scenario without its
``victory:`` section (at the line where it should be: the end of a file cut short).

May import: :mod:`solo.core`, :mod:`solo.data` below :mod:`solo.data.scenario` (which calls this).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo.core.datafile import DataFile, last_line
from solo.core.errors import Problem
from solo.data.scenario_format import REQUIRED_SECTIONS, Scenario

if TYPE_CHECKING:
    from solo.data.house import HouseData


def source_of(data: HouseData | Any, name: str) -> str:
    """The file the card set ``data`` read its ``name`` card file from, as problems name it."""
    sources: dict[str, str] = getattr(data, "sources", None) or {}
    return sources.get(name, f"cards/{name}")


def card_needs(doc: DataFile, sc: Scenario, data: HouseData | Any) -> list[Problem]:
    """The pieces ``sc`` needs that the card set ``data`` lacks, each at the line that needs it.

    Checks: every AFV position not named in ``crew:`` has crew counters of the vehicle's nation
    and that role to draw from (C2 31.3); a ``panzerfaust:`` type is a weapon of the card set
    (C2 32.3). Vehicle types, weapons, profiles and orders named by the scenario are checked by
    :func:`solo.data.scenario.load_scenario` itself.
    """
    out: list[Problem] = []
    types = getattr(data, "vehicles", None)
    crews = getattr(data, "crews", None)
    crews_file = source_of(data, "crews.yaml")
    for i, v in enumerate(sc.vehicles):
        if types is None or crews is None or v.wrecked or v.type not in types:
            continue
        vtype = types.get(v.type)
        if vtype.kind.value != "afv":
            continue
        lacking: list[str] = []
        for pos in vtype.crew:
            if pos.role is None or pos.id in v.crew:
                continue
            try:
                crews.pool(vtype.nation, pos.role)
            except KeyError:
                lacking.append(pos.role.value)
        if lacking:
            roles = ", ".join(lacking)
            out.append(
                doc.problem(
                    ("vehicles", i),
                    f"vehicle {v.id!r} ({vtype.name}) draws its {roles} from the "
                    f"{vtype.nation.value} crew counters, and {crews_file} has none for "
                    f"{'that position' if len(lacking) == 1 else 'those positions'} (add them, or "
                    f"name the crew in 'crew: {{{lacking[0]}: ID, ...}}'; C2 31.3)",
                )
            )
    weapons = getattr(data, "weapons", None)
    if sc.panzerfaust is not None and weapons is not None and sc.panzerfaust.type not in weapons:
        out.append(
            doc.problem(
                ("panzerfaust", "type"),
                f"the Panzerfaust Level hands out {sc.panzerfaust.type!r}, which is not a weapon of "
                f"{source_of(data, 'weapons.yaml')} (C2 32.3)",
            )
        )
    return out


def missing_sections(doc: DataFile) -> list[Problem]:
    """The sections the scenario ``doc`` cannot do without (:data:`REQUIRED_SECTIONS`).

    A missing top-level section is put on the line after the file's last one, where it should
    be (a file cut short loses its last sections first). (A vehicle without its crew is not
    refused: an Enemy Truck draws its Driver, C2 31.3, and a Jeep may wait for a man to mount up.)
    """
    out: list[Problem] = []
    top = doc.data if isinstance(doc.data, dict) else {}
    end = last_line(doc.text)
    for key, what in REQUIRED_SECTIONS.items():
        if key not in top:
            out.append(
                Problem(
                    doc.name,
                    end + 1,
                    f"no '{key}:' section ({what}); the file ends at line {end}: is it cut short?",
                )
            )
    return out
