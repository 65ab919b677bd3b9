"""The metagame of a win-rate table (issue 42, item 3): its solvers checked against
constructed cases with known answers (rock-paper-scissors, a dominated strategy, a purely
transitive table, identical strategies, even matchups) and against independent oracles
(scipy's linprog, support enumeration), its prices shown to make every strategy
indifferent, its noise-aware figures on resampled tables, and its refusals."""

from __future__ import annotations

import itertools
import math
import pickle
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oprstats
from oprstats import Metagame, metagame

linprog = pytest.importorskip("scipy.optimize").linprog

RPS = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])


def table_from_logits(logits: np.ndarray) -> np.ndarray:
    """A win-rate table from an antisymmetric logit matrix."""
    return 1.0 / (1.0 + np.exp(-logits))


def random_table(n: int, rng: np.random.Generator, *, strength: float = 0.0, spread: float = 1.0, levels: int = 0) -> np.ndarray:
    """Ratings of spread ``strength`` plus independent counter-play of spread ``spread``
    (logits); ``levels`` rounds each win rate to that many steps (ties, several equilibria)."""
    cyclic = np.triu(rng.normal(0.0, spread, (n, n)), 1)
    r = rng.normal(0.0, strength, n)
    w = table_from_logits(r[:, None] - r[None, :] + cyclic - cyclic.T)
    if levels:
        upper = np.triu(np.round(w * levels) / levels, 1)
        w = upper + np.tril(1.0 - upper.T, -1) + 0.5 * np.eye(n)
    return w


def best_reply_gain(w: np.ndarray, mix: np.ndarray) -> float:
    """How much the best strategy wins above half against the mix (0 at an equilibrium)."""
    return float(np.max(w @ mix) - 0.5)


def linprog_equilibrium(w: np.ndarray) -> tuple[float, np.ndarray]:
    """The row player's optimal mix and the game's value, by scipy: max v subject to
    (p·A)_j >= v for every column j, Σp = 1, p >= 0, with A = W - 1/2."""
    n = w.shape[0]
    a = w - 0.5
    c = np.zeros(n + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((n, 1))])
    a_eq = np.hstack([np.ones((1, n)), np.zeros((1, 1))])
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0], bounds=[(0, None)] * n + [(None, None)], method="highs")
    assert res.success, res.message
    return float(res.x[-1]), res.x[:n]


def enumerated_equilibria(w: np.ndarray, tolerance: float = 1e-9) -> list[np.ndarray]:
    """Every equilibrium with a support on which the equalities have one solution, by trying
    every support: ``A_SS p = 0``, ``Σp = 1``, ``p > 0`` on S, ``(A p)_i <= 0`` off it."""
    n = w.shape[0]
    a = w - 0.5
    found = []
    for size in range(1, n + 1):
        for support in itertools.combinations(range(n), size):
            s = list(support)
            system = np.vstack([a[np.ix_(s, s)], np.ones((1, size))])
            rhs = np.zeros(size + 1)
            rhs[-1] = 1.0
            if np.linalg.matrix_rank(system, tol=1e-10) < size:
                continue
            p_s, *_ = np.linalg.lstsq(system, rhs, rcond=None)
            if np.abs(system @ p_s - rhs).max() > 1e-9 or p_s.min() <= tolerance:
                continue
            p = np.zeros(n)
            p[s] = p_s
            if (a @ p).max() <= tolerance:
                found.append(p)
    return found


def entropy(p: np.ndarray) -> float:
    q = p[p > 0]
    return float(-(q * np.log(q)).sum())


# 1. Constructed cases with known answers


def test_rock_paper_scissors_is_uniform_all_cycle_and_needs_no_price():
    m = metagame(RPS, names=["rock", "paper", "scissors"])
    assert np.allclose(m.mix, 1 / 3, atol=1e-12) and m.unique
    assert m.support.all() and np.all(m.regret == 0.0)
    assert abs(m.transitive_share) < 1e-12
    assert np.allclose(m.ratings, 0.0, atol=1e-12) and np.allclose(m.prices, 0.0, atol=1e-12)
    # the cyclic part is the whole logit table, and it is what clip makes of 0 and 1
    assert np.allclose(m.cyclic, m.logits) and m.logits[1, 0] == pytest.approx(math.log(0.99 / 0.01))


