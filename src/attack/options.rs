//! Rules with options (Versatile Attack, Watchborn, Unpredictable Fighter, Versatile Defense):
//! which option each unit plays in an attack, and with what weight. Every engine settles
//! options here, so they play the same options.

use super::allocation::{Allocation, State};
use super::exact::group_expected_wounds;
use super::plan::{groups, Pick, Situation};
use crate::edition::Edition;
use crate::profile::Model;
use crate::rules::effects::{for_each_entry, own_effects, Amount, Cond, Effect, Settle};

/// A unit's rule with options, from its models left: how many options, and how they are settled.
pub fn options_of(edition: Edition, alive: &[(&Model, u32)]) -> Option<(u8, Settle)> {
    own_effects(edition, alive).into_iter().find_map(|o| match o.effect {
        Effect::Options { count, settle } => Some((count.max(1), settle)),
        _ => None,
    })
}

/// One way to play an attack: the attacker's option, the target's, and the weight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settled {
    pub attacker: u8,
    pub target: u8,
    pub weight: f64,
}

/// The options an attack is played with. A roll weighs every option equally ("roll one die
/// ... on a 1-3 ..., and on a 4-6 ..."); a pick takes its owner's better option by expected
/// wounds: the target picked first (on its own activation), expecting the attacker to answer
/// with its best. Ties go to the lower option. One entry, weight 1, when neither has options.
pub fn settle(attacker: &[(&Model, u32)], target: &Allocation, start: State, situation: &Situation, pick: Pick) -> Vec<Settled> {
    let edition = situation.edition;
    let mine = options_of(edition, attacker);
    let theirs = options_of(edition, &target.view(start, false).alive);
    if mine.is_none() && theirs.is_none() {
        return vec![Settled { attacker: 0, target: 0, weight: 1.0 }];
    }
    let view = target.view(start, false);
    let value = |i: u8, j: u8| {
        let s = Situation { attacker_option: i, target_option: j, ..*situation };
        groups(attacker, &view.alive, &s, pick).iter().map(|g| group_expected_wounds(g, &s, target, start)).sum::<f64>()
    };
    // the attacker's answer to each target option: (option, weight) and its expected wounds
    let answer = |j: u8| -> (Vec<(u8, f64)>, f64) {
        match mine {
            None => (vec![(0, 1.0)], value(0, j)),
            Some((n, Settle::Roll)) => {
                let w = 1.0 / f64::from(n);
                ((0..n).map(|i| (i, w)).collect(), (0..n).map(|i| w * value(i, j)).sum())
            }
            Some((n, Settle::Best)) => {
                let (best, v) = (0..n).map(|i| (i, value(i, j))).fold((0, f64::NEG_INFINITY), |b, x| if x.1 > b.1 { x } else { b });
                (vec![(best, 1.0)], v)
            }
        }
    };
    let targets: Vec<(u8, f64)> = match theirs {
        None => vec![(0, 1.0)],
        Some((n, Settle::Roll)) => (0..n).map(|j| (j, 1.0 / f64::from(n))).collect(),
        Some((n, Settle::Best)) => {
            let (best, _) = (0..n).map(|j| (j, answer(j).1)).fold((0, f64::INFINITY), |b, x| if x.1 < b.1 { x } else { b });
            vec![(best, 1.0)]
        }
    };
    let mut out = Vec::new();
    for (j, wj) in targets {
        for (i, wi) in answer(j).0 {
            out.push(Settled { attacker: i, target: j, weight: wi * wj });
        }
    }
    out
}

/// What option `option` of a unit's rule with options does, for reports ("Versatile Attack:
/// AP(+1)"): the attacker's options (`attacking`) or the attacked unit's, in shooting or in
/// melee. `None` when the unit has no rule with options in play, or the option changes
/// nothing in this kind of attack. `activated`: the unit is taking its activation (options
/// "until the end of the activation" do nothing when it only strikes back).
pub fn describe(edition: Edition, alive: &[(&Model, u32)], attacking: bool, melee: bool, activated: bool, option: u8) -> Option<String> {
    options_of(edition, alive)?;
    let mut names: Vec<&str> = Vec::new();
    for (m, _) in alive {
        for r in &m.rules {
            if !names.contains(&r.name.as_str()) {
                names.push(&r.name);
            }
        }
    }
    let wanted = if attacking { Cond::AttackerOption(option) } else { Cond::TargetOption(option) };
    let other_kind = if melee { Cond::Shooting } else { Cond::Melee };
    for name in names {
        let mut has_options = false;
        let mut parts: Vec<String> = Vec::new();
        for_each_entry(edition, name, &mut |outer, e| {
            has_options |= matches!(e.effect, Effect::Options { .. });
            let conds = || outer.iter().chain(e.conds);
            let inactive = !activated && conds().any(|c| *c == Cond::Activated);
            if conds().any(|c| *c == wanted) && !conds().any(|c| *c == other_kind) && !inactive {
                let text = match e.effect {
                    Effect::Ap(Amount::Fixed(n)) => format!("AP(+{n})"),
                    Effect::HitModifier(Amount::Fixed(n)) => format!("{n:+} to hit"),
                    Effect::DefenseModifier(Amount::Fixed(n)) => format!("{n:+} to defense"),
                    other => format!("{other:?}"),
                };
                if !parts.contains(&text) {
                    parts.push(text);
                }
            }
        });
        if has_options && !parts.is_empty() {
            return Some(format!("{name}: {}", parts.join(", ")));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Unit;

    fn alive(text: &str) -> Vec<(Model, u32)> {
        Unit::parse(text, Edition::V3_5).unwrap().model_runs()
    }

    #[test]
    fn a_choice_for_the_activation_is_not_reported_for_a_strike_back() {
        // "When this unit is activated, pick one effect: until the end of the activation ..."
        let runs = alive("S [2] Q4+ D4+ | Versatile Attack\n2x Blade (A2)");
        let refs: Vec<(&Model, u32)> = runs.iter().map(|(m, n)| (m, *n)).collect();
        assert_eq!(describe(Edition::V3_5, &refs, true, true, true, 0).as_deref(), Some("Versatile Attack: AP(+1)"));
        assert_eq!(describe(Edition::V3_5, &refs, true, true, false, 0), None);
        // a rolled option applies whenever the unit fights
        let runs = alive("S [2] Q4+ D4+ | Unpredictable Fighter\n2x Blade (A2)");
        let refs: Vec<(&Model, u32)> = runs.iter().map(|(m, n)| (m, *n)).collect();
        assert_eq!(describe(Edition::V3_5, &refs, true, true, false, 1).as_deref(), Some("Unpredictable Fighter: +1 to hit"));
    }
}
