"""The ``solo`` command: a thin client of the engine and the playtest tools.

:mod:`~solo.cli.main` holds the parser and the play/replay/validate commands;
:mod:`~solo.cli.deck`, :mod:`~solo.cli.batch` and :mod:`~solo.cli.history` add the designer and
playtester subcommands, :mod:`~solo.cli.edit` the map editor;
:mod:`~solo.cli.forced` reads the ``--dice`` files of ``run`` and ``branch``.

May import: everything (it is the top room); :mod:`solo.render` only when a window or picture is asked.
"""

from solo.cli.main import main

__all__ = ["main"]
