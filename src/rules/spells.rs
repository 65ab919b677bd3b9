//! The army books' spells as data: whom a spell picks and what it does, read from each
//! book's structured `generation` (an effect id with its parameters, and an assignment) into
//! a few kinds of effect the engines can play. The effect text the book prints is the spec:
//! [`Spell::text`] writes each spell back in the book's words, and a test holds every spell
//! of the 43 books to its printed text.
//!
//! gf-3.5 "Caster(X)": "casters may spend as many spell tokens as the spell's value to try
//! and cast one of their army's spells"; the value is the spell's `threshold` (1 to 3).
//! A damage spell's hits are its `numberDigit` times its value, as the printed texts say
//! ("takes 6 hits" for a value-3 spell of `numberDigit` 2).

use super::{Rating, Rule, RuleId};
use crate::attack::allocation::{Allocation, State};
use serde_json::Value;

/// Whom a spell picks: "Pick one enemy unit within 12"", "Pick up to three friendly units
/// within 12"", "Pick one enemy model within 18"".
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Targets {
    pub enemy: bool,
    /// A model rather than a unit.
    pub model: bool,
    /// How many: "one" (1), "up to two" (2), "up to three" (3).
    pub count: u8,
    /// Inches: "within 12"".
    pub range: u32,
}

/// Which attacks a change applies to: "when shooting", "in melee", "when attacking".
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Attacks {
    Shooting,
    Melee,
    All,
}

/// The roll a modifier changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Roll {
    Hit(Attacks),
    Defense,
    Morale,
    Casting,
}

/// What a spell does to each unit it picks, "once (next time the effect would apply)" where
/// it lasts (every lasting effect in the books does).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SpellEffect {
    /// "which takes 6 hits with AP(1) and Shred": hits, as from a weapon with these rules;
    /// `roll_for`: "Roll as many dice as hits to see if "on rolls of 6" effects trigger" (the
    /// face), else none.
    Hits { hits: u32, rules: Vec<Rule>, roll_for: Option<u8> },
    /// "which gets Evasive" / "which loses AP(1) when shooting"; `against`: "which friendly
    /// units get Relentless against" (attacks on the picked unit get it, not the unit).
    Rule { rule: Rule, gets: bool, when: Option<Attacks>, against: bool },
    /// "which get -1 to defense rolls"; `against`: "which friendly units get +1 to hit rolls
    /// in melee against".
    Modifier { roll: Roll, amount: i64, against: bool },
    /// "gets +6" range when shooting"; `against`: friendly units shooting at the picked one.
    Range { inches: i64, against: bool },
    /// "moves +2" when using Advance actions and +4" when using Rush/Charge actions".
    Move { advance: i64, rush: i64 },
    /// "counts as being in Dangerous Terrain" (else Difficult Terrain).
    InTerrain { dangerous: bool },
    /// "must take a morale test. If failed, it becomes fatigued".
    TestOrFatigued,
    /// "must take a morale test. If failed you may move it by up to 6" in a straight line in
    /// any direction".
    TestOrMoved { inches: u32 },
}

/// "can't hold more than 6 tokens at once".
pub const MAX_TOKENS: u32 = 6;
/// "Roll one die, on 4+ resolve the effect".
pub const CAST_ON: i32 = 4;

/// Tokens a unit gets at the start of a round and the most it may hold, from its models left
/// in state `s`: Σ X of its Caster(X) models; Caster Group ("Pick one model with this rule in
/// this unit to have Caster(X), where X is the total number of models with this rule in this
/// unit") adds one caster of X the group's models left. At most 6 per caster.
pub fn caster_tokens(alloc: &Allocation, s: State) -> (u32, u32) {
    let parts = caster_token_parts(alloc, s);
    let group = u32::from(parts.group > 0);
    (parts.own.saturating_add(parts.group), parts.own_cap.saturating_add(group * MAX_TOKENS))
}

/// A unit's casters' tokens by kind: its Caster(X) models' X per round and the most they may
/// hold (6 each), and its Caster Group's per round (its models left), whose unspent tokens
/// go at the end of the round while the others' stay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenParts {
    pub own: u32,
    pub own_cap: u32,
    pub group: u32,
}

