//! Shot plans: which models fire which weapons at a target from where they stand, and the
//! groups, situation and die models the dice then need (found once per key and kept, a pure
//! function of it). The policy values targets with them; `shooting` rolls their dice.

use super::prepare::RunGuns;
use super::held_rules::BuffUse;
use super::config::Short;
use crate::attack::plan;
use crate::attack::plan::Pick;
use crate::attack::plan::Situation;
use crate::attack::options;
use crate::attack::options::Settled;
use crate::attack::sample::FacesTable;
use crate::cost::features::group_expected_wounds;
use std::hash::BuildHasher;
use super::sight::Sight;
use super::state::distance_class;
use super::live::Id;
use super::prepare::bit;
use super::cache::ShotKey;
use super::cache::ShotPlan;
use super::state::View;

impl<'a> View<'a> {
    /// The held rules of `target` in `mask` that an attack making `hits` hits used: all of
    /// them if it hit, else those acting on the rolls to hit ("next time the effect would
    /// apply": no hit, no Defense roll).
    pub(super) fn used_on_hits(&self, target: Id, mask: u16, hits: u32) -> u16 {
        self.info(target).held(mask).filter(|(_, b)| hits > 0 || !b.needs_hits()).fold(0, |m, (bit, _)| m | bit)
    }

    /// The key of `id`'s shot at `target` from where both stand now, its plan made and
    /// cached; `None` when no weapon can fire at it. "All models in a unit with line of sight
    /// to the target, and that have a weapon that is within range of it, may fire at it":
    /// each model fires the weapons in range of the closest target model it sees (Indirect
    /// weapons: the closest at all).
    pub fn shot_key(&self, id: Id, target: Id, sight: Sight, moved: bool) -> Option<ShotKey> {
        self.shot(id, target, sight, moved).map(|(key, _)| key)
    }

    /// `shot_key`, with the shot's plan (one look-up for both). The plan is borrowed from the
    /// cache: let it go before another plan is made (a `RefCell`, which would panic).
    pub(super) fn shot(&self, id: Id, target: Id, sight: Sight, moved: bool) -> Option<(ShotKey, std::cell::Ref<'_, ShotPlan>)> {
        let distance = self.gap(id, target).ceil();
        let (shooter, marked) = self.attack_rules(id, target, BuffUse::Attack { melee: false, charging: false, distance });
        // a rule it shoots with once makes every ranged weapon Indirect ("Indirect when shooting")
        let all_indirect = self.info(id).held(shooter).any(|(_, b)| b.indirect);
        if distance > f64::from(u16::MAX) || (!sight.visible && self.info(id).indirect.is_empty() && !all_indirect) {
            return None;
        }
        if self.cache.seen.borrow().for_pair != Some(self.pair_key(id, target)) {
            self.sight(id, target);
        }
        let arrived = self.info(id).tricks.arrival_rules && self.live(id).arrived == self.round;
        let mut firing = Short::new();
        self.firing(id, target, (moved, arrived, shooter, all_indirect), &mut firing);
        if firing.is_empty() {
            return None;
        }
        // the plan needs the distance only where a rule tells distances apart (which models
        // reach the target is in `firing`): the smallest distance of its class between two
        // marks stands for it, so every weapon in range stays in range
        let class = distance_class(self.info(id), self.info(target), distance);
        let live = self.live(id);
        // Indirect "ignores cover from sight obstructions": out of sight only Indirect
        // weapons fire, and only the cover of the terrain the target stands in counts
        let cover = if sight.visible { sight.cover } else { sight.cover_inside };
        let key = ShotKey {
            army: id.0 as u8,
            unit: id.1 as u16,
            firing: rustc_hash::FxBuildHasher.hash_one(&firing),
            target: target.1 as u16,
            distance: class,
            cover,
            visible: sight.visible,
            limited_spent: live.limited_spent,
            moved,
            target_moved: self.info(target).tricks.stationary_rules && self.live(target).moved,
            arrived,
            buff: self.held_for(target, BuffUse::Shot(distance)),
            shooter,
            marked,
        };
        // the hash is checked against the models it stands for: a collision rebuilds the plan
        let kept = std::cell::Ref::filter_map(self.cache.shots.borrow(), |shots| shots.get(&key).filter(|p| p.firing[..] == firing[..])).ok();
        let plan = kept.unwrap_or_else(|| {
            let plan = self.new_shot_plan(id, target, key, firing.to_vec());
            self.cache.shots.borrow_mut().insert(key, plan);
            self.plan(&key)
        });
        (!plan.groups.is_empty()).then_some((key, plan))
    }

