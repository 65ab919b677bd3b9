"""oprstats: balance statistics for One Page Rules wargames (Grimdark Future, Firefight).

Profiles (:class:`Weapon`, :class:`Unit`) are immutable values in the rulebook's notation;
:func:`load_army_book` reads Army Forge army books and :func:`load_army_list` the Army
Forge text export of a list. :func:`attack`, :func:`melee` and :func:`morale` are exact;
:func:`efficiency`, :class:`CostModel` and :func:`fairness` turn them into points.
"""

from __future__ import annotations

from ._attack import AttackResult, AttackTable, attack, attack_table
from ._core import Army, ArmyBook, Model, Spell, Unit, UpgradeOption, Weapon, __version__
from ._census import rule_coverage, unmodelled_share
from ._distribution import Distribution
from ._duel import DuelResult, duel
from ._distributed import sweep
from ._game import GameResult, Policy, TerrainPiece, simulate
from ._factions import FactionTable, PointsPerLogit, faction_table, points_per_logit
from ._lists import random_lists
from ._shapley import ShapleyValues, shapley_values
from ._what_if import WhatIf, what_if
from ._efficiency import MODES, Efficiencies, Efficiency, EfficiencyCurve, Target, efficiency, efficiency_curve, natural_mode, reference_attackers, reference_targets
from ._editions import DEFAULT_EDITION, Edition, editions, known_rule_names, known_rules
from ._loaders import load_army_book, load_army_list
from ._matchups import BreakEven, Field, Matchups, break_even, fair_cost, matchups
from ._melee import MeleeResult, MeleeSide, MoraleResult, melee, morale
from ._metagame import Metagame, metagame
from ._points import CostModel, CrossValidation, PredictionIntervals, Price, PriceTerm, fairness
from ._state import UnitState
from ._core import ListWarning
from ._strict import UnknownRuleWarning, get_strict, set_strict
from ._tables import unit_rows, units_frame
from ._validate import ListCheck, ListProblem, validate_list
from .examples import example_army, example_book

__all__ = [
    "Army",
    "AttackResult",
    "AttackTable",
    "BreakEven",
    "CostModel",
    "CrossValidation",
    "Efficiency",
    "Efficiencies",
    "Field",
    "ListCheck",
    "ListProblem",
    "EfficiencyCurve",
    "FactionTable",
    "MODES",
    "PredictionIntervals",
    "Price",
    "PriceTerm",
    "Target",
    "Distribution",
    "DuelResult",
    "GameResult",
    "Policy",
    "TerrainPiece",
    "ArmyBook",
    "DEFAULT_EDITION",
    "Edition",
    "Matchups",
    "MeleeResult",
    "MeleeSide",
    "Metagame",
    "Model",
    "MoraleResult",
    "PointsPerLogit",
    "ShapleyValues",
    "Spell",
    "Unit",
    "UnitState",
    "UnknownRuleWarning",
    "ListWarning",
    "UpgradeOption",
    "Weapon",
    "WhatIf",
    "__version__",
    "attack",
    "attack_table",
    "break_even",
    "duel",
    "editions",
    "efficiency",
    "efficiency_curve",
    "natural_mode",
    "points_per_logit",
    "fair_cost",
    "faction_table",
    "fairness",
    "example_army",
    "example_book",
    "get_strict",
    "known_rule_names",
    "known_rules",
    "load_army_book",
    "load_army_list",
    "matchups",
    "melee",
    "metagame",
    "morale",
    "reference_attackers",
    "random_lists",
    "reference_targets",
    "rule_coverage",
    "set_strict",
    "shapley_values",
    "simulate",
    "sweep",
    "unit_rows",
    "units_frame",
    "validate_list",
    "unmodelled_share",
    "what_if",
]