def test_a_weighted_cycle_has_its_known_mix():
    # each side's margin over even: R beats S by 0.4, S beats P by 0.2, P beats R by 0.1:
    # the mix is proportional to the margin of the pair each strategy is not in
    w = np.array([[0.5, 0.4, 0.9], [0.6, 0.5, 0.3], [0.1, 0.7, 0.5]])
    assert np.allclose(metagame(w).mix, np.array([0.2, 0.4, 0.1]) / 0.7, atol=1e-12)


def test_a_dominated_strategy_gets_no_weight_and_a_positive_regret():
    w = np.full((4, 4), 0.6)
    w[:3, :3] = RPS
    w[3, :] = 0.4
    w[3, 3] = 0.5
    m = metagame(w)
    assert np.allclose(m.mix, [1 / 3, 1 / 3, 1 / 3, 0.0], atol=1e-12) and m.unique
    assert m.mix[3] == 0.0 and not m.support[3]
    # it wins 40% against every strategy of the mix: 10 points below even
    assert m.regret[3] == pytest.approx(0.1, abs=1e-12) and np.all(m.regret[:3] == 0.0)
    assert m.prices[3] < 0 < m.prices[:3].min()


def test_a_purely_transitive_table_is_all_strength_and_won_by_the_strongest():
    r = np.array([0.3, -1.0, 1.2, 0.0, 0.5, -0.4])
    w = table_from_logits(r[:, None] - r[None, :])
    m = metagame(w, clip=1e-6)
    assert m.transitive_share == pytest.approx(1.0, abs=1e-12)
    assert np.allclose(m.mix, np.eye(6)[2], atol=1e-12) and m.unique
    # the ratings come back up to a constant, and the prices are the ratings
    assert np.allclose(m.ratings, r - r.mean(), atol=1e-12)
    assert np.allclose(m.prices, r - r.mean(), atol=1e-9)
    assert np.allclose(m.cyclic, 0.0, atol=1e-12)
    # each strategy's regret is what it loses against the strongest
    assert np.allclose(m.regret, 0.5 - w[:, 2], atol=1e-12)


def test_even_matchups_give_the_uniform_mix_and_no_split():
    m = metagame(np.full((6, 6), 0.5))
    assert np.allclose(m.mix, 1 / 6, atol=1e-9) and not m.unique and m.support.all()
    assert math.isnan(m.transitive_share) and np.all(m.prices == 0.0)
    assert "every matchup even" in repr(m)


def test_identical_strategies_share_their_weight_equally():
    # a second rock: the rocks split the third that rock had
    w = np.full((4, 4), 0.5)
    order = [0, 0, 1, 2]
    for i in range(4):
        for j in range(4):
            w[i, j] = RPS[order[i], order[j]]
    m = metagame(w)
    assert np.allclose(m.mix, [1 / 6, 1 / 6, 1 / 3, 1 / 3], atol=1e-9) and not m.unique


def test_a_strategy_even_with_every_other_takes_the_entropy_share():
    # the equilibria are (a, a, a, 1 - 3a) for a in [0, 1/3]; the most mixed is a = 1/4
    w = np.full((4, 4), 0.5)
    w[:3, :3] = RPS
    m = metagame(w)
    assert np.allclose(m.mix, 0.25, atol=1e-8) and not m.unique
    # every one of those is an equilibrium: the reported one is the one of most entropy
    for a in np.linspace(0, 1 / 3, 7):
        other = np.array([a, a, a, 1 - 3 * a])
        assert best_reply_gain(w, other) <= 1e-12 and entropy(other) <= entropy(m.mix) + 1e-12


# 2. Independent oracles


