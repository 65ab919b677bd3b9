"""Points: efficiency against the exact engine, the cost features, loadouts from upgrade
options, the cost model (fit, breakdown, flags, files), fairness and the CLI."""

from __future__ import annotations

import math

import numpy as np
import pytest

import oprstats
from oprstats import CostModel, Target, Unit, _core
from oprstats._points import FAIRNESS_COLUMNS, NOT_IN_TRAINING, OPTION_COLUMNS, UNIT_BANDS, WITHOUT_FAMILY, _conformal, _Terms

pd = pytest.importorskip("pandas")

SQUAD = Unit.parse('Squad [5] Q4+ D4+ | 100pts\n5x Rifle (24", A2, AP(1)), 5x CCW (A1)')
FURIOUS = Unit.parse("Berserkers [5] Q4+ D5+ | 90pts | Furious\n5x Axe (A2, AP(1))")
GRENADIER = Unit.parse('Grenadiers [3] Q4+ D4+ | 80pts\n3x Grenade Launcher (24", A1, Blast(3))')


def features_of(unit: Unit) -> list[tuple[str, str, dict[str, float]]]:
    raw = _core._cost_terms([unit])
    out = []
    for t, (kind, label) in enumerate(zip(raw["kinds"], raw["labels"])):
        feats = {raw["features"][f]: v for tt, f, v in zip(raw["entry_term"], raw["entry_feature"], raw["entry_value"]) if tt == t}
        out.append((kind, label, feats))
    return out


def reference(key: str) -> Target:
    return next(t for t in oprstats.reference_targets() if t.name == key)


# --- features agree with the full exact engine -----------------------------------------

@pytest.mark.parametrize("unit", [SQUAD, GRENADIER], ids=["rifles", "blast"])
@pytest.mark.parametrize("key", ["infantry", "infantry-in-cover", "tough-elites", "regenerating-brutes", "vehicle"])
def test_weapon_feature_is_the_exact_expected_wounds(unit, key):
    ranged = next(w for w in unit.weapons if not w.is_melee)
    target = reference(key)
    single = Unit(unit.name, size=unit.size, quality=unit.quality, defense=unit.defense, weapons=[ranged])
    expected = oprstats.attack(single, target.unit, distance=12, cover=target.cover).wounds.mean()
    (_, _, feats), = [f for f in features_of(unit) if f[0] == "weapon" and "24\"" in f[1]]
    assert feats[f"shoot:{key}"] == pytest.approx(expected, rel=1e-12)
    assert feats[f"shoot*range:{key}"] == pytest.approx(expected * ranged.range / 24)


def test_a_modelled_rule_is_priced_by_what_it_changes():
    """Furious' term holds the charge damage it adds: the unit's with the rule less without."""
    plain = Unit.parse("Berserkers [5] Q4+ D5+\n5x Axe (A2, AP(1))")
    target = reference("elites").unit
    gain = oprstats.attack(FURIOUS, target, melee=True, charging=True).wounds.mean() - oprstats.attack(plain, target, melee=True, charging=True).wounds.mean()
    (_, _, feats), = [f for f in features_of(FURIOUS) if f[0] == "rule"]
    assert gain > 0
    assert feats["melee:elites"] == pytest.approx(gain, rel=1e-12)
    assert feats["rule:Furious"] == 1 and feats["rule:Furious:models"] == 5


def test_durability_feature_is_dice_to_destroy():
    """Durability against rifles: the unit's wounds over the expected wounds per rifle die."""
    unit = Unit.parse("Guards [3] Q4+ D3+ | Tough(3)")
    rifles = Unit.parse('Rifles [10] Q4+ D5+\n10x Rifle (24", A1)')
    per_die = oprstats.attack(rifles, unit, distance=12).wounds.mean() / 10
    (_, _, feats), = [f for f in features_of(unit) if f[0] == "profile"]
    assert feats["durability:rifles"] == pytest.approx(9 / per_die / 100, rel=1e-12)


# --- efficiency --------------------------------------------------------------------------

def test_efficiency_is_the_exact_engine_per_100_points():
    eff = oprstats.efficiency(SQUAD)
    assert eff.modes == oprstats.MODES[:-1]  # all but "casting": SQUAD casts no spell
    assert eff.targets == tuple(t.name for t in oprstats.reference_targets())
    assert eff.points == 100 and eff.points_source == "official"
    for mode, kwargs in [("shoot 12", dict(distance=12)), ("shoot 24", dict(distance=24)),
                         ("charge", dict(melee=True, charging=True)), ("charged", dict(melee=True))]:
        for target in oprstats.reference_targets():
            cover = target.cover and not kwargs.get("melee", False)
            r = oprstats.attack(SQUAD, target.unit, cover=cover, **kwargs)
            cell = eff.at(mode, target.name)
            assert cell["wounds"] == pytest.approx(r.wounds.mean(), rel=1e-12)  # 100 points: per 100 is per activation
            assert cell["kills"] == pytest.approx(r.kills.mean(), rel=1e-12)
            assert cell["p_destroyed"] == pytest.approx(r.p_destroyed, abs=1e-12)