pub fn caster_token_parts(alloc: &Allocation, s: State) -> TokenParts {
    let mut parts = TokenParts { own: 0, own_cap: 0, group: 0 };
    if alloc.destroyed(s) {
        return parts;
    }
    for (m, n) in alloc.view(s, false).alive {
        for r in &m.rules {
            match r.id() {
                RuleId::CASTER => {
                    let x = u32::try_from(r.number().unwrap_or(0).clamp(0, i64::from(MAX_TOKENS))).unwrap_or(0);
                    parts.own = parts.own.saturating_add(x.saturating_mul(n));
                    parts.own_cap = parts.own_cap.saturating_add(n.saturating_mul(MAX_TOKENS));
                }
                RuleId::CASTER_GROUP => parts.group = parts.group.saturating_add(n),
                _ => {}
            }
        }
    }
    parts
}

/// The tokens one round gives a unit's casters at full strength: their X, at most what they
/// may hold (`efficiency()`'s and the cost features' round of spells).
pub fn round_tokens(alloc: &Allocation) -> u32 {
    let (per_round, cap) = caster_tokens(alloc, State::default());
    per_round.min(cap)
}

/// Whether a casting roll succeeds with `modifier` from helpers and hinderers: "on 4+", and
/// "a roll of 6 always counts as a success and a roll of 1 always counts as a fail, regardless
/// of how much it is being modified by".
pub fn cast_succeeds(roll: u8, modifier: i32) -> bool {
    roll == 6 || (roll != 1 && i32::from(roll) + modifier >= CAST_ON)
}

/// The chance a casting roll succeeds with `modifier` (from 1/6 to 5/6).
pub fn cast_chance(modifier: i32) -> f64 {
    (1..=6u8).filter(|&r| cast_succeeds(r, modifier)).count() as f64 / 6.0
}

/// Spells `best_set` weighs every set of (2^12 sets); past that it takes them greedily.
pub const EXHAUSTIVE_SPELLS: usize = 12;

/// The set of spells (indices into `options`, each `(tokens, value)`) that `held` tokens pay
/// for and whose values plus what the tokens left are worth (`kept(left)`) are highest:
/// "spend as many tokens as the spell's value to try casting one or more spells (only one try
/// per spell)". Empty: none is worth more than keeping the tokens. Every set of up to
/// `EXHAUSTIVE_SPELLS` spells is weighed; more (no real book has over 6) are taken greedily,
/// the most value per token first, while each is worth more than the tokens it spends.
pub fn best_set(held: u32, options: &[(u8, f64)], kept: impl Fn(u32) -> f64) -> Vec<usize> {
    let n = options.len();
    if n > EXHAUSTIVE_SPELLS {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| (options[b].1 / f64::from(options[b].0.max(1))).total_cmp(&(options[a].1 / f64::from(options[a].0.max(1)))).then(a.cmp(&b)));
        let (mut left, mut out) = (held, Vec::new());
        for i in order {
            let cost = u32::from(options[i].0);
            if cost <= left && options[i].1 + kept(left - cost) > kept(left) {
                left -= cost;
                out.push(i);
            }
        }
        out.sort_unstable();
        return out;
    }
    let mut best = (kept(held), 0u32);
    for set in 1u32..(1 << n) {
        let chosen = || (0..n).filter(move |i| set & (1 << i) != 0);
        let cost: u32 = chosen().map(|i| u32::from(options[i].0)).sum();
        if cost > held {
            continue;
        }
        let total = chosen().map(|i| options[i].1).sum::<f64>() + kept(held - cost);
        if total > best.0 {
            best = (total, set);
        }
    }
    (0..n).filter(|i| best.1 & (1 << i) != 0).collect()
}

/// A spell of an army book: its value in tokens, whom it picks and what it does.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Spell {
    pub tokens: u8,
    pub targets: Targets,
    pub effect: SpellEffect,
}

/// The parameters of a `generation` part by name.
fn parameters(part: &Value) -> Vec<(&str, &Value)> {
    part.get("parameters").and_then(Value::as_array).map_or_else(Vec::new, |list| {
        list.iter().filter_map(|p| Some((p.get("name")?.as_str()?, p.get("value")?))).collect()
    })
}

