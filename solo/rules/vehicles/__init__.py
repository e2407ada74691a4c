"""Vehicles: Combat!2 rules 31-32 (movement, crews, firing from and at vehicles, light AT weapons).

May import: :mod:`solo.rules`, :mod:`solo.data`, :mod:`solo.core`.
"""
