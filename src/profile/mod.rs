//! Profiles: the values that describe what is on the table. They are immutable, compare by
//! value and print in the rulebook's notation, which parses back to the same value.

pub mod unit;
pub mod weapon;

pub use unit::{Item, Model, ModelGroup, Unit, UnitRule};
pub use weapon::Weapon;