@pytest.mark.parametrize("n, seed", [(3, 0), (5, 1), (8, 2), (20, 3), (60, 4), (150, 5)])
def test_random_tables_against_scipy_linprog(n, seed):
    w = random_table(n, np.random.default_rng(seed), strength=0.3, spread=1.0)
    m = metagame(w)
    value, reference = linprog_equilibrium(w)
    # the symmetric game's value is 0, and no strategy beats the mix
    assert abs(value) < 1e-9
    assert best_reply_gain(m.table, m.mix) <= 1e-9
    assert m.mix.min() >= 0.0 and m.mix.sum() == pytest.approx(1.0, abs=1e-12)
    # a generic table has one equilibrium: scipy's
    assert m.unique
    assert np.allclose(m.mix, reference, atol=1e-7)
    assert np.allclose(m.regret, 0.5 - m.table @ m.mix, atol=1e-9)


@pytest.mark.parametrize("seed", range(8))
def test_small_tables_against_support_enumeration(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(2, 8))
    w = random_table(n, rng, strength=0.5)
    found = enumerated_equilibria(w)
    assert len(found) == 1, found
    assert np.allclose(metagame(w).mix, found[0], atol=1e-9)


@pytest.mark.parametrize("seed", range(10))
def test_tables_with_ties_give_the_most_mixed_equilibrium(seed):
    """Win rates on a coarse grid (ties, identical strategies, several equilibria): the mix
    is an equilibrium of no less entropy than any equilibrium support enumeration finds, it
    does not depend on the order the strategies are given in, and a second call gives the
    same bits."""
    rng = np.random.default_rng(200 + seed)
    n = int(rng.integers(3, 8))
    w = random_table(n, rng, spread=1.5, levels=2)
    m = metagame(w)
    assert best_reply_gain(m.table, m.mix) <= 1e-9
    for other in enumerated_equilibria(w):
        assert entropy(other) <= entropy(m.mix) + 1e-9
    order = rng.permutation(n)
    shuffled = metagame(w[np.ix_(order, order)])
    assert np.allclose(shuffled.mix, m.mix[order], atol=1e-7)
    assert np.array_equal(metagame(w).mix, m.mix)


def test_ratings_are_the_least_squares_fit():
    """The transitive part is the closest matrix r_i - r_j to the logits: a generic least
    squares over every ordered pair agrees, and the split is orthogonal."""
    w = random_table(9, np.random.default_rng(7), strength=0.6, spread=0.5)
    m = metagame(w)
    n = 9
    design = np.zeros((n * n, n))
    for i in range(n):
        for j in range(n):
            design[i * n + j, i] += 1.0
            design[i * n + j, j] -= 1.0
    fitted, *_ = np.linalg.lstsq(design, m.logits.ravel(), rcond=None)
    assert np.allclose(m.ratings, fitted - fitted.mean(), atol=1e-12)
    assert (m.transitive ** 2).sum() + (m.cyclic ** 2).sum() == pytest.approx((m.logits ** 2).sum(), rel=1e-12)
    assert m.transitive_share == pytest.approx((m.transitive ** 2).sum() / (m.logits ** 2).sum(), rel=1e-12)
    assert np.allclose(m.cyclic.sum(axis=1), 0.0, atol=1e-12)


# 3. Prices


def adjusted(m: Metagame) -> np.ndarray:
    """The table once every strategy's win logit is moved by its price."""
    return table_from_logits(m.logits - m.prices[:, None] + m.prices[None, :])


@pytest.mark.parametrize("seed", range(5))
def test_prices_make_every_strategy_worth_taking(seed):
    rng = np.random.default_rng(300 + seed)
    n = int(rng.integers(2, 30))
    m = metagame(random_table(n, rng, strength=0.8, spread=0.7))
    after = adjusted(m)
    # every strategy wins half its games against the whole field: the uniform mix is an
    # equilibrium of the adjusted table, and every strategy is indifferent
    assert np.allclose(after.mean(axis=1), 0.5, atol=1e-10)
    assert abs(best_reply_gain(after, np.full(n, 1 / n))) <= 1e-10
    assert abs(m.prices.sum()) < 1e-9
    # so the adjusted table's metagame is the uniform mix (the most mixed of its equilibria)
    again = metagame(after, clip=1e-9)
    assert np.allclose(again.mix, 1 / n, atol=1e-7) and np.allclose(again.prices, 0.0, atol=1e-8)