def test_efficiency_scales_by_points_and_takes_custom_targets():
    target = Unit.parse("Horde [20] Q5+ D6+")
    a = oprstats.efficiency(SQUAD, targets=[target], modes=["shoot 24"])
    b = oprstats.efficiency(SQUAD, targets=[Target("horde", target)], modes=["shoot 24"], cost=200)
    assert a.targets == ("Horde",) and b.targets == ("horde",)
    assert b.wounds[0, 0] == pytest.approx(a.wounds[0, 0] / 2)
    assert np.array_equal(a.expected_wounds, b.expected_wounds)
    frame = a.to_pandas()
    assert list(frame["target"]) == ["Horde"] and frame["wounds_per_100"][0] == pytest.approx(a.wounds[0, 0])


def test_durability_is_points_of_reference_attacks():
    unit = Unit.parse("Guards [3] Q4+ D3+ | 90pts | Tough(3)")
    eff = oprstats.efficiency(unit)
    for key, profile, cost in oprstats.reference_attackers():
        attacker = Unit.parse(profile)
        melee = "CCW" in profile or "Blade (" in profile
        wounds = oprstats.attack(attacker, unit, melee=melee, charging=melee, distance=12).wounds.mean()
        assert eff.durability[key] == pytest.approx(cost * 9 / wounds, rel=1e-12)
    tougher = oprstats.efficiency(Unit.parse("Guards [3] Q4+ D3+ | 90pts | Tough(3), Regeneration"))
    assert all(tougher.durability[k] > eff.durability[k] for k in eff.durability)


def test_efficiency_curve_shape_and_order():
    curve = oprstats.efficiency_curve(SQUAD, measure="wounds")
    assert curve.values.shape == (5, 4)
    assert list(curve.defense) == [6, 5, 4, 3, 2] and list(curve.tough) == [1, 3, 6, 12]
    # a better Defense never takes more wounds from the same AP(1) guns (D6+ and D5+ both
    # block only on a 6 against AP(1)), and Tough does not change wounds dealt
    assert np.all(np.diff(curve.values, axis=0) <= 0) and np.all(np.diff(curve.values[1:], axis=0) < 0)
    assert np.allclose(curve.values, curve.values[:, :1])
    # and the cell equals the engine against the documented target
    target = _core._curve_target(4, 3, "3.5")
    assert target.size == 3 and target.tough == 3 and target.defense == 4
    assert curve.values[2, 1] == pytest.approx(oprstats.attack(SQUAD, target, distance=12).wounds.mean(), rel=1e-12)
    kills = oprstats.efficiency_curve(SQUAD, measure="kills", mode="charge", defense=[4], tough=[1])
    assert kills.values.shape == (1, 1)


def test_points_destroyed_values_each_wound_at_the_targets_price():
    """The default measure: a wound is worth the target's points over its wounds, so the
    points destroyed never exceed the target's points, whatever its size or Tough."""
    eff = oprstats.efficiency(SQUAD)
    for j, target in enumerate(oprstats.reference_targets()):
        price = CostModel.default().predict(target.unit).points
        wounds = sum(m.tough for m in target.unit.models)
        assert eff.target_points[j] == pytest.approx(price) and eff.target_wounds[j] == wounds
        assert np.allclose(eff.points_destroyed[:, j], eff.wounds[:, j] * price / wounds, rtol=1e-12)
        assert np.all(eff.points_destroyed[:, j] <= price * 100 / eff.points + 1e-9)
    # one cell from the attack engine: the Tough(6) monster worth P loses w wounds of its six,
    # so w * P / 6 points per activation, which is per 100 points for this 100-point unit
    j = eff.targets.index("monster")
    w = oprstats.attack(SQUAD, oprstats.reference_targets()[j].unit, melee=True, charging=True).wounds.mean()
    assert eff.points_destroyed[eff.modes.index("charge"), j] == pytest.approx(w * eff.target_points[j] / 6, rel=1e-12)
    # a real target is worth its official cost
    real = Unit.parse("Drones [10] Q5+ D6+ | 80pts")
    assert oprstats.efficiency(SQUAD, targets=[real]).target_points == (80.0,)
    cell = eff.at("charge", "monster")
    assert cell["points"] == pytest.approx(eff.points_destroyed[eff.modes.index("charge"), eff.targets.index("monster")])
    curve = oprstats.efficiency_curve(SQUAD)
    assert curve.measure == "points" and curve.mode == "shoot 12"
    wounds = oprstats.efficiency_curve(SQUAD, measure="wounds")
    # the Tough(6) target's six wounds share its price
    target = _core._curve_target(4, 6, "3.5")
    assert curve.values[2, 2] == pytest.approx(wounds.values[2, 2] * curve.target_points[2, 2] / 6, rel=1e-12)
    assert curve.target_points[2, 2] == pytest.approx(CostModel.default().predict(target).points)
    assert list(curve.models) == [10, 3, 1, 1] and curve.target_labels[:2] == ["10 × Tough 1", "3 × Tough 3"]
    with pytest.raises(ValueError, match="measure: must be one of"):
        oprstats.efficiency_curve(SQUAD, measure="damage")


