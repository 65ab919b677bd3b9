//! What the game's tests share.

use super::prepare::Prepared;
use crate::edition::Edition;
use crate::profile::Unit;

/// Two armies from units in the rulebook's notation, ready to play.
pub fn prep(a: &[&str], b: &[&str]) -> Prepared {
    let parse = |v: &[&str]| v.iter().map(|t| Unit::parse(t, Edition::V3_5).unwrap()).collect::<Vec<_>>();
    let (a, b) = (parse(a), parse(b));
    Prepared::new([&a, &b], Edition::V3_5, [2.0, 2.0]).unwrap()
}
