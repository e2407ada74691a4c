"""The Enemy as the rules ask for it: :class:`Enemy` fills :class:`~solo.rules.context.EnemyHooks`.

The engine gives every game an :class:`Enemy` (``game.enemy``); a rule that needs the Enemy to
decide in the middle of its procedure (alerted, fired upon, a crewman spotting) calls it there.
A test may replace one decision on one game: ``game.enemy.alert = fake``.

May import: every module of :mod:`solo.enemy` (nothing there imports this one).
"""

from __future__ import annotations

from solo.enemy import alerting, duck_back, emergency_stop, fire_choice, target_markers, turret_and_smoke


class Enemy:
    """The Enemy's decisions for one game (each one a function of the game, see EnemyHooks)."""

    alert = staticmethod(alerting.alert)
    unprepared_activation = staticmethod(alerting.unprepared_activation)
    assign_on_activation = staticmethod(alerting.assign_on_activation)
    duck_back_on_entering = staticmethod(duck_back.duck_back_on_entering)
    choose_enemy_fire = staticmethod(fire_choice.choose_enemy_fire)
    sniper_aims = staticmethod(fire_choice.sniper_aims)
    place_enemy_marker = staticmethod(target_markers.place_enemy_marker)
    commander_turret_target = staticmethod(turret_and_smoke.commander_turret_target)
    enemy_emergency_stop = staticmethod(emergency_stop.enemy_emergency_stop)
    smoke_discharger_hex = staticmethod(turret_and_smoke.smoke_discharger_hex)
