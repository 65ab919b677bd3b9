//! Firefight's Blast on the table (editions-game.md FF-F6): "Each attack from this weapon
//! ignores cover and multiplies its hits by X, however it can't deal more than one hit per
//! model. When attacking, you must split all hits evenly among enemies models within 3" of a
//! single model (target picks how)."
//!
//! The attack engine plays the target unit: each hit becomes as many hits as X and the
//! target's models allow. Here the hits the target's models could not take go to the other
//! enemy models within 3" of it, at most one hit per model and attack: the defender puts them
//! on the units nearest the target first (docs/editions.md). Each unit hit then takes them as
//! automatic hits with the weapon's other rules, and checks its own wound effects.

use super::decisions::Player;
use super::live::Id;
use super::play::Game;
use super::config::Event;
use super::rules::BlastHits;
use crate::attack::plan::{Group, GroupKind, Situation};

/// A Blast group's hits on the target, for the spill: the group, the attacks that hit
/// (before Blast multiplied them), its X, and the target's models left when it fired.
pub(super) struct Blasted {
    pub group: Group,
    pub hits: u32,
    pub x: u32,
    pub target_models: u32,
}

impl Blasted {
    /// `group`'s share of a volley that scored `hits` on a unit of `models` models, if the
    /// edition spills Blast and the group has Blast(X) with X above those models.
    pub fn of(blast: BlastHits, group: &Group, hits: u32, models: u32) -> Option<Blasted> {
        let BlastHits::SpillOver { .. } = blast else { return None };
        let x = group.rules.iter().find(|r| r.name == "Blast").and_then(|r| r.number()).and_then(|x| u32::try_from(x).ok())?;
        let per = x.min(models).max(1);
        // (another multiplier on the same hits would make the count ambiguous: not spilled)
        (x > models && hits % per == 0 && hits > 0).then(|| Blasted { group: group.clone(), hits: hits / per, x, target_models: models })
    }
}

impl<'a, P: Player> Game<'a, P> {
    /// The enemy models of `target`'s army, other than `target`'s, within `within` of one of
    /// its models: per unit, nearest first.
    fn near_blast(&self, target: Id, within: f64) -> Vec<(Id, u32)> {
        let ours: Vec<_> = self.models(target).map(|(_, p, r)| (p, r)).collect();
        let mut out: Vec<(f64, Id, u32)> = Vec::new();
        for u in self.on_table(target.0) {
            if u == target || !self.within(u, target, within) {
                continue;
            }
            let near = self.models(u).filter(|&(_, q, rq)| ours.iter().any(|&(p, r)| p.distance(q) - r - rq <= within + 1e-9)).count() as u32;
            if near > 0 {
                out.push((self.gap(u, target), u, near));
            }
        }
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        out.into_iter().map(|(_, u, n)| (u, n)).collect()
    }

    /// The hits of `blasts` (`by`'s shots at `target`) that spill onto other enemy units.
    pub(super) fn blast_spill(&mut self, by: Id, target: Id, blasts: Vec<Blasted>, situation: &Situation) {
        let BlastHits::SpillOver { within } = self.rules.blast else { return };
        if blasts.is_empty() {
            return;
        }
        let near = self.near_blast(target, within);
        if near.is_empty() {
            return;
        }
        let others: u32 = near.iter().map(|(_, n)| n).sum();
        for b in blasts {
            // per attack: X hits, one a model, over the target's models and those near it
            // (`Blasted::of` keeps only X above the target's models)
            let spill_each = b.x.min(b.target_models + others) - b.target_models;
            let mut left = spill_each * b.hits;
            let rules: std::sync::Arc<[crate::rules::Rule]> = b.group.rules.iter().filter(|r| r.name != "Blast").cloned().collect();
            let label = format!("{} (Blast)", b.group.label);
            for &(u, n) in &near {
                if left == 0 {
                    break;
                }
                // a unit an earlier group destroyed takes none: the hits go to the next
                if self.live(u).gone {
                    continue;
                }
                let take = left.min(n * b.hits);
                left -= take;
                let group = Group { label: label.clone(), kind: GroupKind::AutomaticHits, dice: take, quality: 2, rules: rules.clone(), takedown: false, deadly: b.group.deadly };
                let r = self.roll_hits(by, u, &group, situation);
                self.event(|g| Event {
                    dice: r.dice,
                    hits: r.hits,
                    wounds: r.wounds,
                    models_left: g.info(u).alloc.alive(r.end),
                    detail: group.label.clone(),
                    ..Event::between("blast-spill", by, u, g.live(by).pos, g.live(u).pos)
                });
            }
        }
    }
}