fn text<'a>(params: &[(&str, &'a Value)], name: &str) -> Option<&'a str> {
    params.iter().find(|(n, _)| *n == name).and_then(|(_, v)| v.as_str())
}

/// A signed number of a parameter: "+1", "-3", "+6"", "2".
fn signed(params: &[(&str, &Value)], name: &str) -> Result<i64, String> {
    let t = text(params, name).ok_or_else(|| format!("no {name}"))?;
    let t = t.trim().trim_end_matches('"');
    t.strip_prefix('+').unwrap_or(t).parse().map_err(|_| format!("{name} {t:?} is not a number"))
}

/// A rule parameter: `{"name": "AP", "rating": 1}`.
fn rule(params: &[(&str, &Value)], name: &str) -> Option<Rule> {
    let v = params.iter().find(|(n, _)| *n == name)?.1;
    let rating = match v.get("rating") {
        Some(Value::Number(n)) => n.as_i64().map(Rating::Number),
        Some(Value::String(s)) => Some(Rating::from_text(s)),
        _ => None,
    };
    Some(Rule::new(v.get("name")?.as_str()?.trim(), rating))
}

fn attacks(params: &[(&str, &Value)]) -> Result<Option<Attacks>, String> {
    Ok(match text(params, "attackType") {
        None => None,
        Some("when shooting") => Some(Attacks::Shooting),
        Some("in melee") => Some(Attacks::Melee),
        Some("when attacking") => Some(Attacks::All),
        Some(other) => return Err(format!("attackType {other:?}")),
    })
}

fn gets(params: &[(&str, &Value)]) -> Result<bool, String> {
    match text(params, "gets/loses/ignores") {
        Some("gets") => Ok(true),
        Some("loses") => Ok(false),
        other => Err(format!("gets/loses/ignores {other:?}")),
    }
}