def test_a_melee_only_unit_charges_by_default_and_is_warned_when_asked_to_shoot():
    brawler = Unit.parse("Brawlers [5] Q4+ D4+ | 60pts\n5x CCW (A2)")
    assert oprstats.efficiency_curve(brawler).mode == "charge"
    with pytest.warns(UserWarning, match="Brawlers has no ranged weapon, so it deals nothing"):
        oprstats.efficiency_curve(brawler, mode="shoot 24")


def test_homebrew_efficiency_uses_the_modelled_price():
    homebrew = Unit.parse('Homebrew [5] Q4+ D4+\n5x Rifle (24", A2, AP(1)), 5x CCW (A1)')
    eff = oprstats.efficiency(homebrew, modes=["charge"])
    assert eff.points_source == "modelled"
    assert eff.points == pytest.approx(CostModel.default().predict(homebrew).points)


# --- loadouts from upgrade options -------------------------------------------------------

def test_variants_of_the_example_book():
    book = oprstats.example_book()
    squad = book.unit("Warden Squad")
    variants = {label: (unit, cost) for label, unit, cost in book.variants(squad)}
    unit, cost = variants["Replace one Line Rifle: Plasma Lance (18\", A1, AP(4), Deadly(3))"]
    assert cost == 15 and unit.cost == 110 + 15
    assert sorted(str(w) for w in unit.weapons) == sorted(['4x Line Rifle (24", A1, AP(1))', "5x CCW (A1)", 'Plasma Lance (18", A1, AP(4), Deadly(3))'])
    unit, cost = variants["Upgrade all models with: Shield Matrix (Shielded)"]
    assert unit.cost == 130 and all("Shielded" in m.rules for m in unit.models)
    captain = book.variants("Warden Captain")
    assert [str(w) for w in captain[0][1].weapons] == ["Warden Blade (A3, AP(1))", 'Plasma Lance (18", A1, AP(4), Deadly(3))']


def test_variants_of_the_real_books(book_paths):
    total = 0
    for path in book_paths:
        book = oprstats.load_army_book(path)
        for unit in book.units:
            for label, v, cost in book.variants(unit):
                total += 1
                assert v.cost == unit.cost + cost, label
                assert v != unit or cost == 0, label
    assert total > 6000  # of 7,973 options; the rest replace weapons other options give


# --- the cost model ----------------------------------------------------------------------

def synthetic_units():
    rng = np.random.default_rng(7)
    weapons = ['Rifle (24", A1)', 'Gun (18", A2, AP(1))', 'Cannon (30", A1, AP(3), Blast(3))', "CCW (A2)", "Axe (A3, AP(2))"]
    units = []
    for i in range(120):
        size = int(rng.choice([1, 3, 5, 10]))
        tough = int(rng.choice([1, 3, 6])) if size < 10 else 1
        rules = [f"Tough({tough})"] if tough > 1 else []
        if rng.random() < 0.3:
            rules.append("Fast")
        ws = [f"{size}x {weapons[j]}" for j in rng.choice(len(weapons), size=2, replace=False)]
        units.append(Unit(f"U{i}", size=size, quality=int(rng.integers(3, 6)), defense=int(rng.integers(2, 6)), rules=rules, weapons=ws))
    return units


def test_fit_recovers_a_known_linear_price():
    """Costs made from known weights on the engine's features are learnt back."""
    units = synthetic_units()
    terms = _Terms(units, "3.5")
    truth = {"models": 4.0, "durability:rifles": 60.0, "shoot:infantry": 6.0, "shoot*range:elites": 9.0, "melee:heavy-infantry": 5.0,
             "rule:Fast*value": 0.25}
    costs = np.bincount(terms.term_unit, weights=terms.term_points(truth), minlength=len(units))
    priced = [Unit(u.name, size=u.size, quality=u.quality, defense=u.defense, rules=u.rules, weapons=u.weapons, cost=int(round(c)))
              for u, c in zip(units, costs)]
    model = CostModel.fit(priced, ridge=1e-6, ridge_by_name=1e-6, iterations=8)
    predicted = model.prices(priced)
    assert np.max(np.abs(predicted - costs) / costs) < 0.02
    assert model.info["units"] == 120