def test_prices_in_points_are_the_logits_times_the_rate():
    w = random_table(6, np.random.default_rng(9), strength=0.5)
    m = metagame(w, points_per_logit=150.0)
    assert np.array_equal(m.price_points, m.prices * 150.0) and m.points_per_logit == 150.0
    plain = metagame(w)
    assert plain.price_points is None and plain.points_per_logit is None
    frame = plain.to_pandas()
    assert frame["price_points"].isna().all() and frame["price_logits_low"].isna().all()


# 4. Noise-aware figures


def test_replicates_give_support_probabilities_and_intervals():
    rng = np.random.default_rng(11)
    n = 7
    w = random_table(n, rng, strength=0.6, spread=0.3)
    # symmetric noise on the logits around the table: the estimate is the replicates' centre
    noise = np.triu(rng.normal(0.0, 0.05, (200, n, n)), 1)
    replicates = table_from_logits(np.log(w / (1 - w)) + noise - noise.transpose(0, 2, 1))
    m = metagame(w, replicates=replicates, points_per_logit=100.0, interval=0.9)
    assert m.replicates == 200 and m.replicate_mix.shape == (200, n) and m.replicate_prices.shape == (200, n)
    assert np.all((m.support_probability >= 0) & (m.support_probability <= 1))
    # the share of replicates whose equilibrium gives each strategy weight, exactly
    assert np.array_equal(m.support_probability, (m.replicate_mix > m.support_threshold).mean(axis=0))
    assert np.all(m.prices_low <= m.prices) and np.all(m.prices <= m.prices_high)
    assert np.all(m.price_points_low <= m.price_points) and np.all(m.price_points <= m.price_points_high)
    assert np.allclose(m.prices_low, np.percentile(m.replicate_prices, 5, axis=0))
    assert m.transitive_share_low <= m.transitive_share_high
    # a strategy strictly in the support of every replicate's equilibrium
    strongest = int(np.argmax(m.mix))
    assert m.support_probability[strongest] > 0.5


def test_each_replicate_is_solved_as_a_table_on_its_own():
    rng = np.random.default_rng(12)
    w = random_table(5, rng, spread=1.0)
    replicates = np.stack([random_table(5, rng, spread=1.0) for _ in range(4)])
    m = metagame(w, replicates=replicates)
    for r in range(4):
        alone = metagame(replicates[r])
        assert np.array_equal(m.replicate_mix[r], alone.mix) and np.array_equal(m.replicate_prices[r], alone.prices)


def test_drawn_replicates_are_seeded():
    w = random_table(6, np.random.default_rng(13), strength=0.4)
    a = metagame(w, replicates=50, games=40, seed=5)
    b = metagame(w, replicates=50, games=40, seed=5)
    c = metagame(w, replicates=50, games=40, seed=6)
    assert np.array_equal(a.replicate_prices, b.replicate_prices)
    assert not np.array_equal(a.replicate_prices, c.replicate_prices)
    # the draws are shares of 40 games, complementary
    from oprstats._metagame import drawn_tables

    drawn = drawn_tables(a.table, np.full((6, 6), 40), np.random.SeedSequence(5).spawn(50))
    assert np.allclose(drawn * 40, np.round(drawn * 40)) and np.allclose(drawn + drawn.transpose(0, 2, 1), 1.0)
    assert np.array_equal(metagame(w, replicates=drawn).replicate_prices, a.replicate_prices)
    # more games, less spread
    wide = metagame(w, replicates=100, games=20, seed=1)
    narrow = metagame(w, replicates=100, games=2000, seed=1)
    assert np.all(narrow.prices_high - narrow.prices_low < wide.prices_high - wide.prices_low)


