//! Hard limits on inputs. They are far above anything in a real army book (the largest
//! unit has 20 models, the largest weapon 24 attacks, the largest rating Tough(24)), and
//! low enough that no input can make the library hang or eat the machine.

/// Models in one unit (all of its model groups together).
pub const MAX_MODELS: u32 = 1_000;
/// Attacks of one weapon profile.
pub const MAX_ATTACKS: u32 = 1_000;
/// Copies of one weapon in a unit.
pub const MAX_WEAPON_COUNT: u32 = 1_000;
/// Weapon entries, rules or items of one model group, each list apart (a real unit lists a
/// dozen at most): what any engine does with a unit grows with them, and a unit within every
/// other limit is then refused or answered in a fraction of a second.
pub const MAX_ENTRIES: usize = 100;
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

// What the engines may be asked to compute. Each is checked before any work starts, so a
// request over it is refused at once (see docs/limits.md, which lists them all).

/// Units one army list may hold after its `Nx` copies are expanded (the real maximum is
/// about 40 in a 4,000-point list).
pub const MAX_ARMY_UNITS: usize = 1_000;
/// Attack dice one exact computation takes (all groups together, Impact included).
pub const MAX_EXACT_DICE: u64 = 5_000;
/// Hits one exact computation can produce: dice after the multipliers (Blast, hits on 6s,
/// extra dice), since the distributions are as long as this.
pub const MAX_EXACT_HITS: u64 = 5_000;
/// Hits one die can deal in the exact engine: its outcomes are enumerated face by face,
/// a cost that grows with the fourth power of this.
pub const MAX_EXACT_HITS_PER_DIE: u64 = 100;
/// States of the target in one exact attack (models × Tough × a joined hero's Tough): the
/// engine keeps a distribution per state.
pub const MAX_EXACT_STATES: u64 = 250_000;
/// The exact engine's work in elementary steps, as `attack::budget` estimates it (the joint
/// distributions of several weapon groups cost dice³; the state propagation states × wounds
/// × hits). The estimate is an upper bound: the largest accepted requests take 1 to 4 s.
pub const MAX_EXACT_WORK: u64 = 30_000_000_000;
/// State pairs × hits (after multipliers) of all the steps of one exact melee: each pair
/// carries distributions as long as the hits. 240,000 pairs × 4,000 hits took three minutes;
/// at this limit the largest melees take a few seconds.
pub const MAX_EXACT_MELEE_WORK: u64 = 50_000_000;
/// State pairs × hits of all the melees of one table of matchups (`matchups`): what its
/// melees' time grows with. Every unit of the 43 books against every unit, charging and
/// charged, is 2.3 × 10^9 (about a minute on 2 cores).
pub const MAX_TABLE_MELEE_WORK: u64 = 100 * MAX_EXACT_MELEE_WORK;
/// Cells of memory one exact computation may hold at once (8 bytes each): 1 GiB.
pub const MAX_EXACT_CELLS: u64 = 1 << 27;
/// Samples one sampled attack or melee takes.
pub const MAX_SAMPLES: u64 = 100_000_000;
/// Dice rolled by one sampled call (samples × dice per sample): about a minute and a half.
pub const MAX_SAMPLED_DICE: u64 = 10_000_000_000;
/// Threads of a `threads=` pool (pools are built once per size and kept).
pub const MAX_THREADS: usize = 256;
/// Nesting depth of army book JSON (serde_json's own limit; real books nest 8 deep).
pub const MAX_JSON_DEPTH: usize = 128;
/// Target states × weapon groups of one sampled attack: the sampler keeps the index of a die
/// model for each (4 bytes, per thread; each distinct model once, about 190 bytes).
pub const MAX_SAMPLER_CELLS: u64 = 1 << 21;
/// Games × units of one `simulate` call (both armies' units, paired games counted twice):
/// what a run's time grows with. 10^7 games of 100-unit armies; real runs are 10^3 to 10^6
/// games of 10 to 40 units.
pub const MAX_UNIT_GAMES: u64 = 2_000_000_000;
/// Work of preparing one `simulate` run, counted before it starts: the melee of every
/// distinct pair of units, valued once for the policy (state pairs × hits where solved
/// exactly, 2,000 exchanges × hits where sampled). About ten seconds on two cores at this
/// limit; real 2,000-point armies need about 10^7, and 100 distinct 20-model units a side
/// about 1.5 × 10^9.
pub const MAX_PREPARATION_WORK: u64 = 2_000_000_000;
/// Attacker × target pairs of one attack table (`attack::table`).
pub const MAX_TABLE_PAIRS: u64 = 2_000_000;
/// The exact work of all of one table's attacks together: ten of the largest single attacks.
pub const MAX_TABLE_WORK: u64 = 10 * MAX_EXACT_WORK;
