//! Shooting: "Each group may be fired at a different target, however you may fire only at up
//! to two different targets"; the shot's plan (groups, situation, die models) found once per
//! key and reused; hits, wounds and the models removed.

use crate::game::state::View;
use crate::game::cache::ShotKey;
use crate::game::cache::ShotPlan;
use super::prepare::BuffUse;
use super::table::Point;
use super::config::Short;
use crate::attack::allocation::State;
use crate::attack::plan::{self, Group, Pick, Situation};
use crate::attack::options::{self, Settled};
use crate::attack::sample::{roll_attack, roll_options, Faces, FacesTable};
use crate::cost::features::group_expected_wounds;
use std::hash::BuildHasher;
use super::paths::Path;
use super::sight::Sight;
use super::state::{EPS, Game, Id, Touched, distance_class};
use super::prepare::bit;
use super::config::Event;

impl<'a> View<'a> {

    /// The held rules of `target` in `mask` that an attack making `hits` hits used: all of
    /// them if it hit, else those acting on the rolls to hit ("next time the effect would
    /// apply": no hit, no Defense roll).
    pub(super) fn used_on_hits(&self, target: Id, mask: u16, hits: u32) -> u16 {
        self.info(target).held(mask).filter(|(_, b)| hits > 0 || !b.needs_hits()).fold(0, |m, (bit, _)| m | bit)
    }

    /// `target` takes the wounds of an attack of `by` (not a melee's) that ended in state
    /// `end`: its state, both units' tallies, and whether it is destroyed.
    pub(super) fn take_wounds(&mut self, by: Id, target: Id, end: State, wounds: u32) {
        self.live_mut(by).dealt += wounds;
        self.set_state(target, end);
        let destroyed = self.info(target).alloc.destroyed(end);
        let tl = self.live_mut(target);
        tl.taken += wounds;
        if destroyed {
            tl.gone = true;
        }
    }

