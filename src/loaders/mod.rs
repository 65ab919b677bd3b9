//! Loaders for the formats users already have: Army Forge army books (JSON) and army lists
//! (the text export).

pub mod army_forge;
pub mod army_list;
pub mod upgrades;

pub use army_forge::{ArmyBook, BookUnit, Gain, RuleDefinition, Selector, UnitOption, UpgradeOption, UpgradePackage, UpgradeSection};
pub use army_list::Army;