    /// Which models of `id` fire which weapons at `target` (from `seen`), with the held rules
    /// `shooter` (`all_indirect`: they make every ranged weapon Indirect): (run of the
    /// allocation, weapons of its model as bits, models), sorted, into `out` (a list the
    /// caller holds: no copy of it on return).
    pub(super) fn firing(&self, id: Id, target: Id, (moved, arrived, shooter, all_indirect): (bool, bool, u16, bool), out: &mut Short<(usize, u64, u32)>) {
        let info = self.info(id);
        let spent = self.live(id).limited_spent;
        // per run: the weapons that shoot (named ranged weapons not spent), and the Indirect ones
        let masks: Short<(u64, u64)> = info
            .guns
            .iter()
            .map(|guns| {
                let shoots = guns.ranged & !guns.spent(spent);
                (shoots, if all_indirect { shoots } else { guns.indirect & shoots })
            })
            .collect();
        let tkey = self.formation_key(target);
        out.clear();
        let seen = self.cache.seen.borrow();
        // models of a run mostly stand the same whole inches away: the last answer of
        // `usable` (a cache look-up) serves the next model that asks the same
        let mut last: Option<((usize, u16), u64)> = None;
        let mut usable = |run: usize, distance: f64| {
            let inches = Self::whole_inches(distance);
            match last {
                Some((key, m)) if key == (run, inches) => m,
                _ => {
                    let m = self.usable((id, shooter), run, target, tkey, distance, moved, arrived);
                    last = Some(((run, inches), m));
                    m
                }
            }
        };
        for &(slot, in_sight, any) in &seen.models {
            let run = info.slot_run[slot];
            let (shoots, indirect) = masks[run];
            if shoots == 0 {
                continue;
            }
            let mut mask = 0;
            if in_sight.is_finite() {
                mask |= usable(run, in_sight) & shoots;
            }
            if indirect != 0 {
                mask |= usable(run, any) & indirect;
            }
            if mask != 0 {
                match out.iter_mut().find(|(r, m, _)| *r == run && *m == mask) {
                    Some(e) => e.2 += 1,
                    None => out.push((run, mask, 1)),
                }
            }
        }
        drop(seen);
        out.sort_unstable();
    }