impl Spell {
    /// Reads a book spell's `generation` (worth `tokens`); the reason where it is not a
    /// kind this library knows.
    pub fn from_generation(generation: &Value, tokens: i64, edition: crate::Edition) -> Result<Spell, String> {
        let tokens = u8::try_from(tokens).map_err(|_| format!("a value of {tokens} tokens"))?;
        let assignment = parameters(generation.get("assignment").ok_or("no assignment")?);
        let effect_part = generation.get("effect").ok_or("no effect")?;
        let id = effect_part.get("id").and_then(Value::as_str).ok_or("no effect id")?;
        let p = parameters(effect_part);
        let targets = Targets {
            enemy: match text(&assignment, "friendly-enemy") {
                Some("enemy") => true,
                Some("friendly") => false,
                other => return Err(format!("friendly-enemy {other:?}")),
            },
            model: match text(&assignment, "target") {
                Some("model") => true,
                Some("unit") => false,
                other => return Err(format!("target {other:?}")),
            },
            count: match text(&assignment, "numberText") {
                Some("one") => 1,
                Some("up to two") => 2,
                Some("up to three") => 3,
                other => return Err(format!("numberText {other:?}")),
            },
            range: text(&assignment, "inRange")
                .and_then(|r| r.strip_prefix("within ")?.trim_end_matches('"').parse().ok())
                .ok_or_else(|| format!("inRange {:?}", text(&assignment, "inRange")))?,
        };
        if let Some(d) = text(&p, "effectDuration").filter(|d| *d != "once (next time the effect would apply)") {
            return Err(format!("effectDuration {d:?}"));
        }
        let effect = match id {
            "QFjxWsOHTCSi" => {
                if text(&p, "hits-wounds") != Some("hits") {
                    return Err(format!("hits-wounds {:?}", text(&p, "hits-wounds")));
                }
                let digit = u32::try_from(signed(&p, "numberDigit")?).map_err(|_| "a negative numberDigit".to_string())?;
                let roll_for = match text(&p, "spellHitRoll").unwrap_or("") {
                    "" => None,
                    t if t.contains("on rolls of 6") => Some(6),
                    t if t.contains("on rolls of 1") => Some(1),
                    t => return Err(format!("spellHitRoll {t:?}")),
                };
                SpellEffect::Hits { hits: digit.saturating_mul(u32::from(tokens)), rules: ["weaponRule1", "weaponRule2"].iter().filter_map(|n| rule(&p, n)).collect(), roll_for }
            }
            "RWnJrrMKAUbg" | "1yTPcanTyckX" => {
                SpellEffect::Rule { rule: rule(&p, "unitRule").ok_or("no unitRule")?, gets: gets(&p)?, when: None, against: id == "1yTPcanTyckX" }
            }
            "i1BVqztsr1V6" | "54xO9EKTj-ix" => {
                SpellEffect::Rule { rule: rule(&p, "weaponRule").ok_or("no weaponRule")?, gets: gets(&p)?, when: attacks(&p)?, against: id == "54xO9EKTj-ix" }
            }
            "txtrnRX2fPJJ" => SpellEffect::Modifier { roll: Roll::Defense, amount: signed(&p, "rollModifier")?, against: false },
            "nxIQS1UnUBL_" => SpellEffect::Modifier { roll: Roll::Morale, amount: signed(&p, "rollModifier")?, against: false },
            "4xqVFHJrq78d" => SpellEffect::Modifier { roll: Roll::Casting, amount: signed(&p, "rollModifier")?, against: false },
            "gqflE2vy38aQ" | "YbOvC9oIIli9" => {
                let when = attacks(&p)?.ok_or("no attackType")?;
                SpellEffect::Modifier { roll: Roll::Hit(when), amount: signed(&p, "rollModifier")?, against: id == "YbOvC9oIIli9" }
            }
            "7w-FrWUjKqqG" | "LixCCuyRq4-_" => SpellEffect::Range { inches: signed(&p, "rangeModifier")?, against: id == "LixCCuyRq4-_" },
            "rz0b1dShgnvg" => SpellEffect::Move { advance: signed(&p, "advanceSpeed")?, rush: signed(&p, "rushSpeed")? },
            "_m0wja4blbg8" => match text(&p, "terrainType") {
                Some("Dangerous Terrain") => SpellEffect::InTerrain { dangerous: true },
                Some("Difficult Terrain") => SpellEffect::InTerrain { dangerous: false },
                other => return Err(format!("terrainType {other:?}")),
            },
            "ZcZbsyKjR5yN" if text(&p, "becomes-stopsbeing") == Some("becomes") => SpellEffect::TestOrFatigued,
            "q9OJ_WVwJw5w" if text(&p, "passed-failed") == Some("failed") => {
                SpellEffect::TestOrMoved { inches: u32::try_from(signed(&p, "moraleMove")?).map_err(|_| "a negative moraleMove".to_string())? }
            }
            other => return Err(format!("effect {other:?}")),
        };
        let spell = Spell { tokens, targets, effect };
        spell.check(edition).map_err(|e| e.to_string())?;
        Ok(spell)
    }

    /// The checks every spell passes, read from a book or unpickled: a value a caster can
    /// hold (1 to 6 tokens), hits within what an attack may roll, rules as a unit's are
    /// checked (names and ratings within the limits).
    pub fn check(&self, edition: crate::Edition) -> crate::Result<()> {
        use crate::error::Error;
        if !(1..=6).contains(&self.tokens) {
            return Err(Error::invalid("spell tokens", self.tokens, "must be from 1 to 6 (a caster holds at most 6)"));
        }
        if let SpellEffect::Hits { hits, .. } = &self.effect {
            if u64::from(*hits) > crate::limits::MAX_EXACT_DICE {
                return Err(Error::limit("spell hits", hits, crate::limits::MAX_EXACT_DICE));
            }
        }
        match &self.effect {
            SpellEffect::Hits { rules, .. } => rules.iter().try_for_each(|r| r.check(edition)),
            SpellEffect::Rule { rule, .. } => rule.check(edition),
            _ => Ok(()),
        }
    }

