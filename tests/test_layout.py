"""The layout (README "Layout"; DESIGN.md): one import direction, no circle, no module over 800 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

SOLO = Path(__file__).resolve().parent.parent / "solo"
MAX_LINES = 800
ROOMS = ("core", "data", "rules", "enemy", "engine", "playtest", "render", "cli")
"""The rooms from the bottom up: a room may import only the rooms before it (cli may import render)."""


def _modules() -> list[Path]:
    return sorted(p for p in SOLO.rglob("*.py") if "_shipped" not in p.parts)


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("solo")


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SOLO.parent)))
def test_no_module_over_800_lines(path: Path) -> None:
    """Every module of solo/ is at most 800 lines (split by rule number when one grows past it)."""
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.find_modules_directly_imported_by(v)):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for m in sorted(graph.modules):
        if m not in index:
            visit(m)
    return out


def test_no_import_circle(graph: grimp.ImportGraph) -> None:
    """No circle of imports anywhere in solo/, counting imports inside functions and under TYPE_CHECKING."""
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    """The check above can fail: two modules importing each other are reported."""
    g = grimp.ImportGraph()
    for m in ("pkg", "pkg.a", "pkg.b", "pkg.c"):
        g.add_module(m)
    g.add_import(importer="pkg.a", imported="pkg.b")
    g.add_import(importer="pkg.b", imported="pkg.a")
    g.add_import(importer="pkg.c", imported="pkg.a")
    assert _cycles(g) == [["pkg.a", "pkg.b"]]


def test_rooms_import_downward_only(graph: grimp.ImportGraph) -> None:
    """A room imports only the rooms below it (the import-linter contract, checked here too)."""
    rank = {room: i for i, room in enumerate(ROOMS)}
    wrong = []
    for importer in sorted(graph.modules):
        parts = importer.split(".")
        if len(parts) < 2 or parts[1] not in rank:
            continue
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            other = imported.split(".")
            if (
                len(other) >= 2
                and other[0] == "solo"
                and other[1] in rank
                and rank[other[1]] > rank[parts[1]]
            ):
                wrong.append(f"{importer} -> {imported}")
    assert wrong == []


@pytest.mark.parametrize("room", ROOMS)
def test_every_room_says_what_it_holds(room: str) -> None:
    """Each room's __init__ docstring says what lives there and what it may import."""
    doc = ast.get_docstring(ast.parse((SOLO / room / "__init__.py").read_text(encoding="utf-8")))
    assert doc and "May import" in doc


def test_no_pygame_outside_render() -> None:
    """The engine is a library: only solo/render imports pygame."""
    offenders = []
    for path in _modules():
        if "render" in path.relative_to(SOLO).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n.split(".")[0] == "pygame" for n in names):
                offenders.append(str(path))
    assert offenders == []


def test_the_public_names_at_the_top() -> None:
    """``solo.Game``, ``solo.new_game`` and ``solo.load_data`` are the engine's, loaded on first use."""
    import solo
    from solo.data.house import load_data
    from solo.engine.game import Game
    from solo.playtest.play import new_game

    assert (solo.Game, solo.new_game, solo.load_data) == (Game, new_game, load_data)
    with pytest.raises(AttributeError):
        _ = solo.NoSuchThing
    game = solo.new_game("first_contact", seed=1)
    assert isinstance(game, solo.Game) and game.pending is not None