def test_replicates_on_a_cluster_are_the_local_ones():
    distributed = pytest.importorskip("distributed")
    w = random_table(6, np.random.default_rng(14), strength=0.4)
    given = np.stack([random_table(6, np.random.default_rng(s), strength=0.4) for s in range(7)])
    local_drawn = metagame(w, replicates=9, games=30, seed=4)
    local_given = metagame(w, replicates=given)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        for partitions in (None, 3):
            drawn = metagame(w, replicates=9, games=30, seed=4, client=client, partitions=partitions)
            assert np.array_equal(drawn.replicate_mix, local_drawn.replicate_mix)
            assert np.array_equal(drawn.replicate_prices, local_drawn.replicate_prices)
            assert np.array_equal(metagame(w, replicates=given, client=client, partitions=partitions).replicate_prices,
                                  local_given.replicate_prices)
        # a bad replicate is named by its place in the whole set, not in its block
        bad = given.copy()
        bad[5, 0, 0] = 0.7
        with pytest.raises(ValueError, match=r"replicates\[5\]\[0, 0\]: must be 0.5"):
            metagame(w, replicates=bad, client=client, partitions=3)


def test_without_replicates_the_noise_aware_figures_are_absent():
    m = metagame(RPS)
    assert m.replicates == 0
    for name in ("support_probability", "prices_low", "prices_high", "transitive_share_low", "transitive_share_high", "replicate_mix",
                 "price_points_low"):
        assert getattr(m, name) is None, name
    assert m.to_pandas()["support_probability"].isna().all()


# 5. Inputs and outputs


def test_a_dataframe_names_the_strategies():
    pd = pytest.importorskip("pandas")
    names = ["rock", "paper", "scissors"]
    m = metagame(pd.DataFrame(RPS, index=names, columns=names))
    assert m.names == tuple(names)
    frame = m.to_pandas()
    assert list(frame.columns) == ["strategy", "mix", "regret", "in_support", "support_probability", "rating", "price_logits",
                                   "price_logits_low", "price_logits_high", "price_points", "price_points_low", "price_points_high"]
    assert list(frame["strategy"]) == names
    with pytest.raises(ValueError, match="rows and columns must name the same strategies"):
        metagame(pd.DataFrame(RPS, index=names, columns=names[::-1]))
    with pytest.raises(ValueError, match="names: give names= or a table that names the strategies"):
        metagame(pd.DataFrame(RPS, index=names, columns=names), names=names)


def test_a_faction_table_and_a_measured_rate_are_read_as_they_come():
    """What faction_table() and points_per_logit() give: a table with win_rates, names and
    bootstrap replicates, and a measure whose float() is the points a logit."""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Table:
        names: tuple
        win_rates: np.ndarray
        replicates: np.ndarray

    @dataclass(frozen=True)
    class Rate:
        estimate: float

        def __float__(self) -> float:
            return self.estimate

    w = random_table(4, np.random.default_rng(15), strength=0.5)
    draws = np.stack([random_table(4, np.random.default_rng(s), strength=0.5) for s in range(5)])
    m = metagame(Table(("a", "b", "c", "d"), w, draws), replicates=Table(("a", "b", "c", "d"), w, draws).replicates, points_per_logit=Rate(460.0))
    assert m.names == ("a", "b", "c", "d") and m.replicates == 5 and m.points_per_logit == 460.0
    assert np.array_equal(m.mix, metagame(w).mix) and np.array_equal(m.price_points, m.prices * 460.0)
    with pytest.raises(ValueError, match=r"points_per_logit: must be above 0 .*\(got inf\)"):
        metagame(w, points_per_logit=Rate(math.inf))


def test_a_near_complement_is_made_exact():
    w = RPS.copy()
    w[0, 1] = 1e-7
    m = metagame(w)
    assert m.table[0, 1] + m.table[1, 0] == 1.0 and m.table[0, 1] == pytest.approx(5e-8)


