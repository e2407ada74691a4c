"""The data: frozen definitions read from YAML, with their loaders and validators.

Cards and decks, tables (orders, charts, weapons, checks), terrain, maps, vehicle types with
their VOM and crews, scenarios, and :class:`~solo.data.house.HouseData` (everything loaded at
once). Definitions never change during a game; the game state lives in :mod:`solo.rules.state`.

May import: :mod:`solo.core`.
"""
