//! Shooting: "Each group may be fired at a different target, however you may fire only at up
//! to two different targets"; the shot's plan (groups, situation, die models) found once per
//! key and reused; hits, wounds and the models removed.

use crate::attack::allocation::State;
use super::decisions::Player;
use super::held_rules::BuffUse;
use super::table::Point;
use crate::attack::plan::{self, Group, Pick, Situation};
use crate::attack::options::{self};
use crate::attack::sample::{roll_attack, roll_options, Faces};
use super::paths::Path;
use super::state::{EPS, Touched};
use super::play::Game;
use super::live::Id;
use super::config::{Event, Short};
use super::decisions::Volley;
use crate::rules::effects::WoundModel;


impl<'a, P: Player> Game<'a, P> {
    /// `target` takes the wounds of an attack of `by` (not a melee's) that ended in state
    /// `end`: its state, both units' tallies, and whether it is destroyed.
    pub(super) fn take_wounds(&mut self, by: Id, target: Id, end: State, wounds: u32) {
        self.live_mut(by).dealt += wounds;
        self.suffer(target, end, wounds);
    }

    /// `id` takes `wounds` that leave it in state `end` (from an attack, terrain or a wreck
    /// with no room): its state, its tally, and whether it is destroyed.
    pub(super) fn suffer(&mut self, id: Id, end: State, wounds: u32) {
        self.set_state(id, end);
        let destroyed = self.info(id).alloc.destroyed(end);
        let live = self.live_mut(id);
        live.taken += wounds;
        if destroyed {
            live.gone = true;
        }
    }

    /// `group`'s hits of `by` on `target` in `situation`, rolled as `attack()` rolls them, and
    /// taken (`take_wounds`).
    pub(super) fn roll_hits(&mut self, by: Id, target: Id, group: &Group, situation: &Situation) -> crate::attack::sample::Rolled {
        // a rule the target holds once acts on a spell's hits as on a shot's ("which gets -1 to
        // defense rolls once": a spell's hits are blocked with Defense rolls)
        let held = if situation.spell { self.held_for(target, BuffUse::Spell(situation.distance)) } else { 0 };
        let talloc = self.alloc_of(target, held);
        let before = self.live(target).s;
        let was_stunned = self.live(target).shaken;
        let r = roll_attack(talloc, std::slice::from_ref(group), before, &mut self.rng, |_, s| Faces::at(group, situation, talloc, s));
        self.dice += r.dice;
        self.take_wounds(by, target, r.end, r.wounds);
        let used = self.used_on_hits(target, held, r.hits);
        self.spend_held(target, used, "spell");
        self.after_stunning(by, target, was_stunned);
        r
    }

    /// Shooting: the policy picks up to two targets and which weapon groups fire at each
    /// ("you may fire only at up to two different targets"); all are declared, then rolled.
    /// Rules with options are settled once for the shooting: a roll ("roll one die") or a
    /// pick ("pick one effect ... until the end of the activation") made for the first
    /// target holds for the second. Whether the unit fired.
    pub(super) fn shoot(&mut self, id: Id, moved: bool, touched: &mut Touched) -> bool {
        let volleys = self.ask(|p, v, r| p.shots(v, r, id, moved));
        self.fire(id, volleys, touched)
    }

    /// `shoot`'s volleys, as the player declared them.
    pub(super) fn fire(&mut self, id: Id, mut volleys: Short<Volley, 2>, touched: &mut Touched) -> bool {
        let fired = !volleys.is_empty();
        let mut option: Option<u8> = None;
        // "you may fire only at up to two different targets": the rules hold the policy to it
        volleys.truncate(self.rules.max_targets.map_or(usize::MAX, usize::from));
        for volley in volleys {
            let target = volley.target;
            // a volley the rules can play: at an enemy, by a shot made for this shooter and
            // target (the player's answer is checked, not trusted; its plan and groups below)
            let key = volley.key;
            let playable = target.0 == 1 - id.0 && target.1 < self.units[target.0].len() && (usize::from(key.army), usize::from(key.unit), usize::from(key.target)) == (id.0, id.1, target.1);
            if !playable {
                self.violation(|| format!("unit {id:?}'s player fired a volley the rules cannot play: {volley:?}"));
                continue;
            }
            let before = self.live(target).s;
            if self.live(target).gone {
                continue;
            }
            if !touched.iter().any(|(t, _)| *t == target) {
                touched.push((target, before));
            }
            let t = self.clock();
            let talloc = self.alloc_of(target, key.buff);
            let Some(plan) = self.view.cache.shots.get_mut().get_mut(&key) else {
                self.violation(|| format!("unit {id:?}'s player fired a shot with no plan: {key:?}"));
                continue;
            };
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
            let was_stunned = self.view.units[target.0][target.1].shaken;
            let (mut hits, mut wounds, mut dice) = (0, 0, 0);
            // Limited weapons fired in this volley, by their bit in `UnitInfo::limited`
            let mut limited = 0u32;
            let mut stray = false;
            let mut blasts: Vec<super::blast::Blasted> = Vec::new();
            for &gi in &volley.groups {
                let Some(group) = plan.groups.get(gi) else {
                    stray = true;
                    continue;
                };
                limited |= plan.limited[gi];
                let models = &mut plan.models[vi];
                // Firefight: a unit Stunned whole by a Rout Test loses a model to every hit
                let whole = self.view.units[target.0][target.1].shaken && talloc.wounds == WoundModel::WoundEffects && !talloc.destroyed(state) && talloc.alive(state) > 1;
                let r = roll_attack(talloc, std::slice::from_ref(group), state, &mut self.rng, |_, s| {
                    let model = || plan::die_model(group, &situation, &talloc.view(s, group.takedown));
                    if cached { models.get(gi, talloc.index(s), talloc.state_count(), model) } else { Faces::of(&model()) }
                });
                blasts.extend(super::blast::Blasted::of(self.view.rules.blast, group, r.hits, talloc.alive(state)));
                if whole {
                    let (end, rolled) = super::stunned::hits_on_stunned(talloc, state, r.hits, &mut self.rng);
                    dice += rolled;
                    wounds += talloc.kills(end) - talloc.kills(state);
                    state = end;
                } else {
                    state = r.end;
                    wounds += r.wounds;
                }
                hits += r.hits;
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
            if stray {
                self.violation(|| format!("unit {id:?}'s player named weapon groups its shot does not have: {:?}", volley.groups));
            }
            self.live_mut(id).limited_spent |= limited;
            self.take_wounds(id, target, state, wounds);
            // "next time the effect would apply": a shot that hits nothing makes no Defense roll
            let used = self.used_on_hits(target, key.buff, hits);
            self.spend_held(target, used, "shot");
            if key.marked {
                self.spend_mark(target, id, "shot");
            }
            self.spend_held(id, key.shooter, "shooting");
            self.after_stunning(id, target, was_stunned);
            self.blast_spill(id, target, blasts, &situation);
            self.event(|g| {
                let plan = g.plan(&key);
                let mut labels = volley.groups.iter().filter_map(|&gi| plan.groups.get(gi)).map(|g| g.label.clone()).collect::<Vec<_>>().join(" + ");
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
    /// shooting, at no range. Whether it attacked.
    pub(super) fn strafe(&mut self, id: Id, from: Point, path: Path, touched: &mut Touched) -> bool {
        if !self.info(id).strafing || self.live(id).gone {
            return false;
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
            return false;
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
        let Some(target) = self.ask(|p, v, r| p.strafe_target(v, r, id.0, &plans, &situation)) else { return false };
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
        true
    }
}