    /// The weapons of a model of `id`'s run `run` that may fire at `target` from `distance`
    /// inches (`plan::usable_weapons`, which knows range bonuses and penalties), cached.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn usable(&self, (id, shooter): (Id, u16), run: usize, target: Id, tkey: (u32, bool), distance: f64, moved: bool, arrived: bool) -> u64 {
        let inches = Self::whole_inches(distance);
        let key = (id, shooter, run, target, tkey, inches, moved, arrived);
        if let Some(&m) = self.cache.usable.borrow().get(&key) {
            return m;
        }
        let situation = Situation { moved, arrived, ..Situation::new(self.prep.edition, false, f64::from(inches)) };
        let talloc = &self.info(target).alloc;
        let alive = talloc.view(self.live(target).s, false).alive;
        let m = plan::usable_weapons(&self.alloc_of(id, shooter).runs[run].0, &alive, &situation, Pick::All);
        self.cache.usable.borrow_mut().insert(key, m);
        m
    }

    /// A distance as `usable` keys it: whole inches, rounded up.
    #[inline(always)]
    fn whole_inches(distance: f64) -> u16 {
        distance.ceil().min(f64::from(u16::MAX)) as u16
    }

    #[inline]
    pub fn plan(&self, key: &ShotKey) -> std::cell::Ref<'_, ShotPlan> {
        std::cell::Ref::map(self.cache.shots.borrow(), |shots| &shots[key])
    }

    pub(super) fn new_shot_plan(&self, id: Id, target: Id, key: ShotKey, firing: Vec<(usize, u64, u32)>) -> ShotPlan {
        let info = self.info(id);
        let talloc = self.alloc_of(target, key.buff);
        let situation = Situation {
            cover: key.cover,
            moved: key.moved,
            target_moved: key.target_moved,
            arrived: key.arrived,
            ..Situation::new(self.prep.edition, false, f64::from(key.distance))
        };
        // the firing models, each with the weapons it fires
        let runs = &self.alloc_of(id, key.shooter).runs;
        let owned: Vec<(crate::profile::Model, u32)> = firing
            .iter()
            .map(|&(run, mask, n)| {
                let mut m = runs[run].0.clone();
                m.weapons = m.weapons.iter().enumerate().filter(|&(i, _)| mask & bit(i) != 0).map(|(_, w)| w.clone()).collect();
                (m, n)
            })
            .collect();
        let attacking: Vec<(&crate::profile::Model, u32)> = owned.iter().map(|(m, n)| (m, *n)).collect();
        let names = &info.ranged;
        let fresh = talloc.start();
        // rules with options (Versatile Attack, Unpredictable Shooter, Versatile Defense):
        // every way the shot is played, settled as `attack()` settles them
        let held_options = info.held(key.shooter).any(|(_, b)| b.options);
        let settled = if info.tricks.options || held_options || self.info(target).tricks.options {
            options::settle(&attacking, talloc, fresh, &situation, Pick::Named(names))
        } else {
            vec![Settled { attacker: 0, target: 0, weight: 1.0 }]
        };
        let variants: Vec<(Situation, f64)> = settled.iter().map(|v| (Situation { attacker_option: v.attacker, target_option: v.target, ..situation }, v.weight)).collect();
        // options change rolls, not which weapons fire: the groups are those of any variant
        let groups = plan::groups(&attacking, &talloc.view(fresh, false).alive, &variants[0].0, Pick::Named(names));
        let expected = groups.iter().map(|g| variants.iter().map(|(s, w)| w * group_expected_wounds(g, s, talloc, fresh)).sum()).collect();
        let models = vec![FacesTable::default(); variants.len()];
        let labels: Vec<u64> = groups.iter().map(|g| rustc_hash::FxBuildHasher.hash_one(&g.label)).collect();
        let keys = variants.iter().map(|(s, _)| [s.attacker_option, s.target_option]).collect();
        let option_labels = if variants.len() > 1 || info.tricks.options || held_options || self.info(target).tricks.options {
            variants
                .iter()
                .map(|(s, _)| {
                    let mine = options::describe(self.prep.edition, &attacking, true, false, true, s.attacker_option);
                    let theirs = options::describe(self.prep.edition, &talloc.view(fresh, false).alive, false, false, false, s.target_option);
                    [mine, theirs].into_iter().flatten().collect::<Vec<_>>().join("; ")
                })
                .collect()
        } else {
            vec![String::new()]
        };
        let limited = limited_by_group(&labels, runs, &firing, &info.guns);
        ShotPlan { groups, labels, situation, expected, variants, keys, option_labels, models, firing, limited }
    }
}

/// The Limited weapons each group fires (bits by their index in `UnitInfo::limited`, as
/// `RunGuns::limited` gives them): a group gathers the fired weapons of its profile, as
/// `plan::groups` labels it (`labels`: the groups' labels hashed), so the bits are found once
/// per plan and a shot reads them; the weapons' Limited rule was read once, when the armies
/// were prepared (`RunGuns::limited`). Buffed allocations keep the runs and weapons, so
/// the bits hold for every allocation a unit shoots with.
fn limited_by_group(labels: &[u64], runs: &[(crate::profile::Model, u32)], firing: &[(usize, u64, u32)], guns: &[RunGuns]) -> Vec<u32> {
    let mut out = vec![0u32; labels.len()];
    for &(run, mask, _) in firing {
        for &(i, index, carries) in &guns[run].limited {
            if !carries || mask & bit(i) == 0 {
                continue;
            }
            let hash = rustc_hash::FxBuildHasher.hash_one(runs[run].0.weapons[i].profile());
            for (gi, label) in labels.iter().enumerate() {
                if *label == hash {
                    out[gi] |= 1 << index;
                }
            }
        }
    }
    out
}
