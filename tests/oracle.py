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


def _hit(face: int, g: OGroup) -> str:
    if g.impact:
        return "hit" if face >= 2 else "miss"
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


def _roll_group(g: OGroup, mult: int, defense: int, def_mod: int, regen: bool):
    """{(hits, unblocked, wounds): p} for one group, every die enumerated."""
    tallies = {(0, 0, 0): 1.0}
    for _ in range(g.dice):
        nxt = defaultdict(float)
        for (h0, u0, w0), p0 in tallies.items():
            for face in range(1, 7):
                kind = _hit(face, g)
                if kind == "miss":
                    nxt[(h0, u0, w0)] += p0 * SIXTH
                    continue
                if kind == "six":  # only the original hit counts as a 6
                    sixes, others = mult, mult * g.extra_hits_on_six
                else:
                    sixes, others = 0, mult
                hits = [True] * sixes + [False] * others
                sub = {(0, 0): 1.0}
                for is_six in hits:
                    sub2 = defaultdict(float)
                    ap = g.ap + (g.ap_on_six if is_six else 0)
                    for (u1, w1), p1 in sub.items():
                        for b in range(1, 7):
                            finals = [(b, SIXTH)]
                            if b == 6 and g.bane:
                                finals = [(f, SIXTH * SIXTH) for f in range(1, 7)]
                            for fb, pb in finals:
                                if _blocked(fb, defense, ap, def_mod):
                                    sub2[(u1, w1)] += p1 * pb
                                    continue
                                n = 1 + (g.shred if fb == 1 else 0) + (g.rupture if is_six else 0)
                                kept = {0: 1.0}
                                for _ in range(n):
                                    k2 = defaultdict(float)
                                    for kk, pk in kept.items():
                                        for r in range(1, 7):
                                            ignored = regen and not g.ignores_regeneration and r >= 5
                                            k2[kk + (0 if ignored else 1)] += pk * SIXTH
                                    kept = k2
                                for kk, pk in kept.items():
                                    sub2[(u1 + 1, w1 + kk)] += p1 * pb * pk
                    sub = sub2
                for (u1, w1), p1 in sub.items():
                    nxt[(h0 + len(hits), u0 + u1, w0 + w1)] += p0 * SIXTH * p1
        tallies = nxt
    return tallies


def attack(groups: list, target: OTarget):
    """pmfs (lists) of hits, unblocked, wounds and kills."""
    models = target.models
    n = len(models)
    hero_i = n - 1 if models and models[-1].hero and n > 1 else None
    # state: (removed, wounds on next, hero wounds taken out of order) -> (p, {stat tuple: p})
    states = {(0, 0, 0, 0, 0, 0): 1.0}  # k, w, hp, hits, unblocked, wounds
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
            mult = min(g.blast, len(view)) if g.blast else 1
            regen = all(m.regeneration for m in view)
            def_mod = target.defense_mod + (1 if target.cover and not g.blast else 0)
            for (h, u, wn), q in _roll_group(g, mult, defense, def_mod, regen).items():
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
    out = {name: defaultdict(float) for name in ("hits", "unblocked", "wounds", "kills")}
    for (k, w, hp, H, U, W), p in states.items():
        hero_dead = hero_i is not None and k < hero_i and hp >= models[hero_i].tough
        out["hits"][H] += p
        out["unblocked"][U] += p
        out["wounds"][W] += p
        out["kills"][min(k, n) + (1 if hero_dead else 0)] += p
    return {name: [d.get(i, 0.0) for i in range(max(d) + 1)] for name, d in out.items()}
