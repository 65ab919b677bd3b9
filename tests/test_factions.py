"""Legal lists drawn from the real books (``random_lists``) and faction tables by paired games
(``faction_table``): every drawn list keeps gf-3.5's army-building rules, a seed draws the
same lists and plays the same table, the win rates are those of the games, and the
two-level bootstrap's intervals have the width sampling theory gives."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

import oprstats
from oprstats import Army, faction_table, random_lists, validate_list
from oprstats import _factions

from .conftest import cite


@pytest.fixture(scope="module")
def books(book_paths):
    return [oprstats.load_army_book(p) for p in book_paths]


def _signature(army: Army) -> list[str]:
    return [repr(u) for u in army.units]


def test_every_book_draws_legal_lists_near_the_game_size(books, rulebook):
    text = rulebook("gf-3.5-beginners-guide.txt")
    for sentence in ("Only 1 hero per 500pts", "Only 1+X copies of the same unit, where X is 1 per 1000pts",
                     "No single unit worth over 35% of total points", "Only 1 unit per 200pts"):
        cite(text, sentence)
    joined = upgraded = 0
    for book in books:
        for army in random_lists(book, points=2000, n=4, seed=7):
            check = validate_list(army, points=2000)
            assert check.ok, (book.name, check)
            assert 0.95 * 2000 <= army.points <= 2000, (book.name, army.points)
            assert army.points_limit == 2000
            joined += sum(u.hero is not None for u in army.units)
            for u in army.units:
                base = book[u.name] if u.hero is None else None
                upgraded += base is not None and u.cost != base.cost
    # heroes are joined and upgrades taken, as players do (not a list of bare units)
    assert joined > 20 and upgraded > 100


def test_small_games_keep_the_rules_too(books):
    for book in books[:10]:
        for army in random_lists(book, points=750, n=3, seed=1, fill=0.8):
            assert validate_list(army, points=750).ok


def test_a_seed_draws_the_same_lists_and_another_seed_others(books):
    book = books[0]
    a = random_lists(book, n=3, seed=11)
    b = random_lists(book, n=3, seed=np.random.SeedSequence(11))
    c = random_lists(book, n=3, seed=12)
    assert [_signature(x) for x in a] == [_signature(x) for x in b]
    assert [_signature(x) for x in a] != [_signature(x) for x in c]


def test_the_weights_do_what_they_say(books):
    book = next(b for b in books if b.name == "Battle Brothers")
    bare = random_lists(book, n=5, seed=2, upgrade_share=0.0, join_share=0.0, fill=0.0)
    for army in bare:
        assert all(u.hero is None for u in army.units)
        # no section taken when drawing; the points left over are still spent on upgrades,
        # so a unit is its book's default or dearer, never cheaper
        assert all(u.cost >= book[u.name].cost for u in army.units)
    joined = random_lists(book, n=10, seed=2, join_share=1.0)
    assert sum(u.hero is not None for a in joined for u in a.units) >= 5


@pytest.mark.parametrize("kwargs, message", [
    (dict(points=100), "points: must be a whole number of points from 200"),
    (dict(points=True), "points:"),
    (dict(n=0), "n: must be a whole number of lists from 1"),
    (dict(upgrade_share=1.5), "upgrade_share: must be a share from 0 to 1"),
    (dict(fill=-0.1), "fill: must be a share"),
])
def test_bad_arguments_are_refused_naming_them(books, kwargs, message):
    with pytest.raises(ValueError, match=message):
        random_lists(books[0], **kwargs)
    with pytest.raises(TypeError, match="book: expected an oprstats.ArmyBook"):
        random_lists("Battle Brothers")


@pytest.fixture(scope="module")
def table(books):
    three = [b for b in books if b.name in ("Battle Brothers", "Orc Marauders", "Dark Elf Raiders")]
    return faction_table(three, lists=2, games=12, seed=5, progress=False)


def test_a_table_is_complementary_and_its_field_the_mean_of_its_rows(table):
    n = len(table)
    assert table.names == ("Battle Brothers", "Dark Elf Raiders", "Orc Marauders")
    w = table.win_rates
    np.testing.assert_allclose(w + w.T, 1.0)
    np.testing.assert_allclose(np.diag(w), 0.5)
    np.testing.assert_allclose(table.field, [(w[i].sum() - 0.5) / (n - 1) for i in range(n)])
    # every pairing of two lists played its pairs of games, counted once from each side
    assert (table.pairs[~np.eye(n, dtype=bool)] == 2 * 2 * 12).all()
    assert ((table.low <= w + 1e-12) & (w <= table.high + 1e-12)).all()
    assert ((table.field_low <= table.field) & (table.field <= table.field_high)).all()
    assert table.replicates.shape == (1000, n, n)
    assert not table.interrupted


def test_the_win_rates_are_the_games(table):
    # faction 0 against faction 2: its lists' pairings, each played again with simulate
    i, j = 0, 2
    scores = []
    for a, army_a in enumerate(table.lists[table.names[i]]):
        for b, army_b in enumerate(table.lists[table.names[j]]):
            root = np.random.SeedSequence(5).spawn(3)[1]
            key = np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + (i, a, j, b))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # unequal points, rules not modelled
                r = oprstats.simulate(army_a, army_b, games=12, seed=key, paired=True, progress=False)
            scores.append(((np.asarray(r.winner, float) + 1) / 2).mean())
    assert table.win_rates[i, j] == pytest.approx(np.mean(scores))


def test_a_seed_plays_the_same_table_whatever_the_threads(books, table):
    three = [b for b in books if b.name in ("Battle Brothers", "Orc Marauders", "Dark Elf Raiders")]
    again = faction_table(three, lists=2, games=12, seed=5, progress=False, threads=1)
    np.testing.assert_array_equal(again.win_rates, table.win_rates)
    np.testing.assert_array_equal(again.replicates, table.replicates)


def test_pools_of_own_lists_and_the_direction_of_a_known_difference(books):
    book = next(b for b in books if b.name == "Battle Brothers")
    army = random_lists(book, n=1, seed=3)[0]
    # the same list against itself with a third of its units gone: the full list must win
    weak = Army(army.units[: max(1, 2 * len(army.units) // 3)], name="weakened")
    with pytest.warns(UserWarning, match="the lists range from .* more than 10% apart"):
        t = faction_table({"full": [army], "weakened": [weak]}, games=60, seed=1, progress=False)
    assert t.win_rates[0, 1] > 0.5 and t.low[0, 1] > 0.5
    assert t.lists["full"] == (army,)


def test_the_bootstrap_has_the_width_sampling_theory_gives():
    # one list a faction: only the pairs of games vary, and the spread of a mean of n pair
    # scores is their standard deviation over sqrt(n)
    rng = np.random.default_rng(0)
    n = 400
    observed = rng.multinomial(n, [0.2, 0.1, 0.3, 0.1, 0.3])
    counts = {(0, 1): observed.reshape(1, 1, 5)}
    draws = _factions._bootstrap(counts, [1, 1], 4000, np.random.SeedSequence(1))[:, 0, 1]
    values = np.repeat(_factions.PAIR_SCORES, observed)
    assert draws.mean() == pytest.approx(values.mean(), abs=0.003)
    assert draws.std() == pytest.approx(values.std() / np.sqrt(n), rel=0.08)
    # two lists a side that differ: the lists' draw widens the interval beyond the games'
    counts = {(0, 1): np.array([[[0, 0, 0, 0, n], [n, 0, 0, 0, 0]], [[0, 0, n, 0, 0], [0, 0, n, 0, 0]]])}
    draws = _factions._bootstrap(counts, [2, 2], 4000, np.random.SeedSequence(1))[:, 0, 1]
    assert draws.std() > 0.1


def test_a_ctrl_c_returns_the_games_played_marked(books, monkeypatch):
    three = [b for b in books if b.name in ("Battle Brothers", "Orc Marauders", "Dark Elf Raiders")]
    real = _factions.play_pairing
    calls = []

    def stopping(**kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(**kwargs)

    monkeypatch.setattr(_factions, "play_pairing", stopping)
    t = faction_table(three, lists=1, games=5, seed=1, progress=False)
    assert t.interrupted
    assert t.pairs[0, 1] == 5 and t.pairs[0, 2] == 5 and t.pairs[1, 2] == 0
    assert np.isnan(t.win_rates[1, 2]) and "interrupted" in repr(t)
    # a faction that did not meet every other has no figure against the field (its field
    # would not be the others'); the one that met both keeps its own
    assert np.isfinite(t.field[0]) and np.isnan(t.field[1]) and np.isnan(t.field[2])


def test_bad_tables_are_refused_before_any_game(books):
    with pytest.raises(ValueError, match="factions: from 2"):
        faction_table(books[:1], progress=False)
    with pytest.raises(TypeError, match=r"factions\[1\]: expected an oprstats.ArmyBook"):
        faction_table([books[0], "Orcs"], progress=False)
    with pytest.raises(ValueError, match="appears twice"):
        faction_table([books[0], books[0]], progress=False)
    with pytest.raises(ValueError, match="games: .* over the"):
        faction_table(books, lists=100, games=10_000, progress=False)
    with pytest.raises(ValueError, match="interval: must be a share"):
        faction_table(books[:2], interval=1.0, progress=False)


def test_the_table_reads_as_a_frame_pickles_and_plots(table):
    frame = table.to_pandas()
    assert list(frame["faction"]) == [table.names[i] for i in table.ranking()]
    assert frame["win_rate"].is_monotonic_decreasing
    pairs = table.to_pandas("pairs")
    assert len(pairs) == 6 and set(pairs.columns) >= {"faction", "opponent", "win_rate", "low", "high", "pairs"}
    matrix = table.to_pandas("matrix")
    assert matrix.loc["Battle Brothers", "Orc Marauders"] == table.win_rates[0, 2]
    back = pickle.loads(pickle.dumps(table))
    np.testing.assert_array_equal(back.win_rates, table.win_rates)
    assert "against the field" in repr(table) and "<table" in table._repr_html_()
    import matplotlib

    matplotlib.use("Agg")
    from oprstats import plot

    ax = plot.factions(table)
    assert [t.get_text() for t in ax.get_yticklabels()][-1] == table.names[table.ranking()[0]]
    ax = plot.factions(table, kind="matrix")
    assert len(ax.get_xticklabels()) == 3
    with pytest.raises(ValueError, match="kind"):
        plot.factions(table, kind="pie")


def test_points_per_logit_is_the_win_logits_gained_over_the_points_taken_out(books):
    bb = next(b for b in books if b.name == "Battle Brothers")
    army = Army([bb["Battle Brothers"], bb["Assault Brothers"], bb["Destroyers"]], name="three")
    c = oprstats.points_per_logit([army], games=30, seed=2, progress=False, resamples=200)
    root = np.random.SeedSequence(2).spawn(2)[0]
    key = np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + (0,))
    gained, removed = 0.0, 0.0
    for j, unit in enumerate(army.units):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            r = oprstats.simulate(army, [u for i, u in enumerate(army.units) if i != j], games=30, seed=key, paired=True, progress=False)
        p = np.clip(((np.asarray(r.winner, float) + 1) / 2).mean(), 0.25 / 30, 1 - 0.25 / 30)
        gained += np.log(p / (1 - p))
        removed += unit.cost
    assert c.slope == pytest.approx(gained / removed)
    assert c.estimate == pytest.approx(removed / gained)
    # a list is stronger with each of its units than without it: the slope is positive
    assert c.slope > 0 and c.low <= c.estimate <= c.high
    assert float(c) == c.estimate and "points a logit" in repr(c)
    with pytest.raises(ValueError, match=r"lists\[0\]: needs at least 2 units"):
        oprstats.points_per_logit([Army([bb["Battle Brothers"]], name="one")], progress=False)


def test_a_tables_metagame_reads_its_bootstrap_and_prices_in_points(table):
    m = table.metagame(points_per_logit=450.0)
    assert list(m.names) == list(table.names)
    # noise-aware from the table's own draws: a support probability per faction
    assert m.support_probability is not None and len(m.support_probability) == len(table)
    assert abs(sum(m.mix) - 1) < 1e-9
    frame = m.to_pandas()
    assert len(frame) == len(table)
    # the strongest faction against the field is priced up (positive), the weakest down
    order = table.ranking()
    prices = dict(zip(m.names, m.price_points))
    assert prices[table.names[order[0]]] > 0 > prices[table.names[order[-1]]]


def test_an_interrupted_tables_metagame_is_refused_naming_the_pair(books, monkeypatch):
    three = [b for b in books if b.name in ("Battle Brothers", "Orc Marauders", "Dark Elf Raiders")]
    real = _factions.play_pairing
    calls = []

    def stopping(**kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(**kwargs)

    monkeypatch.setattr(_factions, "play_pairing", stopping)
    t = faction_table(three, lists=1, games=2, seed=1, progress=False)
    with pytest.raises(ValueError, match="never played .* interrupted"):
        t.metagame()


@pytest.mark.parametrize("lists", [2, 3, 5])
def test_the_bootstrap_of_several_lists_is_not_narrow_nor_double_counted(lists):
    # identical lists (no list effect): the true spread of the table's mean is the games'
    # alone; the bootstrap of the lists must neither fall far below it nor count the games'
    # noise again on top (drawing the games again too gave 1.8 to 2.3 times the true spread)
    rng = np.random.default_rng(lists)
    n, shares = 100, np.array([0.2, 0.1, 0.3, 0.1, 0.3])
    true_sd = np.sqrt((_factions.PAIR_SCORES ** 2 @ shares - (_factions.PAIR_SCORES @ shares) ** 2) / (n * lists * lists))
    ratios = []
    for trial in range(30):
        counts = {(0, 1): rng.multinomial(n, shares, size=(lists, lists))}
        draws = _factions._bootstrap(counts, [lists, lists], 400, np.random.SeedSequence(trial))[:, 0, 1]
        ratios.append(draws.std() / true_sd)
    assert 0.6 < np.median(ratios) < 1.7


def test_a_seed_sequence_passed_twice_draws_the_same_lists(books):
    seed = np.random.SeedSequence(5)
    first = random_lists(books[0], n=2, seed=seed)
    second = random_lists(books[0], n=2, seed=seed)
    assert [_signature(a) for a in first] == [_signature(a) for a in second]


def test_a_table_without_a_seed_keeps_the_one_it_drew(books):
    pools = {"a": random_lists(books[0], points=1000, n=1, seed=1), "b": random_lists(books[1], points=1000, n=1, seed=1)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        t = faction_table(pools, games=3, progress=False)
        again = faction_table(pools, games=3, seed=t.seed, progress=False)
    assert isinstance(t.seed, int)
    np.testing.assert_array_equal(again.win_rates, t.win_rates)


def test_limits_are_checked_before_any_list_is_drawn(books):
    import time

    start = time.perf_counter()
    with pytest.raises(ValueError, match="games: .* over the"):
        faction_table(books, lists=100, games=10_000, progress=False)
    with pytest.raises(ValueError, match="points: must be a whole number of points from 200 to 20,000"):
        faction_table(books, points=2000.5, progress=False)
    with pytest.raises(ValueError, match="points: must be a whole number of points from 200 to 20,000"):
        random_lists(books[0], points=10**9)
    with pytest.raises(ValueError, match="resamples: .* too much memory"):
        faction_table({"a": [Army(books[0].units[:1], name=f"a{k}") for k in range(100)],
                       "b": [Army(books[1].units[:1], name=f"b{k}") for k in range(100)]}, resamples=100_000, progress=False)
    assert time.perf_counter() - start < 2.0


def test_an_empty_draw_is_not_a_list(books):
    titans = next(b for b in books if b.name == "Titan Lords")
    # its cheapest unit is over 35% of 500 pts: no list can be drawn, even with fill=0
    with pytest.raises(ValueError, match="made no list"):
        random_lists(titans, points=500, fill=0.0)


def test_terrain_and_threads_are_checked_before_any_list_is_drawn(books):
    with pytest.raises(ValueError, match='terrain: must be "standard", "open"'):
        faction_table(books[:2], terrain="forest", progress=False)
    with pytest.raises(ValueError, match="threads: must be None or from 1"):
        oprstats.what_if({"x": {"quality": 3}}, [Army(books[0].units[:1], name="a"), Army(books[1].units[:1], name="b")], threads=0,
                         progress=False)


def test_a_table_of_firefight_books_plays_firefight_at_its_full_match_size():
    # "full matches with 300pts armies each": Firefight books' lists are drawn at 300 points
    # and their games are Firefight's, with no edition= or points= given
    from .conftest import SHARED, _require

    folder = _require(SHARED / "data" / "opr" / "grimdark-future-firefight" / "3.5.1", "the Firefight books")
    books = [oprstats.load_army_book(p) for p in sorted(folder.glob("*.json"))[:2]]
    table = oprstats.faction_table(books, lists=1, games=2, seed=1, progress=False)
    assert table.points == 300
    assert all(a.edition == "firefight-3.2" and a.points <= 300 for pool in table.lists.values() for a in pool)
    with pytest.raises(ValueError, match="army_a\\[0\\]: is a firefight-3.2 unit; this game plays 3.5"):
        oprstats.faction_table(books, lists=1, games=1, seed=1, progress=False, edition="3.5")
