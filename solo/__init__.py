"""solo: the Enemy side of the solitaire squad wargame Combat! and Combat!2.

The engine is a library: nothing under ``solo`` (except ``solo.render``)
imports pygame, and nothing prints. See ``README.md`` for the commands.
"""

__version__ = "0.1.0"
