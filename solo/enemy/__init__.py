"""The Enemy: its decisions, each returned with its explanation (card, row and column, dice, rule).

Infantry (base-rules §5; C2 23-30):

- :mod:`~solo.enemy.order_phase`: the Enemy Card and Order Phase, reinforcements (§1 Step 3, §5.7);
- :mod:`~solo.enemy.alerting`: Waiting becomes Alert, Prepared/Unprepared (§5.6), orders drawn on
  activation (C2 23.5);
- :mod:`~solo.enemy.order_lookup`: the order read on a card by Cover/Open × Morale State (§5.3);
- :mod:`~solo.enemy.order_cards`: the card draws and the team's initiative (9.1, 9.2);
- :mod:`~solo.enemy.directions`: card direction strings through the Direction Counter (§6);
- :mod:`~solo.enemy.fire_choice`: the fire target and weapon (13.0; C2 23.2, 30.1), the Sniper (C2 24.1);
- :mod:`~solo.enemy.duck_back`: Duck Back on entering terrain (9.4).

Vehicles (C2 31):

- :mod:`~solo.enemy.vom_orders`: the VOM per crewman and its overrides (31.1, 31.11.3);
- :mod:`~solo.enemy.vom`: the VOM tables, the trace of a crewman's order, forced orders (31.10.8);
- :mod:`~solo.enemy.bail_out`: passengers, bailed-out crew, an AFV crewman's Bail Out (31.11.2-3);
- :mod:`~solo.enemy.target_markers`: Target Marker placement by the priorities of 31.7.4;
- :mod:`~solo.enemy.emergency_stop`: the Enemy Driver's Emergency Stop (31.2 (1));
- :mod:`~solo.enemy.turret_and_smoke`: the turret (31.6) and the smoke dischargers (31.11.2);
The crew rules for either side that these read (seat LOS, Observed Targets, markers lost) are in
:mod:`solo.rules.vehicles.crew_sight`.

:mod:`~solo.enemy.hooks` gathers the decisions the rules ask for into ``game.enemy``
(:class:`~solo.rules.context.EnemyHooks`); nothing here imports the engine. Inside the room
imports go one way: hooks → order_phase → alerting → order_lookup → order_cards, directions;
fire_choice, duck_back → order_lookup; vom_orders → bail_out → vom → crews; emergency_stop →
target_markers → vom, crews; turret_and_smoke → target_markers, crews.

May import: :mod:`solo.rules`, :mod:`solo.data`, :mod:`solo.core`.
"""