    /// The spell in the books' words ("Pick one enemy unit within 12", which takes 6 hits
    /// with AP(1)."), with "get"/"gets" and "hit"/"hits" as grammar wants (the books are not
    /// consistent in these).
    pub fn text(&self) -> String {
        let t = &self.targets;
        let number = ["", "one", "up to two", "up to three"].get(usize::from(t.count)).copied().unwrap_or("several");
        let what = match (t.model, t.count > 1) {
            (true, false) => "model",
            (true, true) => "models",
            (false, false) => "unit",
            (false, true) => "units",
        };
        let side = if t.enemy { "enemy" } else { "friendly" };
        let (get, s) = if t.count > 1 { ("get", "") } else { ("gets", "s") };
        let once = "once (next time the effect would apply)";
        let when = |w: Option<Attacks>| match w {
            Some(Attacks::Shooting) => " when shooting",
            Some(Attacks::Melee) => " in melee",
            Some(Attacks::All) => " when attacking",
            None => "",
        };
        let does = match &self.effect {
            SpellEffect::Hits { hits, rules, roll_for } => {
                let with = if rules.is_empty() { String::new() } else { format!(" with {}", rules.iter().map(Rule::to_string).collect::<Vec<_>>().join(" and ")) };
                let roll = roll_for.map_or(String::new(), |face| format!(" Roll as many dice as hits to see if \"on rolls of {face}\" effects trigger."));
                let noun = if *hits == 1 { "hit" } else { "hits" };
                let each = if t.count > 1 { " each" } else { "" };
                return format!("Pick {number} {side} {what} within {}\", which take{s} {hits} {noun}{with}{each}.{roll}", t.range);
            }
            SpellEffect::Rule { rule, gets, when: w, against } => {
                let verb = match (gets, against) {
                    (true, false) => get.to_string(),
                    (false, false) => if t.count > 1 { "lose" } else { "loses" }.to_string(),
                    (true, true) => "friendly units get".to_string(),
                    (false, true) => "friendly units lose".to_string(),
                };
                format!("{verb} {}{}{}", rule, when(*w), if *against { " against" } else { "" })
            }
            SpellEffect::Modifier { roll, amount, against } => {
                let verb = if *against { "friendly units get" } else { get };
                let roll = match roll {
                    Roll::Hit(w) => format!("to hit rolls{}", when(Some(*w))),
                    Roll::Defense => "to defense rolls".to_string(),
                    Roll::Morale => "to morale test rolls".to_string(),
                    Roll::Casting => "to casting rolls".to_string(),
                };
                format!("{verb} {amount:+} {roll}{}", if *against { " against" } else { "" })
            }
            SpellEffect::Range { inches, against } => {
                format!("{} {inches:+}\" range when shooting{}", if *against { "friendly units get" } else { get }, if *against { " against" } else { "" })
            }
            SpellEffect::Move { advance, rush } => {
                format!("move{s} {advance:+}\" when using Advance actions and {rush:+}\" when using Rush/Charge actions")
            }
            SpellEffect::InTerrain { dangerous } => format!("count{s} as being in {} Terrain", if *dangerous { "Dangerous" } else { "Difficult" }),
            SpellEffect::TestOrFatigued => return format!("Pick {number} {side} {what} within {}\", which must take a morale test. If failed, it becomes fatigued.", t.range),
            SpellEffect::TestOrMoved { inches } => {
                return format!("Pick {number} {side} {what} within {}\", which must take a morale test. If failed you may move it by up to {inches}\" in a straight line in any direction.", t.range);
            }
        };
        format!("Pick {number} {side} {what} within {}\", which {does} {once}.", t.range)
    }
}

impl Spell {
    /// The hits of a damage spell on enemy units, the spells casters cast (`hits_group`);
    /// `None` for any other spell.
    pub fn damage_group(&self, edition: crate::Edition) -> Option<crate::attack::plan::Group> {
        self.targets.enemy.then(|| self.hits_group(edition)).flatten()
    }

    /// A damage spell's hits as a weapon group the attack engines roll: no die to hit, the
    /// spell's rules on the hits, one die per hit to see if "on rolls of 6" effects trigger
    /// where the spell says so, all on one model where the spell picks a model (as Takedown
    /// does). `None` for a spell that deals no hits.
    pub fn hits_group(&self, edition: crate::Edition) -> Option<crate::attack::plan::Group> {
        use crate::attack::plan::{Group, GroupKind};
        use crate::rules::effects::{has_entry, Effect, Side};
        let SpellEffect::Hits { hits, rules, roll_for } = &self.effect else { return None };
        Some(Group {
            label: self.text(),
            kind: GroupKind::SpellHits { sixes_rolled: *roll_for == Some(6) },
            dice: *hits,
            quality: 2,
            rules: rules.clone().into(),
            takedown: self.targets.model,
            deadly: rules.iter().any(|r| has_entry(edition, r.id(), Side::Attacker, |e| matches!(e, Effect::Deadly(_)))),
        })
    }
}

