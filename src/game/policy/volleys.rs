//! v2.x's shooting: "units with multiple weapon types may fire each type at a different
//! target" (no cap on targets, `GameRules::max_targets` `None`). The default policy splits
//! greedily: each weapon type (a group of the shot's plan, by its label) goes to the target
//! where what it is expected to remove is worth most, counting only what the types placed
//! before it left of that target.

use super::Target;
use super::super::config::Short;
use super::super::decisions::Volley;
use super::seat::Seat;

/// One volley per target that some weapon type fires at, in the order of `options`.
pub(super) fn one_target_per_type(g: &mut Seat, options: &[Target]) -> Short<Volley, 2> {
    let labels: Vec<Vec<u64>> = options.iter().map(|o| g.plan(&o.1).labels.clone()).collect();
    // every weapon type any target's plan has, in the order first met
    let mut types: Vec<u64> = Vec::new();
    for &l in labels.iter().flatten() {
        if !types.contains(&l) {
            types.push(l);
        }
    }
    // what is left to take of each target (its worth now), and the groups fired at it
    let mut left: Vec<f64> = options.iter().map(|o| o.3).collect();
    let mut groups: Vec<Short<usize, 8>> = vec![Short::new(); options.len()];
    for t in types {
        // (target, group, value); ties to the earlier target
        let best = (0..options.len())
            .filter_map(|j| labels[j].iter().position(|&l| l == t).map(|gi| (j, gi, options[j].2[gi].min(left[j]))))
            .fold(None::<(usize, usize, f64)>, |b, c| if b.is_none_or(|b| c.2 > b.2) { Some(c) } else { b });
        if let Some((j, gi, v)) = best {
            groups[j].push(gi);
            left[j] -= v;
        }
    }
    options.iter().zip(groups).filter(|(_, gs)| !gs.is_empty()).map(|(o, gs)| Volley { target: o.0, key: o.1, groups: gs }).collect()
}