def test_prediction_breakdown_sums_and_files_round_trip(tmp_path):
    model = CostModel.default()
    assert model.edition == "3.5" and model.info["leave_one_book_out"]["median"] < 0.05
    squad = oprstats.example_book().unit("Warden Squad")
    price = model.predict(squad)
    assert price.points == pytest.approx(sum(t.points for t in price.terms))
    assert price.points == pytest.approx(model.prices([squad])[0])
    assert {t.kind for t in price.terms} == {"profile", "weapon", "rule"}
    assert price.rounded % 5 == 0 and price.difference == pytest.approx(110 - price.points)
    assert list(price.to_pandas().columns) == ["kind", "term", "points"]
    model.save(tmp_path / "m.json")
    again = CostModel.load(tmp_path / "m.json")
    assert again.predict(squad).points == pytest.approx(price.points, rel=1e-9)


def test_unknown_rules_are_priced_without_and_flagged():
    plain = Unit.parse('Homebrew [5] Q4+ D4+\n5x Rifle (24", A1)')
    with pytest.warns(oprstats.UnknownRuleWarning) as record:  # made-up names, on purpose
        odd = Unit.parse('Homebrew [5] Q4+ D4+ | Moonwalk, Fast\n5x Rifle (24", A1, Glitter)')
    assert len(record) == 2
    model = CostModel.default()
    p, q = model.predict(plain), model.predict(odd)
    assert q.ignored == ("Moonwalk", "Glitter")
    assert "Fast" not in q.ignored
    assert q.points > p.points  # Fast is priced
    assert [t.label for t in q.terms if t.kind == "rule"] == ["Moonwalk", "Fast"]
    assert [t.points for t in q.terms if t.label == "Moonwalk"] == [0.0]
    row = oprstats.fairness([odd]).iloc[0]
    assert row["ignored_rules"] == "Moonwalk, Glitter" and math.isnan(row["difference"])


def test_fairness_frame():
    frame = oprstats.fairness(oprstats.example_book())
    assert list(frame.columns) == list(FAIRNESS_COLUMNS)
    assert len(frame) == 6
    assert list(frame["difference_pct"].abs()) == sorted(frame["difference_pct"].abs(), reverse=True)
    assert np.allclose(frame["difference"], frame["official"] - frame["modelled"], atol=0.11)
    # the example book is in no training family: the model fitted on every book never saw it
    assert set(frame["judged"]) == {NOT_IN_TRAINING}
    assert ((frame["low"] < frame["modelled"]) & (frame["modelled"] < frame["high"])).all()
    over, under = frame["official"] > frame["high"], frame["official"] < frame["low"]
    assert list(frame["verdict"]) == ["over-costed" if o else "under-costed" if u else "within interval" for o, u in zip(over, under)]
    army = oprstats.fairness(oprstats.example_army())
    assert "Warden Squad + Warden Captain" in set(army["unit"])


def test_a_joined_unit_is_priced_as_its_parts():
    """Lists price a joined hero and its unit apart and add them; so does the model (a
    rule's share is of its own model group's value)."""
    book = oprstats.example_book()
    squad, captain = book.unit("Warden Squad"), book.unit("Warden Captain")
    model = CostModel.default()
    joined, parts = model.prices([squad.join(captain)])[0], model.prices([squad, captain]).sum()
    assert joined == pytest.approx(parts, rel=1e-12)


def test_a_hero_aura_is_priced_on_the_unit_it_joins():
    """"This model and its unit get X": measured on a typical unit for a lone hero, and on
    its own unit once joined (where the aura arises)."""
    hero = Unit.parse("Chief [1] Q4+ D4+ | Hero, Tough(3), Furious Aura\nCCW (A3)")
    brawlers = Unit.parse("Brawlers [10] Q4+ D5+\n10x Axe (A2)")
    shooters = Unit.parse('Shooters [10] Q4+ D5+\n10x Rifle (24", A1), 10x CCW (A1)')
    aura = lambda u: next(dict(f) for kind, label, f in features_of(u) if label.endswith("Furious Aura"))
    alone, on_brawlers, on_shooters = aura(hero), aura(brawlers.join(hero)), aura(shooters.join(hero))
    assert alone["aura"] == 1.0 and alone["aura:offense"] > 0
    # Furious adds hits in melee: worth more to 20 axe attacks than to 10 close combat weapons
    assert on_brawlers["aura:offense"] > on_shooters["aura:offense"] > 0