/// A printed spell text with the books' slips of grammar evened out ("gets"/"get",
/// "hit"/"hits", "moves"/"move", "counts"/"count" after "units"), to hold texts to
/// [`Spell::text`].
pub fn normalized(text: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        let core = word.trim_end_matches(['.', ',']);
        let w = match core {
            "gets" | "get" => "get",
            "hit" | "hits" => "hit",
            "moves" | "move" => "move",
            "counts" | "count" => "count",
            "takes" | "take" => "take",
            "loses" | "lose" => "lose",
            "models" | "model" => "model",
            "units" | "unit" => "unit",
            other => other,
        };
        words.push(format!("{w}{}", &word[core.len()..]));
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spell(effect: Value, assignment: Value, tokens: i64) -> Result<Spell, String> {
        Spell::from_generation(&serde_json::json!({ "effect": effect, "assignment": assignment }), tokens, crate::Edition::V3_5)
    }

    fn pick(side: &str, target: &str, number: &str, range: &str) -> Value {
        serde_json::json!({ "id": "9o9ZgMk8pLf5", "parameters": [
            { "name": "friendly-enemy", "value": side }, { "name": "target", "value": target },
            { "name": "inRange", "value": range }, { "name": "numberText", "value": number } ] })
    }

    #[test]
    fn a_damage_spell_takes_its_digit_times_its_value_in_hits() {
        // the book's text: "Pick one enemy unit within 12", which takes 6 hit with AP(2)."
        let effect = serde_json::json!({ "id": "QFjxWsOHTCSi", "parameters": [
            { "name": "numberDigit", "value": "2" }, { "name": "hits-wounds", "value": "hits" },
            { "name": "weaponRule1", "value": { "id": "17crjK7P6_w6", "name": "AP", "rating": 2, "hideModifier": true } } ] });
        let s = spell(effect, pick("enemy", "unit", "one", "within 12\""), 3).unwrap();
        assert_eq!(s.effect, SpellEffect::Hits { hits: 6, rules: vec![Rule::new("AP", Some(Rating::Number(2)))], roll_for: None });
        assert_eq!(s.targets, Targets { enemy: true, model: false, count: 1, range: 12 });
        assert_eq!(s.text(), "Pick one enemy unit within 12\", which takes 6 hits with AP(2).");
        assert_eq!(normalized(&s.text()), normalized("Pick one enemy unit within 12\", which takes 6 hit with AP(2)."));
    }

    #[test]
    fn a_buff_on_units_picked_reads_back_as_printed() {
        let effect = serde_json::json!({ "id": "1yTPcanTyckX", "parameters": [
            { "name": "effectDuration", "value": "once (next time the effect would apply)" },
            { "name": "gets/loses/ignores", "value": "gets" },
            { "name": "unitRule", "value": { "id": "x", "name": "Relentless" } } ] });
        let s = spell(effect, pick("enemy", "unit", "up to two", "within 18\""), 2).unwrap();
        assert_eq!(s.effect, SpellEffect::Rule { rule: Rule::new("Relentless", None), gets: true, when: None, against: true });
        let printed = "Pick up to two enemy units within 18\", which friendly units gets Relentless against once (next time the effect would apply).";
        assert_eq!(normalized(&s.text()), normalized(printed));
    }

    /// The exact mean wounds of `spell`'s hits on a fresh `target` (no cover: a spell is not
    /// a shot), and the sampler's over `n` rolls.
    fn wounds(spell: &Spell, target: &str, n: u32) -> (f64, f64) {
        use crate::attack::allocation::Allocation;
        use crate::attack::plan::Situation;
        let edition = crate::Edition::V3_5;
        let alloc = Allocation::new(&crate::profile::Unit::parse(target, edition).unwrap(), edition);
        let group = spell.hits_group(edition).unwrap();
        let situation = Situation::new(edition, false, 6.0);
        let start = alloc.start();
        let stages = crate::attack::exact::stages_from(&alloc, std::slice::from_ref(&group), &situation, start, start, &crate::state::UnitState::FRESH);
        let exact = crate::dice::mean(&stages.wounds);
        let mut rng = crate::rolls::Dice::seed_from_u64(7);
        let mut total = 0u64;
        for _ in 0..n {
            let r = crate::attack::sample::roll_attack(&alloc, std::slice::from_ref(&group), start, &mut rng, |_, s| crate::attack::sample::Faces::at(&group, &situation, &alloc, s));
            total += u64::from(r.wounds);
        }
        (exact, total as f64 / f64::from(n))
    }

    fn hits(hits: u32, rules: &[&str], roll_for: Option<u8>) -> Spell {
        let rules = rules.iter().map(|r| Rule::parse(r, crate::Edition::V3_5).unwrap()).collect();
        Spell { tokens: 3, targets: Targets { enemy: true, model: false, count: 1, range: 12 }, effect: SpellEffect::Hits { hits, rules, roll_for } }
    }

    #[test]
    fn a_damage_spell_hits_without_a_roll_and_its_rules_apply() {
        // 6 hits with AP(1) on Defense 4+: blocked on 5+, so 4 wounds on average
        let (exact, sampled) = wounds(&hits(6, &["AP(1)"], None), "T [10] Q4+ D4+", 40_000);
        assert!((exact - 4.0).abs() < 1e-12, "{exact}");
        // the sampler's mean within 4 standard errors (each wound a Bernoulli(2/3): sd of the
        // mean of 6 of them is sqrt(6 * 2/9 / n))
        assert!((sampled - exact).abs() < 4.0 * (6.0 * 2.0 / 9.0 / 40_000.0f64).sqrt(), "{sampled} against {exact}");
        // Rending ("on 6s to hit ... AP(4)") only where a die is rolled per hit: 6 × (5/6 × 1/2
        // + 1/6 × 5/6) = 10/3 wounds, against 3 without the roll
        let (rolled, sampled) = wounds(&hits(6, &["Rending"], Some(6)), "T [10] Q4+ D4+", 40_000);
        let (unrolled, _) = wounds(&hits(6, &["Rending"], None), "T [10] Q4+ D4+", 1);
        assert!((rolled - 10.0 / 3.0).abs() < 1e-12 && (unrolled - 3.0).abs() < 1e-12, "{rolled} {unrolled}");
        assert!((sampled - rolled).abs() < 0.03, "{sampled} against {rolled}");
        // Deadly(3) on one picked model of Tough(3): each unblocked hit takes the model
        let mut model = hits(2, &["Deadly(3)"], None);
        model.targets.model = true;
        let (exact, _) = wounds(&model, "T [3] Q4+ D4+ | Tough(3)", 1);
        assert!((exact - 2.0 * 0.5 * 3.0).abs() < 1e-12, "{exact}");
    }

    #[test]
    fn the_best_set_of_spells_within_the_tokens() {
        // 3 tokens: the 2-token spell and a 1-token one (5 + 2) beat the 3-token one (6)
        let options = [(1, 2.0), (2, 5.0), (3, 6.0), (1, 1.0)];
        assert_eq!(best_set(3, &options, |_| 0.0), [0, 1]);
        // tokens kept worth 3 each: nothing is worth casting
        assert!(best_set(3, &options, |left| 3.0 * f64::from(left)).is_empty());
        // more spells than are weighed set by set: taken greedily, none over the tokens
        let many: Vec<(u8, f64)> = (0..20).map(|i| (1 + (i % 3) as u8, f64::from(i))).collect();
        let chosen = best_set(6, &many, |_| 0.0);
        assert!(chosen.iter().map(|&i| u32::from(many[i].0)).sum::<u32>() <= 6 && !chosen.is_empty());
        assert!(chosen.contains(&18), "the most value per token first: {chosen:?}");
    }

    #[test]
    fn what_it_does_not_know_it_says() {
        let odd = serde_json::json!({ "id": "no-such-effect", "parameters": [] });
        assert_eq!(spell(odd, pick("enemy", "unit", "one", "within 12\""), 1).unwrap_err(), "effect \"no-such-effect\"");
        let effect = serde_json::json!({ "id": "txtrnRX2fPJJ", "parameters": [ { "name": "rollModifier", "value": "+1" } ] });
        assert!(spell(effect.clone(), pick("enemy", "unit", "all of them", "within 12\""), 1).unwrap_err().contains("numberText"));
        assert!(spell(effect, pick("enemy", "unit", "one", "within 12\""), 0).unwrap_err().contains("tokens: must be from 1 to 6"));
        // hostile numbers are refused, not wrapped
        let huge = serde_json::json!({ "id": "QFjxWsOHTCSi", "parameters": [
            { "name": "numberDigit", "value": "4000000000" }, { "name": "hits-wounds", "value": "hits" } ] });
        assert!(spell(huge, pick("enemy", "unit", "one", "within 12\""), 3).unwrap_err().contains("spell hits"));
        let rating = serde_json::json!({ "id": "QFjxWsOHTCSi", "parameters": [
            { "name": "numberDigit", "value": "2" }, { "name": "hits-wounds", "value": "hits" },
            { "name": "weaponRule1", "value": { "name": "AP", "rating": 1_000_000_000_000i64 } } ] });
        assert!(spell(rating, pick("enemy", "unit", "one", "within 12\""), 1).unwrap_err().contains("rating of AP"));
    }
}

