"""The data: frozen definitions read from YAML, with their loaders and validators.

One module per data file or topic: the decks (:mod:`~solo.data.cards` with direction strings,
:mod:`~solo.data.friendly_deck`, :mod:`~solo.data.event_tables`), the house tables
(:mod:`~solo.data.orders`, :mod:`~solo.data.charts`, :mod:`~solo.data.weapons` with
:mod:`~solo.data.bands`, :mod:`~solo.data.tables` for morale and checks), terrain and maps
(:mod:`~solo.data.map_draft`: a map being edited, mutable),
vehicles (:mod:`~solo.data.vehicle_types`, :mod:`~solo.data.vehicle_type_files`,
:mod:`~solo.data.vom`, :mod:`~solo.data.crew_counters`, :mod:`~solo.data.roll_ranges`),
characters and scenarios (:mod:`~solo.data.characters`, :mod:`~solo.data.scenario_format`,
:mod:`~solo.data.scenario`), and :class:`~solo.data.house.HouseData` (everything loaded at
once; :mod:`~solo.data.validate` for ``solo validate``). Definitions never change during a
game; the game state lives in :mod:`solo.rules.state`.

May import: :mod:`solo.core`.
"""
