"""A slow, literal reference for attacks: every die is enumerated face by face.

It shares no code with the engine. Rules are given to it as plain numbers read by hand from
the rulebook (Quality, modifiers, AP, ...), and it follows the text step by step: roll to
hit per attack, multiply hits, roll to block per hit (re-rolling a 6 once for Bane), roll to
ignore per wound, then put wounds on models one at a time in the removal order. Partial
tallies with the same value are merged, which keeps small cases fast without changing what
is enumerated.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Optional

SIXTH = 1.0 / 6.0


@dataclass
class OGroup:
    dice: int
    quality: int = 4
    hit_mod: int = 0           # sum of to-hit modifiers
    only_sixes: bool = False   # fatigue
    impact: bool = False       # Impact dice: hit on 2+, nothing else
    ap: int = 0
    ap_on_six: int = 0         # Rending: +4
    extra_hits_on_six: int = 0
    blast: int = 0             # X of Blast(X), 0 = none
    bane: bool = False         # re-roll Defense 6s once
    shred: int = 0             # extra wounds on a final block roll of 1
    rupture: int = 0           # extra wounds on an unblocked hit from a 6
    ignores_regeneration: bool = False
    deadly: int = 1
    takedown: bool = False     # hits the hero if one is joined and others live, else the next model
    # Other editions, as plain numbers:
    ap_six_at_least: int = 0   # v3.4.1/v2/Firefight Rending: hits from 6s have AP(4) (or the weapon's, if higher)
    six_mult: int = 1          # v2 Poison: a hit from a 6 is 3 hits, all from a 6
    extra_attack_on_six: bool = False  # v2 Relentless: each 6 rolls one more attack, which rolls no more
    auto_hit: bool = False     # v2 Impact: automatic hits, no die
    regen_bypass_on_six: bool = False  # v2 Rending: only hits from 6s ignore Regeneration
    multiply: int = 1          # v2 Blast: hits multiplied, no cap
    check_bonus: int = 0       # Firefight Fear: added to wound-effect checks
    # Army-book rules, as plain numbers:
    extra_hits_from: int = 6   # Ferocious Boost: successful unmodified 5s deal the extra hits too
    extra_attack_from: int = 6  # Primal Boost: successful unmodified 5s roll the extra attack too
    reroll_block_from: int = 7  # Scrapper Boost: successful unmodified Defense 5-6 re-rolled once (7: none)
    shred_up_to: int = 1       # Infected Boost: failed Defense rolls of 1-2 deal the Shred wounds
    fixed_need: int = 0        # Ravage/Crush: each die hits on this, no modifiers, nothing on 6s
    unblockable: bool = False  # Ravage: "the target takes one wound", no Defense roll


@dataclass
class OModel:
    tough: int = 1
    defense: int = 4
    hero: bool = False
    regeneration: bool = False


@dataclass
class OTarget:
    models: list                # in removal order, a joined hero last
    cover: bool = False
    defense_mod: int = 0        # e.g. Shielded
    hero_defense: Optional[int] = None
    regen_each: bool = False    # Regeneration of the model taking the wound (v3.4.1, v2, Firefight), not "all models"
    ignore_on: int = 7          # Plaguebound and the like: each wound ignored on this+, whatever ignores Regeneration


def _hit(face: int, g: OGroup) -> str:
    if g.auto_hit:
        return "hit"
    if g.impact:
        return "hit" if face >= 2 else "miss"
    if g.fixed_need:
        return "hit" if face >= g.fixed_need else "miss"
    if face == 6:
        return "six"
    if g.only_sixes or face == 1:
        return "miss"
    return "hit" if face + g.hit_mod >= g.quality else "miss"


def _blocked(face: int, defense: int, ap: int, mod: int) -> bool:
    if face == 6:
        return True
    if face == 1:
        return False
    return face + mod - ap >= defense


def _one_die(g: OGroup, mult: int, defense: int, def_mod: int, regen: bool, extra_allowed: bool = True, ignore_on: int = 7):
    """{(hits, unblocked, wounds): p} for one attack die, every die it leads to enumerated."""
    nxt = defaultdict(float)
    for face in range(1, 7):
        kind = _hit(face, g)
        if kind == "miss":
            nxt[(0, 0, 0)] += SIXTH
            continue
        if kind == "six" and not g.fixed_need:  # only the original hit counts as a 6 (v2 Poison: all three do)
            sixes, others = mult * g.six_mult, mult * g.extra_hits_on_six
        elif not g.auto_hit and not g.impact and not g.fixed_need and face >= g.extra_hits_from:
            sixes, others = 0, mult * (1 + g.extra_hits_on_six)
        else:
            sixes, others = 0, mult
        hits = [True] * sixes + [False] * others
        sub = {(0, 0): 1.0}
        for is_six in hits:
            sub2 = defaultdict(float)
            ap = (max(g.ap, g.ap_six_at_least) + g.ap_on_six) if is_six else g.ap
            for (u1, w1), p1 in sub.items():
                for b in range(1, 7):
                    finals = [(b, SIXTH)]
                    reroll_from = min(g.reroll_block_from, 6 if g.bane else 7)
                    if b >= reroll_from and _blocked(b, defense, ap, def_mod):
                        finals = [(f, SIXTH * SIXTH) for f in range(1, 7)]
                    for fb, pb in finals:
                        if not g.unblockable and _blocked(fb, defense, ap, def_mod):
                            sub2[(u1, w1)] += p1 * pb
                            continue
                        n = 1 + (g.shred if fb <= g.shred_up_to else 0) + (g.rupture if is_six else 0)
                        kept = {0: 1.0}
                        for _ in range(n):
                            k2 = defaultdict(float)
                            for kk, pk in kept.items():
                                for r in range(1, 7):
                                    bypass = g.ignores_regeneration or (is_six and g.regen_bypass_on_six)
                                    ignored = (regen and not bypass and r >= 5) or r >= ignore_on
                                    k2[kk + (0 if ignored else 1)] += pk * SIXTH
                            kept = k2
                        for kk, pk in kept.items():
                            sub2[(u1 + 1, w1 + kk)] += p1 * pb * pk
            sub = sub2
        extra = {(0, 0, 0): 1.0}
        if kind != "miss" and g.extra_attack_on_six and extra_allowed and face >= min(6, g.extra_attack_from):
            extra = _one_die(g, mult, defense, def_mod, regen, extra_allowed=False, ignore_on=ignore_on)
        for (u1, w1), p1 in sub.items():
            for (h2, u2, w2), p2 in extra.items():
                nxt[(len(hits) + h2, u1 + u2, w1 + w2)] += SIXTH * p1 * p2
    return nxt


def _roll_group(g: OGroup, mult: int, defense: int, def_mod: int, regen: bool, ignore_on: int = 7):
    """{(hits, unblocked, wounds): p} for one group, every die enumerated."""
    one = _one_die(g, mult, defense, def_mod, regen, ignore_on=ignore_on)
    tallies = {(0, 0, 0): 1.0}
    for _ in range(g.dice):
        nxt = defaultdict(float)
        for (h0, u0, w0), p0 in tallies.items():
            for (h, u, w), p in one.items():
                nxt[(h0 + h, u0 + u, w0 + w)] += p0 * p
        tallies = nxt
    return tallies


def _attack_states(groups: list, target: OTarget, start=(0, 0, 0)):
    """{(k, w, hp, hits, unblocked, wounds): p} after `groups` attack `target` from state `start`."""
    models = target.models
    n = len(models)
    hero_i = n - 1 if models and models[-1].hero and n > 1 else None
    # state: (removed, wounds on next, hero wounds taken out of order) and the running tallies
    states = {(*start, 0, 0, 0): 1.0}
    for g in groups:
        nxt = defaultdict(float)
        for (k, w, hp, H, U, W), p in states.items():
            hero_dead = hero_i is not None and hp >= models[hero_i].tough
            alive = [m for i, m in enumerate(models) if i >= k and not (hero_dead and i == hero_i)]
            if not alive:
                nxt[(k, w, hp, H, U, W)] += p
                continue
            takes_hero = g.takedown and hero_i is not None and k < hero_i and not hero_dead
            if g.takedown:
                victim = models[hero_i] if takes_hero else models[k]
                view, defense = [victim], victim.defense
            else:
                view = alive
                own_alive = any(not m.hero for m in alive) or hero_i is None
                defense = models[0].defense if own_alive else alive[0].defense
            mult = (min(g.blast, len(view)) if g.blast else 1) * g.multiply
            regen = view[0].regeneration if target.regen_each else all(m.regeneration for m in view)
            def_mod = target.defense_mod + (1 if target.cover and not g.blast else 0)
            for (h, u, wn), q in _roll_group(g, mult, defense, def_mod, regen, target.ignore_on).items():
                k2, w2, hp2 = k, w, hp
                for _ in range(wn):  # wounds one at a time
                    if takes_hero:
                        hp2 = min(hp2 + g.deadly, models[hero_i].tough)
                        continue
                    if k2 >= n:
                        break
                    if g.takedown and k2 != k:
                        break  # a unit of [1]: nothing carries over
                    w2 += g.deadly if g.deadly > 1 else 1
                    if w2 >= models[k2].tough:
                        k2, w2 = k2 + 1, 0
                        if hero_i is not None and k2 == hero_i:
                            w2, hp2 = hp2, 0
                            if w2 >= models[k2].tough:
                                k2, w2 = n, 0
                nxt[(k2, w2, hp2, H + h, U + u, W + wn * g.deadly)] += p * q
        states = nxt
    return states


def _firefight_states(groups: list, target: OTarget, start=(0, 0, False), shooting=True):
    """Firefight: {(k, markers, stunned, hits, unblocked, wounds): p}. "each wound kills one
    model, until only one last model remains. Only the last model then accumulates wound
    markers and rolls": d6 + markers (+ Fear) >= 5 + Tough is Knocked Out, else Stunned.
    A Stunned model hit by shooting is Knocked Out, or, with Tough(X) ("Models with this
    special rule"), takes one wound if it has fewer markers than X. (The oracle's models
    have the Tough rule when their Tough is over 1.)"""
    models = target.models
    n = len(models)
    tough = models[-1].tough
    has_tough = tough > 1
    states = {(*start, 0, 0, 0): 1.0}

    def check(out, k, w, stunned, H, U, W, p, bonus):
        if w + bonus < tough:
            out[(k, w, stunned, H, U, W)] += p
            return
        for face in range(1, 7):
            if face + w + bonus >= 5 + tough:
                out[(n, 0, False, H, U, W)] += p * SIXTH
            else:
                out[(k, w, True, H, U, W)] += p * SIXTH

    for g in groups:
        nxt = defaultdict(float)
        for (k, w, stunned, H, U, W), p in states.items():
            if k >= n:
                nxt[(k, w, stunned, H, U, W)] += p
                continue
            view = models[k:]
            mult = (min(g.blast, len(view)) if g.blast else 1) * g.multiply
            def_mod = target.defense_mod + (1 if target.cover and not g.blast else 0)
            regen = view[0].regeneration
            for (h, u, wn), q in _roll_group(g, mult, models[0].defense, def_mod, regen).items():
                if stunned and shooting:
                    # every hit, blocked or not: Knocked Out, or one wound below Tough
                    w2, out_ = w, False
                    for _ in range(h):
                        if w2 >= tough or not has_tough:
                            out_ = True
                            break
                        w2 += 1
                    if out_:
                        nxt[(n, 0, False, H + h, U + h, W + h)] += p * q
                    elif h:
                        check(nxt, k, w2, True, H + h, U + h, W + h, p * q, g.check_bonus)
                    else:
                        nxt[(k, w, True, H, U, W)] += p * q
                    continue
                k2, w2, took = k, w, False
                for _ in range(wn):  # wounds one at a time
                    if n - k2 > 1:
                        k2 += 1
                    else:
                        w2 += g.deadly
                        took = True
                tallies = (H + h, U + u, W + wn * g.deadly)
                if took:
                    check(nxt, k2, w2, stunned, *tallies, p * q, g.check_bonus)
                else:
                    nxt[(k2, w2, stunned, *tallies)] += p * q
        states = nxt
    return states


def firefight_attack(groups: list, target: OTarget, start=(0, 0, False), shooting=True):
    """pmfs of hits, unblocked, wounds and kills, and P(Stunned at the end)."""
    n = len(target.models)
    out = {name: defaultdict(float) for name in ("hits", "unblocked", "wounds", "kills")}
    p_stunned = 0.0
    for (k, w, stunned, H, U, W), p in _firefight_states(groups, target, start, shooting).items():
        out["hits"][H] += p
        out["unblocked"][U] += p
        out["wounds"][W] += p
        out["kills"][min(k, n) - start[0]] += p
        if k < n and stunned:
            p_stunned += p
    pmfs = {name: [d.get(i, 0.0) for i in range(max(d) + 1)] for name, d in out.items()}
    return pmfs, p_stunned


def _alive(models, state):
    """The models left in `state`, in removal order."""
    k, _, hp = state
    n = len(models)
    model = (lambda m: m.model) if models and isinstance(models[0], OFighter) else (lambda m: m)
    hero_i = n - 1 if models and model(models[-1]).hero and n > 1 else None
    hero_dead = hero_i is not None and hp >= model(models[hero_i]).tough
    return [m for i, m in enumerate(models) if i >= k and not (hero_dead and i == hero_i)]


def attack(groups: list, target: OTarget):
    """pmfs (lists) of hits, unblocked, wounds and kills."""
    models = target.models
    n = len(models)
    hero_i = n - 1 if models and models[-1].hero and n > 1 else None
    states = _attack_states(groups, target)
    out = {name: defaultdict(float) for name in ("hits", "unblocked", "wounds", "kills")}
    for (k, w, hp, H, U, W), p in states.items():
        hero_dead = hero_i is not None and k < hero_i and hp >= models[hero_i].tough
        out["hits"][H] += p
        out["unblocked"][U] += p
        out["wounds"][W] += p
        out["kills"][min(k, n) + (1 if hero_dead else 0)] += p
    return {name: [d.get(i, 0.0) for i in range(max(d) + 1)] for name, d in out.items()}


# ---------------------------------------------------------------------------------------
# Melee, step by step as gf-3.5 "Melee" and "Melee Resolution & Morale" describe it.


@dataclass
class OWeapon:
    attacks: int
    ap: int = 0
    counter: bool = False
    furious: bool = False     # charging: 6s to hit deal 1 extra hit
    thrust: bool = False      # charging: +1 to hit and AP(+1)
    deadly: int = 1


@dataclass
class OFighter:
    """One model that fights: its profile for being hit (in `.model`) and for striking."""
    model: OModel
    quality: int = 4
    weapons: list = field(default_factory=list)
    impact: int = 0
    fear: int = 0
    fearless: bool = False
    fear_d3: bool = False     # v2: "+D3 wounds" for the unit
    morale_mod: int = 0       # v2 Fearless: "+1 to morale tests"


def _strike_groups(fighters, fatigued, charging, which):
    """One group per weapon profile and Quality, in the order the models carry them."""
    merged = {}
    for f in fighters:
        for w in f.weapons:
            if which == "counter" and not w.counter or which == "rest" and w.counter:
                continue
            thrust = charging and w.thrust
            key = (f.quality, w.ap, w.counter, w.furious, w.thrust, w.deadly)
            if key not in merged:
                merged[key] = OGroup(0, quality=f.quality, hit_mod=1 if thrust else 0, only_sixes=fatigued,
                                     ap=w.ap + (1 if thrust else 0), extra_hits_on_six=1 if charging and w.furious else 0,
                                     deadly=w.deadly)
            merged[key].dice += w.attacks
    return [g for g in merged.values() if g.dice]


def melee(charger: list, defender: list, *, defender_shaken=False, charger_fatigued=False,
          defender_fatigued=False, strike_back=True, charger_start=(0, 0, 0), defender_start=(0, 0, 0),
          fearless_needs="all"):
    """Every outcome of a charge: {(winner, charger status, defender status, wounds by
    charger, wounds by defender, charger left, defender left): p}. Fighters are in removal
    order; statuses are "destroyed", "routed", "shaken", "unaffected"."""
    c_target = OTarget([f.model for f in charger])
    d_target = OTarget([f.model for f in defender])
    back_fatigued = defender_fatigued or defender_shaken
    out = defaultdict(float)
    # 1. Counter weapons strike first.
    if strike_back:
        first = _strike_groups(_alive(defender, defender_start), back_fatigued, False, "counter")
        after_counter = _attack_states(first, c_target, charger_start)
    else:
        after_counter = {(*charger_start, 0, 0, 0): 1.0}
    for (ck, cw, chp, _, _, wd1), p1 in after_counter.items():
        c1 = (ck, cw, chp)
        c_alive = _alive(charger, c1)
        # 2. The charger strikes with its models left, with Impact less one per Counter model.
        groups = _strike_groups(c_alive, charger_fatigued, True, "all")
        if not charger_fatigued:
            counters = sum(1 for f in _alive(defender, defender_start) if any(w.counter for w in f.weapons))
            impact = max(0, sum(f.impact for f in c_alive) - counters)
            if impact and c_alive:
                groups.append(OGroup(impact, impact=True))
        after_charge = _attack_states(groups if c_alive else [], d_target, defender_start)
        for (dk, dw, dhp, _, _, wc), p2 in after_charge.items():
            d1 = (dk, dw, dhp)
            d_alive = _alive(defender, d1)
            # 3. The strike back, by the defender's models left.
            if strike_back and c_alive and d_alive:
                back = _strike_groups(d_alive, back_fatigued, False, "rest")
                after_back = _attack_states(back, c_target, c1)
            else:
                after_back = {(*c1, 0, 0, 0): 1.0}
            for (ck2, cw2, chp2, _, _, wd2), p3 in after_back.items():
                c2 = (ck2, cw2, chp2)
                _resolve(out, charger, defender, c2, d1, wc, wd1 + wd2, defender_shaken, p1 * p2 * p3, fearless_needs)
    return dict(out)


def _half_or_less(fighters, state):
    if len(fighters) == 1:
        left = 0 if not _alive(fighters, state) else fighters[0].model.tough - state[1]
        return 2 * left <= fighters[0].model.tough
    return 2 * len(_alive(fighters, state)) <= len(fighters)


def _p_pass(fighters, state, shaken, fearless_needs="all"):
    alive = _alive(fighters, state)
    quality = min(f.quality for f in alive)  # a joined hero may test for the unit
    mod = max(f.morale_mod for f in alive) if all(f.morale_mod for f in alive) else 0
    passes = lambda face: face == 6 or (face != 1 and face + mod >= quality)
    p = 0.0 if shaken else sum(1 for face in range(1, 7) if passes(face)) / 6
    fearless = sum(1 for f in alive if f.fearless)
    if fearless == len(alive) or (fearless_needs == "most" and 2 * fearless > len(alive)):
        p += (1 - p) * 3 / 6  # "On a 4+ it counts as passed instead"
    return p


def _resolve(out, charger, defender, c, d, wc, wd, defender_shaken, p, fearless_needs="all"):
    c_alive, d_alive = _alive(charger, c), _alive(defender, d)
    # v2 Fear: +D3 for a unit with a Fear model, each face 1/3
    d3 = lambda alive: [1, 2, 3] if any(f.fear_d3 for f in alive) else [0]
    for fc in d3(c_alive):
        for fd in d3(d_alive):
            q = (1 / 3 if fc else 1) * (1 / 3 if fd else 1)
            _resolve_one(out, charger, defender, c, d, wc + fc, wd + fd, defender_shaken, p * q, fearless_needs, wc, wd)


def _resolve_one(out, charger, defender, c, d, wc, wd, defender_shaken, p, fearless_needs, dealt_c, dealt_d):
    c_alive, d_alive = _alive(charger, c), _alive(defender, d)
    if not d_alive:
        winner = "charger"
    elif not c_alive:
        winner = "defender"
    else:
        total_c = wc + sum(f.fear for f in c_alive)
        total_d = wd + sum(f.fear for f in d_alive)
        winner = "charger" if total_c > total_d else "defender" if total_d > total_c else "tie"
    wc, wd = dealt_c, dealt_d
    status = {
        "charger": "destroyed" if not c_alive else "unaffected",
        "defender": "destroyed" if not d_alive else "shaken" if defender_shaken else "unaffected",
    }
    outcomes = [(status, 1.0)]
    loser = {"charger": "defender", "defender": "charger"}.get(winner)
    if loser and status[loser] != "destroyed":
        fighters, state = (charger, c) if loser == "charger" else (defender, d)
        shaken = defender_shaken and loser == "defender"
        p_pass = _p_pass(fighters, state, shaken, fearless_needs)
        failed = dict(status)
        failed[loser] = "routed" if _half_or_less(fighters, state) else "shaken"
        outcomes = [(status, p_pass), (failed, 1 - p_pass)]
    for st, q in outcomes:
        if q > 0:
            out[(winner, st["charger"], st["defender"], wc, wd, len(c_alive), len(d_alive))] += p * q
