//! The thin binding layer: wraps the core's values and loaders for Python. No rule logic
//! lives here.

mod attack;
mod book;
mod convert;
mod cost;
mod errors;
mod game;
mod matchups;
mod melee;
mod metagame;
mod profile;
mod rules;
mod spell;

use pyo3::prelude::*;

#[pymodule]
#[pyo3(name = "_core")]
fn core_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<profile::PyWeapon>()?;
    m.add_class::<profile::PyUnit>()?;
    m.add_class::<profile::PyModel>()?;
    m.add_class::<book::PyArmyBook>()?;
    m.add_class::<book::PyUpgradeOption>()?;
    m.add_class::<book::PyArmy>()?;
    m.add_class::<spell::PySpell>()?;
    m.add_function(wrap_pyfunction!(spell::_spell_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(profile::_weapon_from_text, m)?)?;
    m.add_function(wrap_pyfunction!(profile::_unit_from_text, m)?)?;
    m.add_function(wrap_pyfunction!(profile::_weapon_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(profile::_model_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(book::_upgrade_option_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(profile::_unit_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(book::_army_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(book::_army_book_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(book::_load_army_book_json, m)?)?;
    m.add_function(wrap_pyfunction!(book::_load_army_list_text, m)?)?;
    m.add_function(wrap_pyfunction!(book::_editions, m)?)?;
    m.add_function(wrap_pyfunction!(rules::_limits, m)?)?;
    m.add_function(wrap_pyfunction!(book::_known_rules, m)?)?;
    m.add_function(wrap_pyfunction!(rules::_known_rule_names, m)?)?;
    m.add_function(wrap_pyfunction!(rules::_rule_census, m)?)?;
    m.add_function(wrap_pyfunction!(rules::_unmodelled_rules, m)?)?;
    m.add_function(wrap_pyfunction!(rules::_set_strict, m)?)?;
    m.add_function(wrap_pyfunction!(rules::_get_strict, m)?)?;
    m.add("UnknownRuleWarning", m.py().get_type::<errors::UnknownRuleWarning>())?;
    m.add("ListWarning", m.py().get_type::<errors::ListWarning>())?;
    m.add_function(wrap_pyfunction!(attack::_attack, m)?)?;
    m.add_class::<attack::PyAttackStages>()?;
    m.add_class::<melee::PyMeleeOutcome>()?;
    m.add_function(wrap_pyfunction!(attack::_attack_table, m)?)?;
    m.add_function(wrap_pyfunction!(matchups::_matchups, m)?)?;
    m.add_function(wrap_pyfunction!(matchups::_matchup_activations, m)?)?;
    m.add_function(wrap_pyfunction!(matchups::_matchups_square, m)?)?;
    m.add_function(wrap_pyfunction!(melee::_melee, m)?)?;
    m.add_function(wrap_pyfunction!(melee::_morale, m)?)?;
    m.add_function(wrap_pyfunction!(cost::_cost_terms, m)?)?;
    m.add_function(wrap_pyfunction!(cost::_efficiency, m)?)?;
    m.add_function(wrap_pyfunction!(cost::_durability, m)?)?;
    m.add_function(wrap_pyfunction!(cost::_reference_targets, m)?)?;
    m.add_function(wrap_pyfunction!(cost::_reference_attackers, m)?)?;
    m.add_function(wrap_pyfunction!(cost::_curve_target, m)?)?;
    m.add_function(wrap_pyfunction!(cost::_efficiency_modes, m)?)?;
    m.add_class::<game::PyGamePrep>()?;
    m.add_function(wrap_pyfunction!(game::_prepare_game, m)?)?;
    m.add_function(wrap_pyfunction!(game::_game_editions, m)?)?;
    m.add_function(wrap_pyfunction!(game::_edition_key, m)?)?;
    m.add_function(wrap_pyfunction!(game::_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(metagame::_metagame, m)?)?;
    m.add_function(wrap_pyfunction!(metagame::_metagame_replicates, m)?)?;
    Ok(())
}
