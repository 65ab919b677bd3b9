"""Sweeps beyond one machine, on Dask distributed (``pip install 'oprstats[dask]'``).

Given a ``dask.distributed.Client``, work is cut into partitions that each run the Rust
engines in a task (the GIL released inside). The units are scattered to the workers once. Each
task's thread count is set so that the tasks running at once on a host do not use more
threads than it has cores. Results come back in order, and partial results are combined in a
tree whose shape depends only on the number of items. So a result is bit-identical whatever
the number of workers, threads or partitions. A seeded sweep seeds each item with
``numpy.random.SeedSequence(seed).spawn(n)[i]``: keyed by the item, not by the worker.
Without a client everything runs locally (rayon spreads each call over the cores).
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Optional, Sequence

import numpy as np

from . import _core


def check_client(client: Any) -> Any:
    """``client=``: None or a ``dask.distributed.Client``."""
    if client is None:
        return None
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - the extra is installed in the tests
        raise ImportError("client=: Dask distributed is not installed; pip install 'oprstats[dask]'") from None
    if not isinstance(client, Client):
        raise TypeError(f"client: expected a dask.distributed.Client or None, got {type(client).__name__}")
    if client.status in ("closing", "closed"):
        raise ValueError(f"client: the Client is {client.status}; pass an open Client or None")
    return client


def _host(address: str) -> str:
    return address.split("://", 1)[-1].rsplit(":", 1)[0]


def _workers(client: Any) -> dict:
    """Every worker's info (recent schedulers list a few unless asked for all)."""
    try:
        info = client.scheduler_info(n_workers=-1)
    except TypeError:  # pragma: no cover - older distributed
        info = client.scheduler_info()
    if "workers" not in info:  # a closed client knows of no scheduler: its info is empty
        raise ValueError(f"client: {client!r} is not connected to a scheduler (closed?); pass an open Client or None")
    return info["workers"]


