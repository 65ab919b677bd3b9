//! The rule tables compiled once per process, so that no engine looks a rule up by name on a
//! hot path. Every name the tables of any edition use (a rule they define, one a condition
//! or an effect names) gets a [`RuleId`]; a [`Rule`](super::Rule) carries the id of its name
//! from the moment it is built. Per edition, each id's entries are flattened once: the rule's
//! own and those of the rules it gives ([`Effect::Gets`]), with the ids of the rules their
//! conditions and effects name resolved. The engines read [`entries`]; the name-keyed
//! [`effects::for_each_entry`] is this, after one look-up.

use super::effects::{self, Cond, Effect, RuleDef, RuleEffect};
use crate::edition::Edition;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// A rule name some rule table uses (or one of `ENGINE_NAMES`), as a small number. Other
/// names (rules the library does not model, or typos) share [`RuleId::NONE`]: they have no
/// entries and match no condition; compare their names, not their ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleId(u16);

/// Names the engines read in code on a hot path, given the first ids so that theirs are constants.
const ENGINE_NAMES: [&str; 2] = ["Caster", "Caster Group"];

impl RuleId {
    pub const NONE: RuleId = RuleId(u16::MAX);
    pub const CASTER: RuleId = RuleId(0);
    pub const CASTER_GROUP: RuleId = RuleId(1);

    /// The id of a name (one hash look-up: build time, never a hot path).
    pub fn of(name: &str) -> RuleId {
        index().ids.get(name).copied().unwrap_or(RuleId::NONE)
    }

    pub fn is_none(self) -> bool {
        self == RuleId::NONE
    }
}

/// One entry in play for a rule: the conditions of the entry that gives it (none for the
/// rule's own) and the entry itself, with the ids of the rules they name.
#[derive(Debug)]
pub struct Entry {
    /// The giving entry's conditions, which must hold as well as the entry's own.
    pub outer: &'static [Cond],
    pub entry: &'static RuleEffect,
    /// The rule each condition of `outer` then of `entry.conds` names, in that order
    /// ([`RuleId::NONE`] for a condition that names none).
    named: Box<[RuleId]>,
}

impl Entry {
    /// All the conditions the entry needs, each with the rule it names.
    pub fn conditions(&self) -> impl Iterator<Item = (Cond, RuleId)> + '_ {
        self.outer.iter().chain(self.entry.conds).copied().zip(self.named.iter().copied())
    }
}

struct Index {
    ids: FxHashMap<&'static str, RuleId>,
    /// Per edition (in `Edition::ALL`'s order), per id: the flattened entries.
    entries: Vec<Vec<Box<[Entry]>>>,
    /// Per edition: the definitions by name (checks, reports and cost features).
    definitions: Vec<FxHashMap<&'static str, &'static RuleDef>>,
}

/// The name a condition names, if any.
pub fn cond_name(c: Cond) -> Option<&'static str> {
    match c {
        Cond::AttackerLacks(n) | Cond::AttackerHas(n) | Cond::UnitHasAll(n) | Cond::TargetLacks(n) => Some(n),
        _ => None,
    }
}

/// The name an effect names, if any.
pub fn effect_name(e: Effect) -> Option<&'static str> {
    match e {
        Effect::Gets(n) | Effect::UnitGets(n) | Effect::Buff(n) | Effect::Debuff(n) => Some(n),
        _ => None,
    }
}

