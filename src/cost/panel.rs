//! The reference units that costs and efficiency are measured against: a panel of targets
//! from light infantry to titans (Defense 6+ to 2+, Tough 1 to 12, with and without
//! Regeneration and cover), and reference attackers whose dice measure durability.
//!
//! They are invented profiles in the rulebook's notation, not OPR units, so that every
//! figure the library prints can be reproduced from this file alone.

use crate::edition::Edition;
use crate::error::Result;
use crate::profile::Unit;

/// A reference target: a profile, and whether it stands in cover (+1 Defense against shooting).
#[derive(Debug, Clone, Copy)]
pub struct ReferenceTarget {
    pub key: &'static str,
    pub profile: &'static str,
    pub cover: bool,
}

/// The panel of targets for offense (documented in `docs/points.md`).
pub const TARGETS: &[ReferenceTarget] = &[
    ReferenceTarget { key: "light-infantry", profile: "Light Infantry [10] Q5+ D6+", cover: false },
    ReferenceTarget { key: "infantry", profile: "Infantry [10] Q4+ D5+", cover: false },
    ReferenceTarget { key: "infantry-in-cover", profile: "Infantry [10] Q4+ D5+", cover: true },
    ReferenceTarget { key: "heavy-infantry", profile: "Heavy Infantry [5] Q4+ D4+", cover: false },
    ReferenceTarget { key: "elites", profile: "Elites [5] Q3+ D3+", cover: false },
    ReferenceTarget { key: "tough-elites", profile: "Tough Elites [3] Q3+ D3+ | Tough(3)", cover: false },
    ReferenceTarget { key: "regenerating-brutes", profile: "Regenerating Brutes [3] Q4+ D4+ | Tough(3), Regeneration", cover: false },
    ReferenceTarget { key: "monster", profile: "Monster [1] Q4+ D3+ | Tough(6)", cover: false },
    ReferenceTarget { key: "regenerating-monster", profile: "Regenerating Monster [1] Q4+ D3+ | Tough(6), Regeneration", cover: false },
    ReferenceTarget { key: "vehicle", profile: "Vehicle [1] Q4+ D2+ | Tough(6)", cover: false },
    ReferenceTarget { key: "titan", profile: "Titan [1] Q4+ D2+ | Tough(12)", cover: false },
];

/// A reference attacker for durability: a unit with a nominal price (what a unit of that
/// profile typically costs in the official books), and how it attacks.
#[derive(Debug, Clone, Copy)]
pub struct ReferenceAttacker {
    pub key: &'static str,
    pub profile: &'static str,
    pub melee: bool,
}

/// Reference attacks, one weapon each, from a Quality 4+ model: what durability is measured in.
pub const ATTACKERS: &[ReferenceAttacker] = &[
    ReferenceAttacker { key: "rifles", profile: "Rifle Squad [10] Q4+ D5+ | 100pts\n10x Rifle (24\", A1)", melee: false },
    ReferenceAttacker { key: "ap1-guns", profile: "Heavy Gun Squad [5] Q4+ D4+ | 110pts\n5x Heavy Gun (24\", A2, AP(1))", melee: false },
    ReferenceAttacker { key: "ap2-guns", profile: "Assault Gun Squad [5] Q4+ D4+ | 120pts\n5x Assault Gun (24\", A2, AP(2))", melee: false },
    ReferenceAttacker { key: "ap4-cannon", profile: "Cannon Team [3] Q4+ D4+ | 120pts\n3x Cannon (30\", A2, AP(4))", melee: false },
    ReferenceAttacker { key: "brawlers", profile: "Brawlers [10] Q4+ D5+ | 100pts\n10x CCW (A2)", melee: true },
    ReferenceAttacker { key: "ap2-blades", profile: "Blade Squad [5] Q4+ D4+ | 115pts\n5x Blade (A3, AP(2))", melee: true },
];

impl ReferenceTarget {
    pub fn unit(&self, edition: Edition) -> Result<Unit> {
        Unit::parse(self.profile, edition)
    }
}

impl ReferenceAttacker {
    pub fn unit(&self, edition: Edition) -> Result<Unit> {
        Unit::parse(self.profile, edition)
    }
}