def test_the_result_is_immutable_pickles_and_shows_itself():
    m = metagame(RPS, names=["rock", "paper", "scissors"], replicates=np.stack([RPS] * 3))
    with pytest.raises(AttributeError, match="immutable"):
        m.mix = np.zeros(3)
    with pytest.raises(ValueError):
        m.mix[0] = 1.0
    again = pickle.loads(pickle.dumps(m))
    assert all(np.array_equal(getattr(again, k), getattr(m, k)) if isinstance(getattr(m, k), np.ndarray) else getattr(again, k) == getattr(m, k)
               for k in Metagame.__slots__ if k != "transitive_share")
    text = repr(m)
    assert text.startswith("Metagame(3 strategies: equilibrium") and "rock 0.333" in text and "3 replicates" in text
    html = m._repr_html_()
    assert "scissors" in html and "P(support)" in html and "<script" not in html
    assert len(m) == 3


def test_a_name_with_markup_is_escaped():
    m = metagame(RPS, names=["<b>rock</b>", "paper", "scissors"])
    assert "<b>rock" not in m._repr_html_() and "&lt;b&gt;rock" in m._repr_html_()


def test_the_core_reads_a_misaligned_array_and_refuses_other_types():
    """An array that came over the wire (a Dask worker's) may not be aligned: numpy's view of
    it would panic in the core, which reads an aligned copy instead."""
    raw = np.zeros(9 * 8 + 1, dtype=np.uint8)
    raw[1:] = np.frombuffer(RPS.tobytes(), dtype=np.uint8)
    misaligned = np.frombuffer(raw.data, dtype=float, count=9, offset=1).reshape(3, 3)
    assert not misaligned.flags.aligned
    assert np.allclose(oprstats._core._metagame(misaligned, 0.01)["mix"], 1 / 3)
    assert np.allclose(oprstats._core._metagame_replicates(misaligned[None], 0, 0.01, None)["mix"], 1 / 3)
    with pytest.raises(TypeError, match=r"table: expected a 2-D numpy array of float64, got a 2-D ndarray of float32"):
        oprstats._core._metagame(RPS.astype(np.float32), 0.01)
    with pytest.raises(TypeError, match=r"replicates: expected a 3-D numpy array of float64, got a 2-D ndarray of float64"):
        oprstats._core._metagame_replicates(RPS, 0, 0.01, None)


