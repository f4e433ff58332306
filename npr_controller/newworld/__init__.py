"""New World Non-Player Nations (rules file 002): the GM's planning stage, automated.

``plan_nation(world, "Spain", seed=4)`` returns a :class:`NationPlan`: the attitude roll with each
modifier, the fallbacks applied, purchases with their cost, the landfall or target, the standing
guidelines as notes, a rule-cited ``trace`` and the recorded ``dice``.
"""

from npr_controller.newworld.attitude import ATTITUDE_CHART, ORDER, Attitude, AttitudeRoll, Modifier
from npr_controller.newworld.guidelines import Note
from npr_controller.newworld.landfall import Landfall, LandfallRoll
from npr_controller.newworld.plan import Fallback, NationPlan, npn_plan, plan_nation
from npr_controller.newworld.purchases import Purchase
from npr_controller.newworld.targets import Target

__all__ = [
    "ATTITUDE_CHART",
    "ORDER",
    "Attitude",
    "AttitudeRoll",
    "Fallback",
    "Landfall",
    "LandfallRoll",
    "Modifier",
    "NationPlan",
    "Note",
    "Purchase",
    "Target",
    "npn_plan",
    "plan_nation",
]
