"""Sweeps on Dask distributed: a ``LocalCluster`` of 2 workers with 1 thread each gives the
local result to the bit, whatever the partitions (``client=`` on matchups, fair_cost and
break_even, and ``sweep``)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import oprstats
from oprstats import Unit

distributed = pytest.importorskip("distributed", reason="Dask distributed is the optional extra oprstats[dask]")

UNITS = [
    Unit.parse('Rifles [10] Q4+ D5+ | 100pts\n10x Rifle (24", A1, AP(1))'),
    Unit.parse("Brutes [3] Q4+ D4+ | 150pts | Tough(3), Furious\n3x Claws (A3, AP(1), Rending)"),
    Unit.parse('Horde [20] Q5+ D6+ | 120pts\n20x Pistol (12", A1)\n20x Knife (A1)'),
    Unit.parse("Guards [5] Q4+ D3+ | 200pts | Tough(3)\n5x Halberd (A2, AP(1))"),
    Unit.parse('Jet [1] Q4+ D3+ | 180pts | Aircraft, Tough(6)\nGun (24", A4, AP(1))'),
]


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.mark.parametrize("partitions", [1, 3, None])
def test_matchups_on_a_cluster_are_the_local_table(client, partitions):
    local = oprstats.matchups(UNITS, UNITS)
    remote = oprstats.matchups(UNITS, UNITS, client=client, partitions=partitions)
    for name in ("dealt", "taken", "p_destroyed", "p_lost", "attacker_wounds", "defender_wounds"):
        np.testing.assert_array_equal(getattr(remote, name), getattr(local, name))
    assert remote.unmodelled == local.unmodelled and repr(remote) == repr(local)


def test_fair_cost_and_break_even_on_a_cluster(client):
    local = oprstats.fair_cost(UNITS, seed=2)
    remote = oprstats.fair_cost(UNITS, seed=2, client=client, partitions=2)
    assert remote.equals(local)
    assert repr(oprstats.break_even(UNITS[0], UNITS, client=client)) == repr(oprstats.break_even(UNITS[0], UNITS))


def test_fair_cost_by_games_on_a_cluster(client):
    army = oprstats.example_army()
    local = oprstats.fair_cost(UNITS[:2], method="games", armies=(army, army), games=60, seed=3, resamples=50)
    remote = oprstats.fair_cost(UNITS[:2], method="games", armies=(army, army), games=60, seed=3, resamples=50, client=client, partitions=4)
    assert remote.equals(local)


def test_each_task_uses_its_share_of_the_host(client):
    from oprstats._distributed import task_threads

    import os

    threads = task_threads(client)
    assert len(threads) == 2
    # two one-slot workers on one host share its cores
    assert all(t == max(1, (os.cpu_count() or 1) // 2) for t in threads.values())


def _wins(army_a, army_b, games, seed):
    g = oprstats.simulate(army_a, army_b, games=games, seed=seed, progress=False, threads=1)
    return np.array([(g.winner == 1).sum(), (g.winner == 0).sum(), (g.winner == -1).sum()])


def _spawn_key(seed):
    return seed.spawn_key


def test_a_seeded_sweep_is_the_same_anywhere(client):
    army = oprstats.example_army()
    grid = [dict(army_a=army, army_b=army, games=4)] * 5
    with pytest.warns(UserWarning):
        local = oprstats.sweep(_wins, grid, seed=11)
    for partitions in (1, 2, 5):
        remote = oprstats.sweep(_wins, grid, seed=11, client=client, partitions=partitions)
        assert [r.tolist() for r in remote] == [r.tolist() for r in local]
    # item i is seeded with SeedSequence(seed).spawn(n)[i], wherever it runs
    keys = oprstats.sweep(_spawn_key, [{}] * 3, seed=5, client=client, partitions=2)
    assert keys == [s.spawn_key for s in np.random.SeedSequence(5).spawn(3)] and len(set(keys)) == 3
    total = oprstats.sweep(_wins, grid, seed=11, combine=np.add, client=client, partitions=2)
    assert total.tolist() == np.sum(local, axis=0).tolist() and total.sum() == 20
    with pytest.warns(UserWarning):
        assert oprstats.sweep(_wins, grid, seed=11, combine=np.add).tolist() == total.tolist()


def test_a_sweep_of_the_engines_needs_no_seed(client):
    grid = [dict(attacker=UNITS[0], target=t, distance=12.0) for t in UNITS]
    local = oprstats.sweep(oprstats.attack, grid)
    remote = oprstats.sweep(oprstats.attack, grid, client=client)
    assert [r.kills.pmf.tolist() for r in remote] == [r.kills.pmf.tolist() for r in local]


def test_what_tasks_carry_pickles():
    book, army = oprstats.example_book(), oprstats.example_army()
    melee = oprstats.melee(UNITS[0], UNITS[1])
    for value in (book, army, book.units[0], oprstats.CostModel.default(), oprstats.matchups(UNITS[:2], UNITS[:2]), melee):
        assert pickle.loads(pickle.dumps(value)) is not None
    # a melee's distributions travel whole
    back = pickle.loads(pickle.dumps(melee))
    assert back.charger.wounds_caused.pmf.tolist() == melee.charger.wounds_caused.pmf.tolist()
    assert back.defender.states == melee.defender.states and (back.models_left == melee.models_left).all()
    assert repr(back) == repr(melee)


def test_a_bad_pair_is_named_by_its_place_in_the_whole_table(client):
    far = Unit.parse('Far [1] Q4+ D4+ | 10pts\nGun (24", A1)')
    units = UNITS + [far]
    local = pytest.raises(ValueError, oprstats.matchups, units, UNITS, modes=["shoot 2000"])
    remote = pytest.raises(ValueError, oprstats.matchups, units, UNITS, modes=["shoot 2000"], client=client, partitions=3)
    assert str(remote.value) == str(local.value)
    # a limit on one pair: the bad attacker sits in the last block
    huge = Unit.parse("Huge [1000] Q4+ D4+ | 10pts | Tough(1000)\n1000x Claw (A1000)")
    local = pytest.raises(ValueError, oprstats.matchups, UNITS + [huge], UNITS, modes=["charge"])
    remote = pytest.raises(ValueError, oprstats.matchups, UNITS + [huge], UNITS, modes=["charge"], client=client, partitions=3)
    assert str(remote.value) == str(local.value) and "attackers[5]" in str(remote.value)
    # a table of units against themselves (each activation once) names the same pair too
    square = [UNITS[0], huge] + UNITS[1:]
    local = pytest.raises(ValueError, oprstats.matchups, square, square, modes=["shoot 12", "charge"])
    remote = pytest.raises(ValueError, oprstats.matchups, square, square, modes=["shoot 12", "charge"], client=client, partitions=3)
    assert str(remote.value) == str(local.value) and str(local.value).startswith("attackers[0] against defenders[1]")


def test_a_sweep_leaves_the_callers_seed_sequence_as_it_was():
    seq = np.random.SeedSequence(9)
    first = oprstats.sweep(_spawn_key, [{}] * 2, seed=seq)
    assert oprstats.sweep(_spawn_key, [{}] * 2, seed=seq) == first and seq.n_children_spawned == 0


def test_bad_client_arguments_are_named(client):
    with pytest.raises(TypeError, match="client"):
        oprstats.matchups(UNITS, UNITS, client="tcp://localhost:8786")
    with pytest.raises(ValueError, match="partitions"):
        oprstats.matchups(UNITS, UNITS, client=client, partitions=0)
    with pytest.raises(ValueError, match="partitions"):
        oprstats.matchups(UNITS, UNITS, partitions=-2)  # checked without a client too
    with pytest.raises(ValueError, match="partitions"):
        oprstats.sweep(oprstats.attack, [], partitions=0)
    with pytest.raises(ValueError, match=r"grid\[0\]: has its own seed"):
        oprstats.sweep(oprstats.simulate, [dict(seed=1)], seed=2)
    with pytest.raises(TypeError, match="function"):
        oprstats.sweep("simulate", [])
    with pytest.raises(TypeError, match="seed"):
        oprstats.sweep(oprstats.attack, [], seed="x")


@pytest.mark.filterwarnings("ignore:.*the lists range from:UserWarning")  # unequal on purpose: small, quick armies
@pytest.mark.parametrize("partitions", [1, None])
def test_a_faction_table_on_a_cluster_is_the_local_table(client, partitions):
    pools = {
        "rifles": [oprstats.Army(UNITS[:1] * 2, name="r1"), oprstats.Army(UNITS[:2], name="r2")],
        "brutes": [oprstats.Army(UNITS[1:2] * 2, name="b1")],
        "guards": [oprstats.Army(UNITS[3:4], name="g1"), oprstats.Army(UNITS[2:4], name="g2")],
    }
    local = oprstats.faction_table(pools, games=4, seed=9, progress=False)
    remote = oprstats.faction_table(pools, games=4, seed=9, progress=False, client=client, partitions=partitions)
    for name in ("win_rates", "low", "high", "field", "pairs", "replicates"):
        np.testing.assert_array_equal(getattr(remote, name), getattr(local, name))
    assert not remote.interrupted


@pytest.mark.filterwarnings("ignore:.*the lists range from:UserWarning")  # unequal on purpose: small, quick armies
def test_what_if_and_shapley_values_on_a_cluster_are_the_local_ones(client):
    pools = {"rifles": [oprstats.Army(UNITS[:2], name="r")], "guards": [oprstats.Army(UNITS[3:4] * 2, name="g")]}
    kwargs = dict(games=3, seed=4, progress=False)
    local = oprstats.what_if({"Rifles": {"quality": 3}}, pools, **kwargs)
    remote = oprstats.what_if({"Rifles": {"quality": 3}}, pools, client=client, **kwargs)
    np.testing.assert_array_equal(remote.difference, local.difference)
    np.testing.assert_array_equal(remote.low, local.low)
    army = oprstats.Army(UNITS[:3], name="three")
    local = oprstats.shapley_values(army, pools["guards"][0], permutations=6, **kwargs)
    remote = oprstats.shapley_values(army, pools["guards"][0], permutations=6, client=client, partitions=2, **kwargs)
    np.testing.assert_array_equal(remote.shapley_points, local.shapley_points)
    np.testing.assert_array_equal(remote.shapley_low, local.shapley_low)