/// The definitions of an edition, the core's row winning over an army row of the same name
/// (as the rulebook's would), and what the books' spells give by the spells' words (v3.5).
fn definitions(edition: Edition) -> FxHashMap<&'static str, &'static RuleDef> {
    let set = effects::rule_set(edition);
    let mut map = FxHashMap::default();
    // rows another edition's books lend this one's (Firefight: the GF books'), its own winning
    for d in super::army_firefight::inherited(edition).chain(set.army).chain(set.core) {
        map.insert(d.name, d);
    }
    if edition == Edition::V3_5 {
        for d in super::army::SPELL_GIVEN_3_5 {
            map.entry(d.name).or_insert(d);
        }
    }
    map
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let defs: Vec<_> = Edition::ALL.iter().map(|e| definitions(*e)).collect();
        // every name in every position, in a fixed order (so ids are the same in every process)
        let mut names: Vec<&'static str> = ENGINE_NAMES.to_vec();
        for e in Edition::ALL.iter() {
            let set = effects::rule_set(*e);
            let given: &[RuleDef] = if *e == Edition::V3_5 { super::army::SPELL_GIVEN_3_5 } else { &[] };
            for d in set.core.iter().chain(set.army).chain(given) {
                names.push(d.name);
                for re in d.effects {
                    names.extend(re.conds.iter().filter_map(|c| cond_name(*c)));
                    names.extend(effect_name(re.effect));
                }
            }
        }
        let mut ids: FxHashMap<&'static str, RuleId> = FxHashMap::default();
        for n in names {
            // (u16::MAX is NONE's)
            let next = RuleId(u16::try_from(ids.len()).ok().filter(|&n| n < u16::MAX).expect("fewer rule names than u16::MAX"));
            ids.entry(n).or_insert(next);
        }
        let id = |n: &str| ids.get(n).copied().unwrap_or(RuleId::NONE);
        let entry = |outer: &'static [Cond], e: &'static RuleEffect| Entry {
            outer,
            entry: e,
            named: outer.iter().chain(e.conds).map(|c| cond_name(*c).map_or(RuleId::NONE, id)).collect(),
        };
        let entries = defs
            .iter()
            .map(|map| {
                let mut by_id: Vec<Box<[Entry]>> = (0..ids.len()).map(|_| Box::default()).collect();
                for (name, def) in map {
                    let mut flat = Vec::new();
                    for e in def.effects {
                        flat.push(entry(&[], e));
                        if let Effect::Gets(given) = e.effect {
                            if let Some(inner) = map.get(given) {
                                flat.extend(inner.effects.iter().filter(|ie| !matches!(ie.effect, Effect::Gets(_))).map(|ie| entry(e.conds, ie)));
                            }
                        }
                    }
                    by_id[usize::from(id(name).0)] = flat.into_boxed_slice();
                }
                by_id
            })
            .collect();
        Index { ids, entries, definitions: defs }
    })
}

/// The entries in play for a rule under an edition (none for a name no table defines).
#[inline]
pub fn entries(edition: Edition, id: RuleId) -> &'static [Entry] {
    if id.is_none() {
        return &[];
    }
    // (`Edition::ALL` is in the order of the variants)
    index().entries[edition as usize].get(usize::from(id.0)).map_or(&[], |b| &b[..])
}

/// The definition of a rule under an edition, if it has one.
pub fn definition(edition: Edition, name: &str) -> Option<&'static RuleDef> {
    index().definitions[edition as usize].get(name).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flattened entries are what `definition` and `Effect::Gets` say, name by name.
    #[test]
    fn entries_flatten_a_rule_and_the_rules_it_gives() {
        for edition in Edition::ALL.iter() {
            let defs = definitions(*edition);
            for (name, def) in &defs {
                assert_eq!(Edition::ALL[*edition as usize], *edition);
                let got = entries(*edition, RuleId::of(name));
                let mut want: Vec<(&[Cond], &RuleEffect)> = Vec::new();
                for e in def.effects {
                    want.push((&[], e));
                    if let Effect::Gets(g) = e.effect {
                        for ie in defs.get(g).map_or(&[][..], |d| d.effects).iter().filter(|ie| !matches!(ie.effect, Effect::Gets(_))) {
                            want.push((e.conds, ie));
                        }
                    }
                }
                assert_eq!(got.len(), want.len(), "{name} under {edition:?}");
                for (g, (outer, e)) in got.iter().zip(want) {
                    assert!(g.outer == outer && std::ptr::eq(g.entry, e), "{name} under {edition:?}");
                    for (c, id) in g.conditions() {
                        assert_eq!(id, cond_name(c).map_or(RuleId::NONE, RuleId::of), "{name}: {c:?}");
                    }
                }
            }
        }
        assert!(RuleId::of("No Such Rule").is_none() && entries(Edition::V3_5, RuleId::NONE).is_empty());
        assert!(!RuleId::of("Furious").is_none());
        assert_eq!((RuleId::of("Caster"), RuleId::of("Caster Group")), (RuleId::CASTER, RuleId::CASTER_GROUP));
        assert_eq!(ENGINE_NAMES.map(RuleId::of).to_vec(), (0..ENGINE_NAMES.len() as u16).map(RuleId).collect::<Vec<_>>());
    }

    /// A rule read back from its stored form (a pickle) finds its id again; the id is not stored.
    #[test]
    fn a_stored_rule_finds_its_id_again() {
        let rule = crate::rules::Rule::new("Furious", None);
        let text = serde_json::to_string(&rule).unwrap();
        assert!(!text.contains("id"), "{text}");
        let back: crate::rules::Rule = serde_json::from_str(&text).unwrap();
        assert_eq!((back.id(), back), (RuleId::of("Furious"), rule));
    }
}
