//! Points: what a unit's profile is worth, measured by what the exact engine says it does.
//!
//! `panel` holds the reference targets and attackers; `features` turns a unit into priced
//! terms (profile, weapons, rules); `efficiency` measures damage per point with the full
//! exact engine. Fitting weights to the official costs is plain least squares and lives in
//! the Python layer (numpy); the weights ship as a small parameter file.

pub mod efficiency;
pub mod features;
pub mod panel;