def test_option_fairness_of_a_book():
    book = oprstats.example_book()
    frame = oprstats.fairness(book, options=True)
    assert list(frame.columns) == list(OPTION_COLUMNS)
    assert len(frame) == sum(len(book.variants(u)) for u in book.units) == 4
    model = CostModel.default()
    squad = book.unit("Warden Squad")
    for label, variant, cost in book.variants(squad):
        row = frame[(frame["unit"] == "Warden Squad") & (frame["option"] == label)].iloc[0]
        assert row["official"] == cost
        assert row["modelled"] == pytest.approx(model.prices([variant])[0] - model.prices([squad])[0], abs=0.051)
        assert row["low"] < row["modelled"] < row["high"]
    assert list(frame["difference"].abs()) == sorted(frame["difference"].abs(), reverse=True)
    with pytest.raises(ValueError, match="options: .*army book"):
        oprstats.fairness(oprstats.example_army(), options=True)


def test_a_loadout_with_several_options():
    book = oprstats.example_book()
    squad = book.unit("Warden Squad")
    labels = [label for label, _, _ in book.variants(squad)]
    both = book.loadout(squad, [labels[0], labels[2]])
    assert both.cost == 110 + 15 + 20
    assert both.has_rule("Shielded") and any("Plasma Lance" in w.name for w in both.weapons)
    assert book.loadout(squad, []) == squad
    one = dict((label, v) for label, v, _ in book.variants(squad))
    assert book.loadout(squad, [labels[1]]) == one[labels[1]]
    # "Replace one Line Rifle" is one choice: a second option from it is refused
    with pytest.raises(ValueError, match=r"options\[1\].*one option too many.*allows 1"):
        book.loadout(squad, [labels[0], labels[1]])
    with pytest.raises(ValueError, match=r"options\[1\].*not an option"):
        book.loadout(squad, [labels[0], "Replace everything: Sword"])
    with pytest.raises(ValueError, match="Swarm Drones"):
        book.loadout("Swarm Drones", ["Replace one Line Rifle: Sword"])


def test_the_price_keeps_the_official_calculators_relations():
    """OPR's published calculators (AoF Point Calculator v1.10) price a weapon on its own,
    whatever the Tough of its bearer, and a model's base per wound by Quality and Defense:
    the learnt price per wound rises with a better Defense, and with a better Quality."""
    model = CostModel.default()
    rifle = [next(t.points for t in model.predict(Unit.parse(f'Walker [1] Q4+ D2+ | Tough({t})\nStorm Rifle (24", A3, AP(1))')).terms
                  if t.kind == "weapon") for t in (6, 12, 18)]
    assert rifle[0] == rifle[1] == rifle[2] > 0
    per_wound = {(q, d): model.predict(Unit.parse(f"Block [1] Q{q}+ D{d}+ | Tough(6)")).terms[0].points / 6
                 for q in range(2, 7) for d in range(2, 7)}
    # the pairs the books have at least 8 units of (Q6+ and the other corners have 0 to 4:
    # their prices are extrapolated, and not held to this)
    seen = {(2, 2), (3, 2), (3, 3), (3, 4), (3, 5), (4, 2), (4, 3), (4, 4), (4, 5), (5, 4), (5, 5), (5, 6)}
    for q, d in seen:
        if (q, d + 1) in seen:
            assert per_wound[q, d] > per_wound[q, d + 1], (q, d)
        if (q + 1, d) in seen:
            assert per_wound[q, d] > per_wound[q + 1, d], (q, d)


