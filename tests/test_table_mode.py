"""Table mode with real cards (issue 12 item 3): card pickers with titles and values, searchable by
typing; set-up prompts leave the map visible."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame
import pytest

from solo.core.dice import ChanceRequest
from solo.render import theme
from solo.render.app import Window, _preview_setup

SIZE = (1600, 1000)


@pytest.fixture
def setup_window():
    """A window in table mode's set-up: no game yet, the churchyard's map previewed."""
    w = Window(None, size=SIZE, resizable=False)
    _preview_setup(w, "the_churchyard", None, None)
    yield w
    w.close()


def friendly_draw(w):
    legal = tuple(sorted(c.id for c in w.dialog.data.friendly_deck.cards))
    return ChanceRequest("card", "Friendly deck: starting hand", legal, deck="friendly")


def typed(text):
    return [pygame.event.Event(pygame.KEYDOWN, key=0, mod=0, unicode=c) for c in text]


ENTER = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r")


def test_card_picker_shows_titles_and_values(setup_window):
    """Each card button reads id, title and the Able/Baker/Charlie initiatives of the card set."""
    w = setup_window
    req = friendly_draw(w)
    f05 = w.dialog.data.friendly_deck.card("f05")
    i = f05.initiatives
    labels = [b.label for b in w.dialog.layout(req, SIZE).buttons]
    assert f"f05 {f05.title} · A{i.able:02d} B{i.baker:02d} C{i.charlie:02d}" in labels
    enemy = ChanceRequest("card", "Enemy deck", ("e01", "e02"), deck="enemy")
    e01 = w.dialog.data.enemy_deck.card("e01")
    assert w.dialog.card_label(enemy, "e01") == f"e01 · initiative {e01.initiative:02d}"


def test_typing_searches_the_titles_and_enter_takes_the_only_match(setup_window):
    """Typing part of a title narrows the buttons; Enter takes the only match; several: refused."""
    w = setup_window
    dlg = w.dialog
    req = friendly_draw(w)
    title = dlg.data.friendly_deck.card("f38").title
    word = title.lower()[:12]  # "sergeant's s"
    matches = [c.id for c in dlg.data.friendly_deck.cards if word in dlg.card_label(req, c.id).lower()]
    assert dlg.process(req, typed(word)) is None
    assert [b.value for b in dlg.layout(req, SIZE).buttons][: len(matches)] == matches
    assert matches == ["f38"], matches
    assert dlg.process(req, [ENTER]) == "f38"
    dlg.typed = ""
    assert dlg.process(req, [*typed("f"), ENTER]) is None
    assert "cards match 'f'" in dlg.refused
    dlg.typed = ""
    assert dlg.process(req, [*typed("f38"), ENTER]) == "f38"
    assert dlg.process(req, [*typed("zzz"), ENTER]) is None
    assert "no card" in dlg.refused


def test_clicking_a_card_row_answers_it(setup_window):
    """A click on a card's row gives that card."""
    w = setup_window
    req = friendly_draw(w)
    button = next(b for b in w.dialog.layout(req, SIZE).buttons if b.value == "f05")
    up = pygame.event.Event(pygame.MOUSEBUTTONUP, pos=button.rect.center, button=1)
    assert w.dialog.process(req, [up]) == "f05"


def test_set_up_prompt_leaves_the_map_visible(setup_window):
    """During set-up (no game yet) the map is drawn, undimmed, and the dialog stays off it."""
    w = setup_window
    req = ChanceRequest("d10", "weather at set-up", tuple(range(10)))
    w.dialog.draw(w.surface, req)
    lay = w.view.layout
    box = w.dialog.layout(req, SIZE).box
    assert not box.colliderect(lay.map)
    board = w.view.camera.board
    h = next(
        h
        for h in board.hexes
        if board.map.terrain[h] == "building"
        and board.map.level.get(h, 0) == 0
        and lay.map.inflate(-200, -200).collidepoint(w.view.camera.centre(h))
        and h not in set(board.map.road_hexes)
    )
    assert (
        tuple(w.surface.get_at(tuple(round(v) for v in w.view.camera.centre(h))))[:3]
        == (theme.TERRAIN_COLOURS["building"])
    )


def test_table_mode_game_keeps_the_previewed_camera():
    """When the game arrives after the preview, the map does not jump: the same camera stays."""
    from solo.render.session import new_session

    w = Window(None, size=SIZE, resizable=False)
    try:
        data = _preview_setup(w, "first_contact", None, None)
        cam = w.view.camera
        w.view.game = new_session("first_contact", seed=1, data=data).game
        assert w.view.camera is cam
    finally:
        w.close()


def test_table_mode_save_with_a_maps_dir_continues_on_the_same_map(tmp_path):
    """Table mode with ``--maps DIR``: the save names the folder (and hashes it), so the game
    continued from the save is set up from the same data: the folder's map, not a shipped one."""
    from solo.core.log import data_version, read_log
    from solo.core.resources import maps_dir
    from solo.playtest.play import replay
    from solo.playtest.policies import SimplePolicy
    from solo.render.session import load_session, new_session

    folder = tmp_path / "mymaps"
    (folder / "scenarios").mkdir(parents=True)
    town = (maps_dir() / "town.yaml").read_text(encoding="utf-8").replace("\nid: town", "\nid: mytown", 1)
    (folder / "mytown.yaml").write_text(town, encoding="utf-8")
    scen = folder / "scenarios" / "mine.yaml"
    text = (maps_dir() / "scenarios" / "first_contact.yaml").read_text(encoding="utf-8")
    assert "\nmap: town\n" in text
    scen.write_text(text.replace("\nmap: town\n", "\nmap: mytown\n"), encoding="utf-8")
    asked = []

    def player(req):
        asked.append(req.kind)
        return "ok" if req.kind == "shuffle" else req.legal[len(asked) % len(req.legal)]

    s = new_session(str(scen), seed=3, table=player, map_set=str(folder))
    assert s.game.board.map.id == "mytown"
    policy = SimplePolicy()
    for _ in range(20):
        s.game.apply(policy(s.game, s.game.pending))
    path = s.save(tmp_path / "table.jsonl")
    header, _ = read_log(path)
    assert header.map_set == str(folder) and header.card_set is None
    assert header.data_version == data_version(None, folder, [scen]) != data_version()
    assert sorted(header.files) == sorted([str(folder / "mytown.yaml"), str(scen)])  # each file read, by path
    again = load_session(path, table=player)
    assert again.warnings == []
    assert again.game.board.map.id == "mytown"
    assert [e.text for e in again.game.events] == [e.text for e in s.game.events]
    assert again.header().map_set == str(folder)  # and a save of the continued game keeps it
    assert replay(path).ok
    from solo.render.app import _is_table_save

    assert _is_table_save(str(path))  # continued in table mode, from --load or the start screen
    assert not _is_table_save(str(tmp_path / "none.jsonl"))
    s2 = new_session(str(scen), seed=3, map_set=str(folder))
    assert not _is_table_save(str(s2.save(tmp_path / "dice.jsonl")))
