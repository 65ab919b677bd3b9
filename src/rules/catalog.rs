//! The core special rules of each rulebook, by name, with the kind of rating they take.
//! This is the table that says which rules an edition *knows*; what a rule *does* lives with
//! the engines. Each entry follows the "Special Rules" section of the edition's text in
//! `../shared/rules/` (see `docs/rules.md`).

use crate::edition::Edition;

/// Where a rule is written: on a unit (`Tough(3)`) or on a weapon (`AP(1)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    Unit,
    Weapon,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Unit => "unit",
            Scope::Weapon => "weapon",
        }
    }
}

/// One core rule of one edition. `rated` rules are written `Name(X)` with a whole number X;
/// the others take no rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleSpec {
    pub name: &'static str,
    pub rated: bool,
    pub scope: Scope,
}

const fn u(name: &'static str) -> RuleSpec {
    RuleSpec { name, rated: false, scope: Scope::Unit }
}
const fn ux(name: &'static str) -> RuleSpec {
    RuleSpec { name, rated: true, scope: Scope::Unit }
}
const fn w(name: &'static str) -> RuleSpec {
    RuleSpec { name, rated: false, scope: Scope::Weapon }
}
const fn wx(name: &'static str) -> RuleSpec {
    RuleSpec { name, rated: true, scope: Scope::Weapon }
}

/// gf-3.5-beginners-guide.txt, "SPECIAL RULES REFERENCE".
const V3_5: &[RuleSpec] = &[
    u("Aircraft"), u("Ambush"), wx("AP"), u("Artillery"), w("Bane"), wx("Blast"), ux("Caster"),
    w("Counter"), wx("Deadly"), u("Fast"), ux("Fear"), u("Fearless"), u("Flying"), u("Furious"),
    u("Hero"), u("Immobile"), ux("Impact"), w("Indirect"), w("Limited"), u("Regeneration"),
    u("Relentless"), w("Reliable"), w("Rending"), u("Scout"), u("Slow"), u("Stealth"),
    u("Strider"), w("Surge"), w("Takedown"), w("Thrust"), ux("Tough"), ux("Transport"),
    w("Unstoppable"),
];

/// gf-3.4.1-core.txt, "Special Rules Reference".
const V3_4_1: &[RuleSpec] = &[
    u("Aircraft"), u("Ambush"), wx("AP"), wx("Blast"), ux("Caster"), w("Counter"), wx("Deadly"),
    u("Entrenched"), u("Fast"), ux("Fear"), u("Fearless"), u("Flying"), u("Furious"), u("Hero"),
    u("Immobile"), ux("Impact"), w("Indirect"), w("Lance"), w("Lock-On"), w("Limited"),
    w("Poison"), u("Regeneration"), u("Relentless"), w("Reliable"), w("Rending"), u("Scout"),
    u("Slow"), w("Sniper"), u("Stealth"), u("Strider"), ux("Tough"), ux("Transport"),
];

/// gf-2.x-one-page.txt, "Special Rules". Fear adds D3 wounds and takes no rating here.
const V2: &[RuleSpec] = &[
    u("Aircraft"), u("Ambush"), w("Anti-Air"), wx("AP"), wx("Blast"), wx("Deadly"), u("Fast"),
    u("Fear"), u("Fearless"), u("Flying"), u("Furious"), u("Hero"), u("Immobile"), ux("Impact"),
    w("Indirect"), w("Poison"), ux("Psychic"), u("Regeneration"), u("Relentless"), w("Rending"),
    u("Scout"), u("Slow"), w("Sniper"), u("Stealth"), u("Strider"), ux("Tough"), ux("Transport"),
];

/// gf-firefight-3.2.txt, "Special Rules".
const FIREFIGHT_3_2: &[RuleSpec] = &[
    u("Ambush"), wx("AP"), wx("Blast"), ux("Caster"), w("Counter"), wx("Deadly"), u("Fast"),
    ux("Fear"), u("Fearless"), u("Flying"), u("Furious"), u("Hero"), u("Immobile"), ux("Impact"),
    w("Indirect"), w("Lance"), w("Lock-On"), w("Limited"), w("Poison"), u("Regeneration"),
    u("Relentless"), w("Reliable"), w("Rending"), u("Scout"), u("Slow"), u("Stealth"),
    u("Strider"), ux("Tough"),
];

/// The core rules an edition knows, in the order its rulebook lists them.
pub fn catalog(edition: Edition) -> &'static [RuleSpec] {
    match edition {
        Edition::V3_5 => V3_5,
        Edition::V3_4_1 => V3_4_1,
        Edition::V2 => V2,
        Edition::Firefight3_2 => FIREFIGHT_3_2,
    }
}

/// The spec of a core rule by name (rulebook names are matched exactly, as Army Forge writes them).
pub fn lookup(edition: Edition, name: &str) -> Option<&'static RuleSpec> {
    catalog(edition).iter().find(|spec| spec.name == name)
}