def test_the_documentation_example_prints_what_the_page_says():
    """docs/metagame.md's example, run: its repr and its rows are the page's."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "metagame.md").read_text(encoding="utf-8")
    names = ["Gunline", "Melee horde", "Fast raiders", "Elite knights"]
    table = np.array([[0.50, 0.62, 0.41, 0.55], [0.38, 0.50, 0.64, 0.47], [0.59, 0.36, 0.50, 0.58], [0.45, 0.53, 0.42, 0.50]])
    m = metagame(table, names=names, replicates=1000, games=200, points_per_logit=500, seed=1)
    printed = " ".join(line.lstrip("# ").strip() for line in page.split("print(m)\n", 1)[1].splitlines()[:2])
    assert printed == repr(m)
    frame = m.to_pandas().set_index("strategy")
    for name in names:
        (row,) = [line for line in page.splitlines() if line.startswith("#") and line[1:].strip().split("  ")[0] == name]
        values = [float(x) for x in row[1:].replace(name, "").split()]
        want = frame.loc[name, ["mix", "regret", "support_probability", "price_points", "price_points_low", "price_points_high"]]
        assert np.allclose(values, want.to_numpy(dtype=float), atol=6e-4), (name, values, list(want))


def test_without_pandas_the_table_error_names_the_extra(monkeypatch):
    import sys

    m = metagame(RPS)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"needs pandas: pip install 'oprstats\[pandas\]'"):
        m.to_pandas()
    # the function itself does not need it
    assert metagame(RPS, names=np.array(["r", "p", "s"])).names == ("r", "p", "s")


# 6. Refusals


@pytest.mark.parametrize("table, kind, message", [
    (np.full((3, 4), 0.5), ValueError, r"table: must be square, a row and a column per strategy \(got shape \(3, 4\)\)"),
    (np.full(3, 0.5), ValueError, r"table: must be square"),
    (np.array([[0.5]]), ValueError, r"table: a table needs at least 2 strategies"),
    ([["a", "b"], ["c", "d"]], TypeError, r"table: expected a square array of win rates"),
    (np.array([[0.5, 0.7], [0.4, 0.5]]), ValueError, r"table\[0, 1\] \+ table\[1, 0\]: must be 1 .*\(got 0.7 \+ 0.4 = 1.1"),
    (np.array([[0.5, np.nan], [0.5, 0.5]]), ValueError, r"table\[0, 1\]: must be a finite share of games won \(got NaN\)"),
    (np.array([[0.5, 1.5], [-0.5, 0.5]]), ValueError, r"table\[0, 1\]: must be a share of games won, from 0 to 1 \(got 1.5\)"),
    (np.array([[0.6, 0.5], [0.5, 0.5]]), ValueError, r"table\[0, 0\]: must be 0.5"),
])
def test_bad_tables_are_refused_naming_the_entry(table, kind, message):
    with pytest.raises(kind, match=message):
        metagame(table)


def test_bad_options_are_refused_naming_the_field():
    w = RPS
    for call, kind, message in [
        (lambda: metagame(w, names=["a", "b"]), ValueError, r"names: one per strategy, 3 \(got 2\)"),
        (lambda: metagame(w, names=["a", "a", "b"]), ValueError, r"names\[1\]: each strategy's name once"),
        (lambda: metagame(w, names="abc"), TypeError, r"names: expected a sequence"),
        (lambda: metagame(w, names={"a", "b", "c"}), TypeError, r"names: expected a sequence of 3 names, got set"),
        (lambda: metagame(w, replicates=np.full((2, 3, 4), 0.5)), ValueError, r"replicates: expected resampled tables of shape \(R, 3, 3\)"),
        (lambda: metagame(w, replicates=np.zeros((0, 3, 3))), ValueError, r"replicates: at least one"),
        (lambda: metagame(w, replicates=np.stack([RPS, np.full((3, 3), 0.7)])), ValueError, r"replicates\[1\]\[0, 0\]: must be 0.5"),
        (lambda: metagame(w, replicates=10), ValueError, r"games: replicates=<a number> draws tables"),
        (lambda: metagame(w, replicates=0, games=10), ValueError, r"replicates: a number of tables to draw must be 1 or more"),
        (lambda: metagame(w, replicates=True, games=10), TypeError, r"replicates: expected None"),
        (lambda: metagame(w, games=10), ValueError, r"games: only for replicates=<a number>"),
        (lambda: metagame(w, replicates=5, games=0), ValueError, r"games\[0, 1\]: must be a whole number of games"),
        (lambda: metagame(w, replicates=5, games=2.5), TypeError, r"games: expected a whole number or an \(n, n\) array"),
        (lambda: metagame(w, replicates=5, games=np.full((3, 3), 2.5)), ValueError, r"games\[0, 1\]: must be a whole number of games"),
        (lambda: metagame(w, replicates=5, games=np.array([[0, 3, 4], [3, 0, 5], [5, 5, 0]])), ValueError, r"games\[0, 2\]: the games of a pair are the same both ways"),
        (lambda: metagame(w, points_per_logit=0), ValueError, r"points_per_logit: must be above 0 and at most 1e\+06"),
        (lambda: metagame(w, points_per_logit="100"), TypeError, r"points_per_logit: expected a number"),
        (lambda: metagame(w, interval=1.0), ValueError, r"interval: must be above 0 and below 1"),
        (lambda: metagame(w, clip=0.5), ValueError, r"clip: must be at least 1e-09 and below 0.5 \(got 0.5\)"),
        (lambda: metagame(w, support_threshold=-0.1), ValueError, r"support_threshold: must be at least 0 and below 1"),
        (lambda: metagame(w, seed=-1), ValueError, r"seed: -1 must be a non-negative integer"),
        (lambda: metagame(w, threads=0), ValueError, r"threads: must be None or from 1"),
        (lambda: metagame(w, client="localhost"), TypeError, r"client: expected a dask.distributed.Client"),
    ]:
        with pytest.raises(kind, match=message):
            call()


def test_requests_over_the_limits_are_refused_at_once():
    limits = dict(oprstats._core._limits())
    n = limits["MAX_STRATEGIES"] + 1
    start = time.perf_counter()
    with pytest.raises(ValueError, match=rf"table: strategies: {n} is over the limit of {n - 1}"):
        metagame(np.full((n, n), 0.5))
    with pytest.raises(ValueError, match=r"replicates: resampled tables: 10001 is over the limit of 10000"):
        metagame(RPS, replicates=10_001, games=10)
    # 1,000 strategies and 100 replicates: the work, refused before the replicates are drawn
    big = np.full((1000, 1000), 0.5)
    with pytest.raises(ValueError, match=r"metagame work \(strategies³ × \(replicates \+ 1\)\): 101000000000 is over the limit"):
        metagame(big, replicates=100, games=10)
    # an array of replicates too: refused from its shape, before it is read
    with pytest.raises(ValueError, match=r"metagame work"):
        metagame(big, replicates=np.broadcast_to(big, (100, 1000, 1000)))
    assert time.perf_counter() - start < 1.0
    # the core refuses them too, on its own
    with pytest.raises(ValueError, match=r"table: strategies: 2001 is over the limit"):
        oprstats._core._metagame(np.full((2001, 2001), 0.5), 0.01)


# 7. Properties on random tables


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 9), st.integers(0, 2**32 - 1), st.sampled_from([0, 2, 4, 10, 50]), st.floats(0.0, 1.5), st.floats(0.0, 2.0))
def test_properties_of_any_table(n, seed, levels, strength, spread):
    w = random_table(n, np.random.default_rng(seed), strength=strength, spread=spread, levels=levels)
    m = metagame(w)
    # an equilibrium: a mix no strategy beats
    assert m.mix.min() >= 0.0 and m.mix.sum() == pytest.approx(1.0, abs=1e-12)
    assert best_reply_gain(m.table, m.mix) <= 1e-9
    # regrets: never negative, zero on the support
    assert m.regret.min() >= -1e-9 and np.all(np.abs(m.regret[m.mix > 1e-6]) <= 1e-9)
    assert math.isnan(m.transitive_share) or 0.0 <= m.transitive_share <= 1.0
    # the prices make every strategy win half its games against the field
    assert np.allclose(adjusted(m).mean(axis=1), 0.5, atol=1e-9)


# 8. The plot


def test_the_plot_shows_the_mix_the_support_chances_the_regrets_and_the_prices():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import io

    import matplotlib.pyplot as plt

    from oprstats import plot

    rng = np.random.default_rng(21)
    names = [f"list {i}" for i in range(30)]
    m = metagame(random_table(30, rng, strength=0.4, spread=0.4), names=names, replicates=40, games=100, points_per_logit=120.0)
    axes = plot.metagame(m, top=12)
    fig = axes[0].figure
    mix_ax, regret_ax, price_ax = axes
    shown = [t.get_text() for t in mix_ax.get_yticklabels()]
    order = np.lexsort((m.regret, -m.mix))[:12]
    assert shown == [names[i] for i in order[::-1]]  # the metagame at the top
    assert "points" in price_ax.get_xlabel() and "percentage points" in regret_ax.get_xlabel()
    (legend,) = fig.legends
    texts = [t.get_text() for t in legend.get_texts()]
    assert any("chance of being in the support (over 40 resampled tables)" in t for t in texts)
    assert any("interval over the resampled tables" in t for t in texts) and any("regret" in t for t in texts)
    assert "12 of 30 strategies" in fig._suptitle.get_text()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=40)
    plt.close(fig)
    assert buf.getvalue()
    # on the caller's axes, without replicates: logits, no diamonds, no interval
    fig, axes = plt.subplots(1, 3)
    plot.metagame(metagame(RPS, names=["rock", "paper", "scissors"]), ax=axes)
    assert "logits" in axes[2].get_xlabel() and not axes[0].collections
    plt.close(fig)
    with pytest.raises(TypeError, match="expected oprstats.Metagame"):
        plot.metagame(RPS)
