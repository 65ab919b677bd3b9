//! Hard limits on inputs. They are far above anything in a real army book (the largest
//! unit has 20 models, the largest weapon 24 attacks, the largest rating Tough(24)), and
//! low enough that no input can make the library hang or eat the machine.

/// Models in one unit (all of its model groups together).
pub const MAX_MODELS: u32 = 1_000;
/// Attacks of one weapon profile.
pub const MAX_ATTACKS: u32 = 1_000;
/// Copies of one weapon in a unit.
pub const MAX_WEAPON_COUNT: u32 = 1_000;
/// Any numeric rule rating (Tough, AP, Blast, Deadly, ...).
pub const MAX_RATING: i64 = 1_000;
/// Weapon range in inches (the table is 72" long).
pub const MAX_RANGE: u32 = 1_000;
/// Points cost of one unit or option.
pub const MAX_COST: i64 = 1_000_000;
/// Characters of any text handed to a parser (a whole army list is a few kilobytes).
pub const MAX_TEXT: usize = 1 << 20;
/// Bytes of JSON handed to the army book loader (real books are 60 kB to 1 MB).
pub const MAX_JSON: usize = 64 << 20;
/// Characters of a name (unit, weapon, rule).
pub const MAX_NAME: usize = 200;