    /// The key of `id`'s shot at `target` from where both stand now, its plan made and
    /// cached; `None` when no weapon can fire at it. "All models in a unit with line of sight
    /// to the target, and that have a weapon that is within range of it, may fire at it":
    /// each model fires the weapons in range of the closest target model it sees (Indirect
    /// weapons: the closest at all).
    pub fn shot_key(&self, id: Id, target: Id, sight: Sight, moved: bool) -> Option<ShotKey> {
        let distance = self.gap(id, target).ceil();
        let (shooter, marked) = self.attack_rules(id, target, BuffUse::Attack { melee: false, charging: false, distance });
        // a rule it shoots with once makes every ranged weapon Indirect ("Indirect when shooting")
        let all_indirect = self.info(id).held(shooter).any(|(_, b)| b.indirect);
        if distance > f64::from(u16::MAX) || (!sight.visible && self.info(id).indirect.is_empty() && !all_indirect) {
            return None;
        }
        if self.seen.borrow().for_pair != Some(self.pair_key(id, target)) {
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
            arrived,
            buff: self.held_for(target, BuffUse::Shot(distance)),
            shooter,
            marked,
        };
        // the hash is checked against the models it stands for: a collision rebuilds the plan
        if self.cache.shots.borrow().get(&key).is_none_or(|p| p.firing[..] != firing[..]) {
            let plan = self.new_shot_plan(id, target, key, firing.to_vec());
            self.cache.shots.borrow_mut().insert(key, plan);
        }
        (!self.cache.shots.borrow()[&key].groups.is_empty()).then_some(key)
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
        let seen = self.seen.borrow();
        for &(slot, in_sight, any) in &seen.models {
            let run = info.slot_run[slot];
            let (shoots, indirect) = masks[run];
            if shoots == 0 {
                continue;
            }
            let mut mask = 0;
            if in_sight.is_finite() {
                mask |= self.usable((id, shooter), run, target, tkey, in_sight, moved, arrived) & shoots;
            }
            if indirect != 0 {
                mask |= self.usable((id, shooter), run, target, tkey, any, moved, arrived) & indirect;
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
        let inches = distance.ceil().min(f64::from(u16::MAX)) as u16;
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

    pub fn plan(&self, key: &ShotKey) -> std::cell::Ref<'_, ShotPlan> {
        std::cell::Ref::map(self.cache.shots.borrow(), |shots| &shots[key])
    }

    pub(super) fn new_shot_plan(&self, id: Id, target: Id, key: ShotKey, firing: Vec<(usize, u64, u32)>) -> ShotPlan {
        let info = self.info(id);
        let talloc = self.alloc_of(target, key.buff);
        let situation = Situation {
            cover: key.cover,
            moved: key.moved,
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
        let labels = groups.iter().map(|g| rustc_hash::FxBuildHasher.hash_one(&g.label)).collect();
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
        ShotPlan { groups, labels, situation, expected, variants, keys, option_labels, models, firing }
    }

}

impl<'a> Game<'a> {
    /// `group`'s hits of `by` on `target` in `situation`, rolled as `attack()` rolls them, and
    /// taken (`take_wounds`).
    pub(super) fn roll_hits(&mut self, by: Id, target: Id, group: &Group, situation: &Situation) -> crate::attack::sample::Rolled {
        // a rule the target holds once acts on a spell's hits as on a shot's ("which gets -1 to
        // defense rolls once": a spell's hits are blocked with Defense rolls)
        let held = if situation.spell { self.held_for(target, BuffUse::Spell(situation.distance)) } else { 0 };
        let talloc = self.alloc_of(target, held);
        let before = self.live(target).s;
        let r = roll_attack(talloc, std::slice::from_ref(group), before, &mut self.rng, |_, s| Faces::at(group, situation, talloc, s));
        self.dice += r.dice;
        self.take_wounds(by, target, r.end, r.wounds);
        let used = self.used_on_hits(target, held, r.hits);
        self.spend_held(target, used, "spell");
        r
    }

    /// Shooting: the policy picks up to two targets and which weapon groups fire at each
    /// ("you may fire only at up to two different targets"); all are declared, then rolled.
    /// Rules with options are settled once for the shooting: a roll ("roll one die") or a
    /// pick ("pick one effect ... until the end of the activation") made for the first
    /// target holds for the second. Whether the unit fired.
    pub(super) fn shoot(&mut self, id: Id, moved: bool, touched: &mut Touched) -> bool {
        let volleys = self.ask(|p, v, r| p.shots(v, r, id, moved));
        let fired = !volleys.is_empty();
        let mut option: Option<u8> = None;
        // "you may fire only at up to two different targets": the rules hold the policy to it
        let cap = self.rules.max_targets.map_or(usize::MAX, usize::from);
        for volley in volleys.into_iter().take(cap) {
            let target = volley.target;
            let before = self.live(target).s;
            if self.live(target).gone {
                continue;
            }
            if !touched.iter().any(|(t, _)| *t == target) {
                touched.push((target, before));
            }
            let t = self.clock();
            let key = volley.key;
            let talloc = self.alloc_of(target, key.buff);
            let prep = self.prep;
            let plan = self.view.cache.shots.get_mut().get_mut(&key).expect("the policy made the shot plan");
            // which way the shot is played: the attacker's option as settled for the first
            // target, the target's by its own pick or roll
            let vi = match option {
                None => roll_options(&plan.keys, &mut self.rng),
                Some(o) => {
                    let same: Vec<usize> = (0..plan.keys.len()).filter(|&v| plan.keys[v][0] == o).collect();
                    match same.len() {
                        0 => 0,
                        1 => same[0],
                        _ => same[roll_options(&same.iter().map(|&v| plan.keys[v]).collect::<Vec<_>>(), &mut self.rng)],
                    }
                }
            };
            let attacker_option = *option.get_or_insert(plan.keys[vi][0]);
            // a pick made for the first target that this target's plan did not settle on
            let situation = Situation { attacker_option, ..plan.variants[vi].0 };
            let cached = situation == plan.variants[vi].0;
            let mut state = before;
            let (mut hits, mut wounds, mut dice) = (0, 0, 0);
            // Limited weapons fired in this volley, by their bit in `UnitInfo::limited`
            let mut limited = 0u32;
            for &gi in &volley.groups {
                let group = &plan.groups[gi];
                if group.rules.iter().any(|r| r.name == "Limited") {
                    // a group's label is its weapon's profile, "Name (...)", and names hold no '('
                    let name = group.label.split(" (").next().unwrap_or("");
                    if let Some(i) = prep.armies[id.0][id.1].limited.iter().position(|l| l == name).filter(|i| *i < 32) {
                        limited |= 1 << i;
                    }
                }
                let models = &mut plan.models[vi];
                let r = roll_attack(talloc, std::slice::from_ref(group), state, &mut self.rng, |_, s| {
                    let model = || plan::die_model(group, &situation, &talloc.view(s, group.takedown));
                    if cached { models.get(gi, talloc.index(s), talloc.state_count(), model) } else { Faces::of(&model()) }
                });
                state = r.end;
                hits += r.hits;
                wounds += r.wounds;
                dice += r.dice;
            }
            // what the trace says of the options played (only for a trace)
            let options_played = if self.trace.is_none() {
                String::new()
            } else if cached {
                plan.option_labels[vi].clone()
            } else {
                let attacking = self.info(id).alloc.view(self.live(id).s, false).alive;
                options::describe(self.prep.edition, &attacking, true, false, true, attacker_option).unwrap_or_default()
            };
            self.dice += dice;
            self.lap(t, |x| &mut x.dice);
            self.live_mut(id).limited_spent |= limited;
            self.take_wounds(id, target, state, wounds);
            // "next time the effect would apply": a shot that hits nothing makes no Defense roll
            let used = self.used_on_hits(target, key.buff, hits);
            self.spend_held(target, used, "shot");
            if key.marked {
                self.spend_mark(target, id, "shot");
            }
            self.spend_held(id, key.shooter, "shooting");
            self.event(|g| {
                let plan = g.plan(&key);
                let mut labels = volley.groups.iter().map(|&gi| plan.groups[gi].label.clone()).collect::<Vec<_>>().join(" + ");
                // what a player would say of the shot: models out of range or sight, cover
                let firing: u32 = plan.firing.iter().map(|f| f.2).sum();
                let left = g.live(id).left;
                if firing < left {
                    labels.push_str(&format!("; {firing} of {left} models fire"));
                }
                if key.cover {
                    labels.push_str("; target in cover");
                }
                Event {
                    dice,
                    hits,
                    wounds,
                    models_left: talloc.alive(state),
                    detail: if options_played.is_empty() { labels } else { format!("{labels} [{options_played}]") },
                    ..Event::between("shoot", id, target, g.live(id).pos, g.live(target).pos)
                }
            });
        }
        fired
    }

    /// "Once per activation, when this model moves through enemy units, pick one of them and
    /// attack it with this weapon as if it was shooting" (`Effect::OnlyMovingThrough`:
    /// Strafing): after a move from `from` along `path` that crossed enemy units (the mover's
    /// disc over theirs: Aircraft and Flying units move through units), the policy picks one
    /// and the weapons that only attack so attack it, at Quality and with their rules as when
    /// shooting, at no range.
    pub(super) fn strafe(&mut self, id: Id, from: Point, path: Path, touched: &mut Touched) {
        if !self.info(id).strafing || self.live(id).gone {
            return;
        }
        let r = self.radius(id);
        let crossed: Vec<Id> = self
            .on_table(1 - id.0)
            .filter(|&e| {
                let (p, er) = (self.live(e).pos, self.radius(e));
                path.legs(from).any(|(a, b)| p.distance_to_segment(a, b) < er + r - EPS)
            })
            .collect();
        if crossed.is_empty() {
            return;
        }
        let t = self.clock();
        let situation = Situation { moving_through: true, ..Situation::new(self.prep.edition, false, 0.0) };
        let attacking = self.info(id).alloc.view(self.live(id).s, false).alive;
        let plans: Vec<(Id, Vec<Group>)> = crossed
            .into_iter()
            .map(|e| {
                let talloc = &self.info(e).alloc;
                (e, plan::groups(&attacking, &talloc.view(self.live(e).s, false).alive, &situation, Pick::All))
            })
            .filter(|(_, g)| !g.is_empty())
            .collect();
        let Some(target) = self.ask(|p, v, r| p.strafe_target(v, r, id.0, &plans, &situation)) else { return };
        let groups = &plans.iter().find(|(e, _)| *e == target).expect("a crossed unit").1;
        let tinfo = self.info(target);
        let before = self.live(target).s;
        let target_at = self.live(target).pos;
        if !touched.iter().any(|(t, _)| *t == target) {
            touched.push((target, before));
        }
        let mut ordered: Vec<&Group> = groups.iter().collect();
        ordered.sort_by_key(|g| g.priority());
        let (mut state, mut hits, mut wounds, mut dice) = (before, 0, 0, 0);
        for group in ordered {
            let res = roll_attack(&tinfo.alloc, std::slice::from_ref(group), state, &mut self.rng, |_, s| Faces::at(group, &situation, &tinfo.alloc, s));
            state = res.end;
            hits += res.hits;
            wounds += res.wounds;
            dice += res.dice;
        }
        self.dice += dice;
        self.lap(t, |x| &mut x.dice);
        self.take_wounds(id, target, state, wounds);
        let labels = groups.iter().map(|g| g.label.clone()).collect::<Vec<_>>().join(" + ");
        self.event(|g| Event { dice, hits, wounds, models_left: tinfo.alloc.alive(state), detail: labels, ..Event::between("strafe", id, target, g.live(id).pos, target_at) });
    }
}
