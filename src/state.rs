//! A unit's condition at some moment of a round, so that questions can be chained: a unit
//! that lost models to shooting can then be charged, or charge, as it is.

/// What has happened to a unit so far. Models are lost in the defender's removal order
/// (see `attack::allocation`), so `lost` and `wounds` say which models are left.
/// Ordered by its fields in this order, so state lists sort as a reader expects.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnitState {
    /// Models removed as casualties.
    pub lost: u32,
    /// Wounds on the next model to be removed (below its Tough).
    pub wounds: u32,
    /// Wounds a joined hero took out of the removal order (from Takedown), below its Tough.
    pub hero_wounds: u32,
    /// Shaken: "Shaken units must stay idle, but may strike back counting as fatigued,
    /// always fail morale tests".
    pub shaken: bool,
    /// Already attacked in melee this round: "units only hit on unmodified rolls of 6 in melee".
    pub fatigued: bool,
}

impl UnitState {
    pub const FRESH: UnitState = UnitState { lost: 0, wounds: 0, hero_wounds: 0, shaken: false, fatigued: false };
}

/// The mixture of several distributions of end states with these weights: equal states
/// merged, sorted.
pub fn mix_ends<'a>(parts: impl Iterator<Item = (&'a [(UnitState, f64)], f64)>) -> Vec<(UnitState, f64)> {
    let mut ends: rustc_hash::FxHashMap<UnitState, f64> = rustc_hash::FxHashMap::default();
    for (part, w) in parts {
        for (st, p) in part {
            *ends.entry(*st).or_insert(0.0) += w * p;
        }
    }
    let mut out: Vec<(UnitState, f64)> = ends.into_iter().collect();
    out.sort_unstable_by_key(|(st, _)| *st);
    out
}