def task_threads(client: Any) -> dict:
    """Threads each task on each worker may use: the host's cores shared out over the task
    slots of every worker on that host (at least 1)."""
    workers = _workers(client)
    cores = client.run(os.cpu_count)
    slots: dict = {}
    for address, info in workers.items():
        slots[_host(address)] = slots.get(_host(address), 0) + int(info.get("nthreads", 1))
    return {address: max(1, int(cores.get(address) or 1) // max(1, slots[_host(address)])) for address in workers}


def _my_threads(threads_by_worker: dict) -> int:
    from distributed import get_worker

    return int(threads_by_worker.get(get_worker().address, 1))


def check_partitions(parts: Any) -> None:
    """``partitions=``: None or a whole number, 1 or more (checked with or without a client)."""
    from ._attack import shown

    if parts is not None and (isinstance(parts, bool) or not isinstance(parts, (int, np.integer)) or parts < 1):
        raise ValueError(f"partitions: must be None or a whole number, 1 or more (got {shown(parts)})")


def partitions_of(n: int, parts: Optional[int], client: Any) -> list[range]:
    """``n`` items cut into contiguous ranges: ``parts`` of them, or (None) four per task
    slot of the cluster, at most one item each."""
    if parts is None:
        slots = sum(int(w.get("nthreads", 1)) for w in _workers(client).values()) if client is not None else 1
        parts = 4 * max(1, slots)
    check_partitions(parts)
    parts = min(int(parts), max(1, n))
    edges = np.linspace(0, n, parts + 1).round().astype(int)
    return [range(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:]) if b > a]


def _matchups_block(attackers: list, offset: int, defenders: list, modes: list, charge_distance: float, edition: str,
                    threads_by_worker: dict) -> dict:
    try:
        return _core._matchups(attackers, defenders, modes, charge_distance, edition, _my_threads(threads_by_worker), True)
    except (ValueError, TypeError) as e:
        # name the attacker by its place in the whole table, not in this block
        message = re.sub(r"^attackers\[(\d+)\]", lambda m: f"attackers[{int(m.group(1)) + offset}]", str(e))
        raise type(e)(message) from None


_PAIR = re.compile(r"^attackers\[(\d+)\] against defenders\[(\d+)\]")


def _activations_block(units: list, offset: int, everyone: list, modes: list, charge_distance: float, edition: str,
                       threads_by_worker: dict) -> Any:
    """One block of rows of a square table's activations, or its error as a value: the pair
    of the whole table it names (the first in row order that uses a bad activation of this
    block), so that the caller names the first of all blocks."""
    try:
        return _core._matchup_activations(units, everyone, offset, modes, charge_distance, edition, _my_threads(threads_by_worker))
    except (ValueError, TypeError) as e:
        found = _PAIR.match(str(e))
        if found is None:
            raise
        return ("error", (int(found.group(1)), int(found.group(2))), type(e), _PAIR.sub("", str(e)))


def _square_raw(client: Any, units: list, modes: list, charge_distance: float, edition: str, partitions: Optional[int]) -> dict:
    """A table of units against themselves from blocks of rows of its one-way activations,
    each computed once, put together by the core as the local table is (the same to the bit)."""
    threads = task_threads(client)
    [everyone] = client.scatter([units], broadcast=True, hash=False)
    blocks = partitions_of(len(units), partitions, client)
    futures = [client.submit(_activations_block, [units[i] for i in block], block.start, everyone, modes, charge_distance, edition, threads,
                             pure=False) for block in blocks]
    parts = client.gather(futures)
    errors = [p for p in parts if isinstance(p, tuple)]
    if errors:
        _, (i, j), kind, rest = min(errors, key=lambda e: e[1])
        raise kind(f"attackers[{i}] against defenders[{j}]{rest}")
    # assembled by the core, as the local table is
    return _core._matchups_square(parts, modes)


def matchups_raw(client: Any, attackers: list, defenders: list, modes: list, charge_distance: float, edition: str,
                 partitions: Optional[int]) -> dict:
    """``_core._matchups`` over row blocks of attackers on the cluster, put back together; a
    table of units against themselves computes each activation once, as locally."""
    if attackers and len(attackers) == len(defenders) and all(a == d for a, d in zip(attackers, defenders)):
        return _square_raw(client, attackers, modes, charge_distance, edition, partitions)
    threads = task_threads(client)
    [remote_defenders] = client.scatter([defenders], broadcast=True, hash=False)
    blocks = partitions_of(len(attackers), partitions, client)
    futures = [client.submit(_matchups_block, [attackers[i] for i in block], block.start, remote_defenders, modes, charge_distance, edition,
                             threads, pure=False) for block in blocks]
    # block by block, so that the first bad pair in row order is the one named
    parts = [f.result() for f in futures]
    out: dict = {}
    for key in ("dealt_wounds", "dealt_p_removed", "taken_wounds", "taken_p_removed"):
        out[key] = np.concatenate([p[key] for p in parts], axis=1) if parts else np.zeros((len(modes), 0, len(defenders)))
    out["attacker_wounds"] = np.concatenate([p["attacker_wounds"] for p in parts]) if parts else np.zeros(0, dtype=np.uint32)
    out["defender_wounds"] = parts[0]["defender_wounds"] if parts else np.zeros(len(defenders), dtype=np.uint32)
    out["unmodelled"] = [u for p in parts for u in p["unmodelled"]]
    return out


def _run_items(function: Callable, items: list) -> list:
    return [function(**kwargs) for kwargs in items]


def _stopped(result: Any) -> bool:
    """Whether a result is one a Ctrl-C cut short (``simulate``'s and ``duel``'s, which
    return the games played rather than raise)."""
    return getattr(result, "interrupted", False) is True


def _run_local(function: Callable, items: list) -> list:
    """The items one by one; a Ctrl-C stops the whole sweep, not just the item it fell in
    (an item that returns its partial result would otherwise let the next one start)."""
    results: list = []
    try:
        for kwargs in items:
            result = function(**kwargs)
            if _stopped(result):
                raise KeyboardInterrupt(f"sweep: interrupted after {len(results)} of {len(items)} items (item {len(results)} "
                                        "was cut short)")
            results.append(result)
    except KeyboardInterrupt as exc:
        if str(exc).startswith("sweep: "):
            raise
        raise KeyboardInterrupt(f"sweep: interrupted after {len(results)} of {len(items)} items") from None
    return results


def _tree(values: list, combine: Callable, submit: Optional[Callable] = None) -> Any:
    """Combine ``values`` pairwise, neighbours first, level by level: the same tree (and so
    the same floating-point result) whatever ran where."""
    level = list(values)
    while len(level) > 1:
        pairs = [(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        nxt = [submit(combine, a, b) if submit else combine(a, b) for a, b in pairs]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


def sweep(function: Callable, grid: Sequence[dict], *, seed: Any = None, combine: Optional[Callable] = None, client: Any = None,
          partitions: Optional[int] = None) -> Any:
    """``function(**kwargs)`` for every ``kwargs`` of ``grid``, in order: a list of results,
    or (``combine``) their combination in a tree, ``combine(a, b)`` on neighbours first.

    ``function`` is any oprstats entry point (``simulate``, ``attack``, ``melee``,
    ``matchups``, ...) or a function of your own that pickles. ``seed`` (an int or a
    ``SeedSequence``) seeds item ``i`` with ``SeedSequence(seed).spawn(len(grid))[i]``,
    passed as ``seed=``. So a seeded sweep gives the same results with or without a
    ``client``, and whatever the number of workers or ``partitions``. With a ``client`` the
    items run in ``partitions`` contiguous batches (default: four per task slot of the
    cluster).

    Ctrl-C stops the whole sweep with ``KeyboardInterrupt`` saying how many items were done,
    also when the item running returns what it had (``simulate``, ``duel``: a result whose
    ``interrupted`` is True), so a sweep never runs on past a Ctrl-C.
    """
    if not callable(function):
        raise TypeError(f"function: expected a callable, got {type(function).__name__}")
    try:
        items = [dict(kwargs) for kwargs in grid]
    except (TypeError, ValueError):
        raise TypeError("grid: expected a sequence of dicts of keyword arguments") from None
    if seed is not None:
        # a copy: spawning advances a SeedSequence, and the caller's may be passed again
        sequence = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size) if isinstance(
            seed, np.random.SeedSequence) else None
        if sequence is None:
            from ._attack import seed_sequence

            sequence = seed_sequence(seed)
        for i, (kwargs, child) in enumerate(zip(items, sequence.spawn(len(items)))):
            if "seed" in kwargs:
                raise ValueError(f"grid[{i}]: has its own seed; give seed= to sweep or seeds in the grid, not both")
            kwargs["seed"] = child
    if combine is not None and not callable(combine):
        raise TypeError(f"combine: expected a callable or None, got {type(combine).__name__}")
    client = check_client(client)
    check_partitions(partitions)
    if client is None:
        results = _run_local(function, items)
        return results if combine is None else (_tree(results, combine) if results else None)
    blocks = partitions_of(len(items), partitions, client)
    futures = [client.submit(_run_items, function, [items[i] for i in block], pure=False) for block in blocks]
    if combine is None:
        try:
            results = [r for part in client.gather(futures) for r in part]
        except KeyboardInterrupt:
            client.cancel(futures)  # the workers stop too, not only the wait for them
            done = sum(len(b) for f, b in zip(futures, blocks) if f.status == "finished")
            raise KeyboardInterrupt(f"sweep: interrupted after {done} of {len(items)} items") from None
        stopped = next((i for i, r in enumerate(results) if _stopped(r)), None)
        if stopped is not None:
            raise KeyboardInterrupt(f"sweep: item {stopped} of {len(items)} was interrupted")
        return results
    # each item's result as a future, combined on the cluster in the same tree as locally
    singles = [client.submit(_pick, f, k, pure=False) for f, block in zip(futures, blocks) for k in range(len(block))]
    if not singles:
        return None
    try:
        combined = client.gather(_tree(singles, combine, submit=lambda f, a, b: client.submit(f, a, b, pure=False)))
    except KeyboardInterrupt:
        client.cancel(futures)
        raise KeyboardInterrupt(f"sweep: interrupted before its {len(items)} items were combined") from None
    return combined


def _pick(part: list, k: int) -> Any:
    return part[k]