def test_fairness_cli(capsys, book_paths):
    from oprstats.cli import main

    assert main(["fairness"]) == 0
    out = capsys.readouterr().out
    assert "Official" in out and "Swarm Drones" in out and "Range" in out
    assert main(["fairness", str(book_paths[0]), "--top", "3"]) == 0
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    assert len(lines) == 4 + 2 + 3 and "judged without its family" in out
    assert main(["fairness", str(book_paths[0]), "--top", "3", "--in-sample"]) == 0
    out = capsys.readouterr().out
    assert "judged in sample" in out and "No range in sample" in out
    assert main(["fairness", str(book_paths[0]), "--options", "--top", "5"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert "Option" in lines[4] and len(lines) == 4 + 2 + 5
    assert all(len(line) < 200 for line in lines)


# --- accuracy on the real books ------------------------------------------------------------

@pytest.fixture(scope="module")
def real_books(book_paths):
    return [oprstats.load_army_book(p) for p in book_paths]


@pytest.fixture(scope="module")
def book_cv(real_books):
    return CostModel.cross_validate(real_books)


@pytest.fixture(scope="module")
def family_cv(real_books):
    return CostModel.cross_validate(real_books, by="family")


def test_leave_one_army_out_accuracy(book_cv, family_cv):
    """Cost model v2's targets: each unit priced by a model that never saw its family (a
    book and the books it shares sub-faction copies with), median at most 4% and 90th
    percentile at most 12%; never its book, median at most 3%. Well ahead of the simple
    log-linear baseline; option prices reproduced within a few points."""
    assert len(book_cv.units) == len(family_cv.units) == 1013
    assert family_cv.median <= 0.04, family_cv.summary()
    assert family_cv.p90 <= 0.12, family_cv.summary()
    assert book_cv.median <= 0.03, book_cv.summary()
    assert book_cv.median < book_cv.baseline_median / 4, book_cv.summary()
    assert len(family_cv.option_official) > 6000 and family_cv.option_error <= 4.0, family_cv.summary()
    assert book_cv.worst(5)["error_pct"].abs().iloc[0] == pytest.approx(100 * book_cv.errors.max())


def test_prediction_intervals_cover_as_stated(family_cv):
    """The intervals are split conformal by price band on out-of-sample errors. Calibrated
    without each family in turn, they hold that family's official prices at the stated 90%:
    within 3 points of percent (about three binomial standard errors over 1,013 units; units
    of one family err together, so the spread is somewhat wider than binomial)."""
    errors = np.abs(np.log(family_cv.official / family_cv.predicted))
    band = np.searchsorted(UNIT_BANDS, family_cv.predicted, side="right")
    inside = np.zeros(len(errors), dtype=bool)
    for k in np.unique(family_cv.family):
        held = family_cv.family == k
        for b in np.unique(band[held]):
            h = _conformal(errors[~held & (band == b)], 0.9)
            rows = held & (band == b)
            inside[rows] = errors[rows] <= h
    assert abs(inside.mean() - 0.9) <= 0.03, inside.mean()
    shipped = CostModel.default().intervals
    assert shipped.coverage == 0.9 and shipped.calibrated_on[0] == 1013


def test_fairness_judges_each_book_without_its_family(real_books, family_cv):
    """The parameter file's models fitted without each family are fits of the books (the
    same prices as a fresh leave-one-family-out fit), and fairness() judges each book's
    units with its family's, by book or by unit name (a list's units)."""
    fresh = dict(zip(zip(family_cv.books, family_cv.units), family_cv.predicted))
    for book in real_books:
        frame = oprstats.fairness(book, drivers=0)
        assert set(frame["judged"]) == {WITHOUT_FAMILY}, book.name
        for unit, modelled in zip(frame["unit"], frame["modelled"]):
            assert modelled == pytest.approx(fresh[book.name, unit], abs=0.5), (book.name, unit)
    book = real_books[0]
    by_name = oprstats.fairness(list(book.units), drivers=0).set_index("unit")
    by_book = oprstats.fairness(book, drivers=0).set_index("unit")
    unique = [n for n in by_book.index if list(by_book.index).count(n) == 1 and by_name.loc[n, "judged"] == WITHOUT_FAMILY]
    assert len(unique) > len(by_book) // 2
    assert all(by_name.loc[n, "modelled"] == by_book.loc[n, "modelled"] for n in unique)
    inside = oprstats.fairness(book, in_sample=True, drivers=0)
    assert set(inside["judged"]) == {"in sample"}
    model = CostModel.default()
    assert sorted(inside["modelled"]) == pytest.approx(sorted(np.round(model.prices(list(book.units)), 1)))


def test_shipped_model_is_a_fit_of_the_books(real_books):
    """The parameter file is what scripts/fit_cost_model.py makes from the books (no hand edits)."""
    units = [u for b in real_books for u in b.units]
    fresh = CostModel.fit(real_books).prices(units)
    assert np.max(np.abs(fresh - CostModel.default().prices(units))) < 0.5


def test_option_intervals_cover_as_stated(family_cv):
    """The option intervals, calibrated without each family in turn, hold that family's
    official option prices at the stated 90% (within 3 points of percent)."""
    from oprstats._points import OPTION_BANDS

    errors = np.abs(family_cv.option_official - family_cv.option_predicted)
    band = np.searchsorted(OPTION_BANDS, np.abs(family_cv.option_predicted), side="right")
    inside = np.zeros(len(errors), dtype=bool)
    for k in np.unique(family_cv.option_family):
        held = family_cv.option_family == k
        for b in np.unique(band[held]):
            rows = held & (band == b)
            inside[rows] = errors[rows] <= _conformal(errors[~held & (band == b)], 0.9)
    assert abs(inside.mean() - 0.9) <= 0.03, inside.mean()


def test_loadouts_allow_what_army_forge_allows(real_books):
    """How many options a section gives: "with any" each option once, "up to three models
    with one" three, "any Walker Fist with one" one per fist; sections sharing a label (a
    walker's two claws) are each used."""
    def find(test):
        return next((b, u, f"{o.section}: {o.label}") for b in real_books for u in b.units for o in b.upgrades(u) if test(u, o))

    cases = [
        (lambda u, o: o.section == "Upgrade with any" and "Forward Sentry" in o.label, 1),
        (lambda u, o: o.section.startswith("Upgrade up to three models with one"), 3),
        (lambda u, o: o.section.startswith("Upgrade any Walker Fist with one"), 2),
        (lambda u, o: u.name == "Wolf Combat Walker" and o.section.startswith("Replace") and "Claw" in o.label, 2),
    ]
    for test, allowed in cases:
        book, unit, label = find(test)
        cost = next(c for l, _, c in book.variants(unit) if l == label)
        assert book.loadout(unit, [label] * allowed).cost == unit.cost + allowed * cost, label
        with pytest.raises(ValueError, match=rf"options\[{allowed}\]: .*one option too many"):
            book.loadout(unit, [label] * (allowed + 1))


def test_option_fairness_on_a_real_book(real_books):
    book = next(b for b in real_books if sum(len(b.variants(u)) for u in b.units) > 50)
    frame = oprstats.fairness(book, options=True)
    assert len(frame) == sum(len(book.variants(u)) for u in book.units)
    assert set(frame["judged"]) == {WITHOUT_FAMILY}
    within = (frame["verdict"] == "within interval").mean()
    assert 0.6 < within <= 1.0, within


@pytest.mark.parametrize("edit, words", [
    (lambda d: d["held_out"].update(features=d["held_out"]["features"][:-1]), "held_out.families[0].weights"),
    (lambda d: d["held_out"]["families"][0].update(books="abc"), "held_out.families[0].books"),
    (lambda d: d["held_out"]["unit_names"].update(x=[99]), "held_out.unit_names['x']"),
    (lambda d: d["held_out"].pop("families"), "held_out.families"),
    (lambda d: d.update(held_out=[1]), "held_out."),
    (lambda d: d["intervals"].update(unit_halfwidths=[-0.1, 0.1, 0.1, 0.1]), "intervals.unit_halfwidths"),
    (lambda d: d["intervals"].update(unit_halfwidths=[0.1]), "intervals.unit_halfwidths"),
    (lambda d: d["intervals"].update(option_bands="x"), "intervals.option_bands"),
    (lambda d: d.pop("weights"), "weights"),
])
def test_a_malformed_parameter_file_is_a_clear_error(tmp_path, edit, words):
    import json

    from oprstats._points import shipped_model_path

    data = json.loads(shipped_model_path("3.5").read_text())
    edit(data)
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError) as info:
        CostModel.load(path)
    assert words in str(info.value)


def test_too_few_to_calibrate_gives_no_verdict(tmp_path, real_books):
    """A band with too few calibrated units has an infinite width: no verdict, and the file
    stays valid JSON (null). The same book twice is one family, never judged by its copy."""
    from oprstats._points import _families

    book = oprstats.example_book()
    assert _families([book, book]) == [[0, 1]]
    with pytest.raises(ValueError, match="at least two families"):
        CostModel.fit([book, book], out_of_sample=True)
    model = CostModel.fit([real_books[0], real_books[1], book], out_of_sample=True, variants=False)
    assert model.families == 3
    assert all(math.isinf(w) for w in model.intervals.option_halfwidths)
    model.save(tmp_path / "m.json")
    assert "Infinity" not in (tmp_path / "m.json").read_text()
    assert CostModel.load(tmp_path / "m.json").intervals == model.intervals
    frame = oprstats.fairness(book, model, options=True)
    assert frame["verdict"].isna().all()


# --- bad input -------------------------------------------------------------------------------

@pytest.mark.parametrize("call, error, words", [
    (lambda: oprstats.efficiency("Squad"), ValueError, "unit"),  # read as a list's text, as every group is
    (lambda: oprstats.efficiency(SQUAD, modes=["sniping"]), ValueError, "modes"),
    (lambda: oprstats.efficiency(SQUAD, cost=-5), ValueError, "cost"),
    (lambda: oprstats.efficiency(SQUAD, targets=[]), ValueError, "targets"),
    (lambda: oprstats.efficiency(SQUAD, targets=["Horde"]), TypeError, "targets[0]"),
    (lambda: oprstats.efficiency_curve(SQUAD, defense=[7]), ValueError, "defense"),
    (lambda: oprstats.efficiency_curve(SQUAD, tough=[0]), ValueError, "tough"),
    (lambda: oprstats.efficiency_curve(SQUAD, measure="damage"), ValueError, "measure"),
    (lambda: oprstats.efficiency_curve(SQUAD, defense=range(2, 7), tough=range(1, 500)), ValueError, "at most 1000"),
    (lambda: CostModel.fit([]), ValueError, "nothing to learn"),
    (lambda: CostModel.fit([Unit.parse("A [1] Q4+ D4+")]), ValueError, "no official cost"),
    (lambda: CostModel.fit([SQUAD], ridge=-1), ValueError, "ridge"),
    (lambda: CostModel.fit([SQUAD], iterations=0), ValueError, "iterations"),
    (lambda: CostModel({"models": float("nan")}), ValueError, "weights['models']"),
    (lambda: CostModel.default(edition="2"), ValueError, "no cost model ships"),
    (lambda: CostModel({}, edition="4.0"), ValueError, "4.0"),
    (lambda: oprstats.efficiency(Unit.parse("A [1] Q4+ D4+", edition="2"), edition="2"), ValueError, "pass cost="),
    (lambda: oprstats.fairness([SQUAD], drivers=-1), ValueError, "drivers"),
    (lambda: CostModel.default().predict("Squad"), TypeError, "unit"),
    (lambda: oprstats.fairness([SQUAD], model="default"), TypeError, "model"),
    (lambda: oprstats.fairness([1, 2]), TypeError, "units_or_book[0]"),
    (lambda: CostModel.cross_validate([oprstats.example_book()]), ValueError, "at least two"),
    (lambda: CostModel.cross_validate([oprstats.example_book()] * 2, by="unit"), ValueError, "by"),
    (lambda: CostModel.cross_validate([oprstats.example_book()] * 2, ridge=-1), ValueError, "ridge"),
    (lambda: CostModel.fit([SQUAD], out_of_sample=True), ValueError, "out_of_sample=True needs at least two army books"),
    (lambda: CostModel.fit([SQUAD], out_of_sample="yes"), TypeError, "out_of_sample"),
    (lambda: CostModel.fit([oprstats.example_book()] * 2, out_of_sample=True, coverage=1.5), ValueError, "coverage"),
    (lambda: oprstats.fairness([SQUAD], in_sample=1), TypeError, "in_sample"),
    (lambda: oprstats.fairness([SQUAD], options=True), ValueError, "options"),
    (lambda: oprstats.example_book().loadout("Warden Squad", "Upgrade all models with: Shield Matrix (Shielded)"), TypeError, "options"),
    (lambda: oprstats.example_book().loadout("Nobody", []), ValueError, "Nobody"),
])
def test_bad_input_is_a_clear_error(call, error, words):
    with pytest.raises(error, match=None) as info:
        call()
    assert words in str(info.value)


def test_one_vocabulary_of_modes_and_the_old_names_deprecated():
    """efficiency() names its modes as matchups() does; the old names still work for one
    release, with a DeprecationWarning; MODES lists every mode efficiency() takes."""
    assert oprstats.MODES == ("shoot 12", "shoot 24", "charge", "charged", "casting")
    squad = oprstats.example_book().unit("Warden Squad")
    new = oprstats.efficiency(squad, modes=["shoot 12", "charge"])
    assert new.modes == ("shoot 12", "charge")
    with pytest.warns(DeprecationWarning, match=r"modes: 'shooting 12\"' is now 'shoot 12'"):
        old = oprstats.efficiency(squad, modes=['shooting 12"', "charge"])
    assert old.modes == new.modes and (old.expected_wounds == new.expected_wounds).all()
    with pytest.warns(DeprecationWarning, match="'charging' is now 'charge'"):
        m = oprstats.matchups([squad], [squad], modes=["charging"])
    assert m.modes == ("charge",)
    with pytest.warns(DeprecationWarning):
        assert new.at("charging", new.targets[0]) == new.at("charge", new.targets[0])


def test_efficiency_of_a_book_or_a_list_of_units():
    """``efficiency(book)``: each unit's Efficiency, at its own cost, and a table of each in
    its own mode (what the CLI's ``efficiency BOOK`` prints)."""
    book = oprstats.example_book()
    every = oprstats.efficiency(book)
    assert isinstance(every, oprstats.Efficiencies) and len(every) == len(book.units)
    for e, u in zip(every, book.units):
        alone = oprstats.efficiency(u)
        assert e.unit == u.name and (e.expected_wounds == alone.expected_wounds).all()
    assert [e.unit for e in oprstats.efficiency(list(book.units)[:2])] == [u.name for u in book.units[:2]]
    assert len(oprstats.efficiency(oprstats.example_army())) == len(oprstats.example_army().units)
    table = every.to_pandas()
    drones = oprstats.efficiency(book.unit("Swarm Drones"))
    row = table.set_index("unit").loc["Swarm Drones"]
    assert row["mode"] == oprstats.natural_mode(book.unit("Swarm Drones"))
    assert row["infantry"] == pytest.approx(drones.points_destroyed[drones.modes.index(row["mode"]), drones.targets.index("infantry")])
    assert "<table" in every._repr_html_() and repr(every).startswith(f"<Efficiencies of {len(book.units)} units")
    # targets given once serve every unit, even as a generator
    some = oprstats.efficiency(book, targets=(t for t in oprstats.reference_targets()[:2]))
    assert all(e.targets == tuple(t.name for t in oprstats.reference_targets()[:2]) for e in some)
    with pytest.raises(ValueError, match="cost: a group of units"):
        oprstats.efficiency(book, cost=100)
    with pytest.raises(TypeError, match="unit: expected"):
        oprstats.efficiency(42)