/// What a lasting spell does in a game, as a rule held "once (next time the effect would
/// apply)": by the picked unit itself (a friend's buff, or an enemy's debuff: "which get -1
/// to defense rolls"), or by the caster's army's units attacking the picked unit ("which
/// friendly units get Relentless against").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Once {
    Holds(&'static str),
    Against(&'static str),
}

impl Spell {
    /// The rule a lasting spell gives, by its name in the rule tables (a book's or core rule,
    /// or the spell's own words in `army::SPELL_GIVEN_3_5`); `None` for damage spells, for
    /// casting modifiers, terrain and morale-test spells, and for rules no table defines.
    pub fn once_rule(&self, edition: crate::Edition) -> Option<Once> {
        // Flying is a core rule of moves with no effect rows: the game plays it held once too
        let defined = |name: &str| crate::rules::effects::definition(edition, name).map(|d| d.name).or((name == "Flying").then_some("Flying"));
        let when = |w: Option<Attacks>| match w {
            None | Some(Attacks::All) => "when attacking",
            Some(Attacks::Shooting) => "when shooting",
            Some(Attacks::Melee) => "in melee",
        };
        let (name, against) = match &self.effect {
            SpellEffect::Rule { rule, gets, when: w, against } => {
                let name = match (rule.name.as_str(), *gets, w) {
                    ("AP", true, _) if rule.number() == Some(1) => defined(&format!("AP(+1) {}", when(*w))),
                    ("AP", false, Some(Attacks::Shooting)) if rule.number() == Some(1) => defined("AP(-1) when shooting"),
                    (_, false, _) => None,
                    (n, true, None | Some(Attacks::All)) if rule.rating.is_none() => defined(n),
                    // "Bane when Shooting" is a book rule; "Shred when shooting" the spell's words
                    (n, true, Some(Attacks::Shooting)) if rule.rating.is_none() => defined(&format!("{n} when Shooting")).or_else(|| defined(&format!("{n} when shooting"))),
                    (n, true, Some(Attacks::Melee)) if rule.rating.is_none() => defined(&format!("{n} in Melee")).or_else(|| defined(&format!("{n} in melee"))),
                    _ => None,
                };
                (name?, *against)
            }
            SpellEffect::Modifier { roll: Roll::Defense, amount, against } => (defined(&format!("{amount:+} to defense rolls"))?, *against),
            SpellEffect::Modifier { roll: Roll::Morale, amount, against } => (defined(&format!("{amount:+} to morale test rolls"))?, *against),
            SpellEffect::Modifier { roll: Roll::Hit(w), amount, against } => (defined(&format!("{amount:+} to hit rolls {}", when(Some(*w))))?, *against),
            SpellEffect::Range { inches, against } => (defined(&format!("{inches:+}\" range when shooting"))?, *against),
            SpellEffect::Move { advance, rush } => (defined(&format!("{advance:+}\"/{rush:+}\" moves"))?, false),
            _ => return None,
        };
        Some(if against { Once::Against(name) } else { Once::Holds(name) })
    }
}
