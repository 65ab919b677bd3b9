"""A traced game reads as text (issue 44): its repr says what it holds, ``len()`` counts its
events, ``to_pandas()`` tables them and ``log()`` tells the game round by round."""

import warnings

import pytest

import oprstats


@pytest.fixture(scope="module")
def trace():
    army = oprstats.example_army()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return oprstats.simulate(army, army, games=1, seed=3, trace=True, progress=False).traces[0]


def test_a_trace_says_what_it_holds(trace):
    text = repr(trace)
    assert text.startswith(f"<game trace: {len(trace):,} events") and "4 rounds" in text and "object at 0x" not in text
    assert len(trace) == len(trace.events) > 0


def test_a_trace_as_a_table(trace):
    pytest.importorskip("pandas")
    df = trace.to_pandas()
    assert len(df) == len(trace) and {"round", "kind", "name", "target_name", "dice", "wounds"} <= set(df.columns)


def test_a_trace_as_text_tells_each_round_and_every_event_but_the_snapshots(trace):
    log = trace.log()
    lines = log.splitlines()
    assert lines[0] == "Deployment" and "Round 1" in lines and "Round 4" in lines
    shown = [line for line in lines if line.startswith("  ") and not line.startswith("  marker")]
    assert len(shown) == sum(e["kind"] not in ("position", "objective") for e in trace.events)
    # a shot names both sides and its dice, as the events have them
    shot = next(e for e in trace.events if e["kind"] == "shoot" and e["wounds"])
    assert any(f"{'AB'[shot['army']]}{shot['unit']} {shot['name']}  shoot  -> {'AB'[shot['target_army']]}{shot['target']} " in line
               and f"{shot['dice']} dic" in line for line in lines)
    # spell tokens are told as tokens, one die as a die
    assert " 1 dice" not in log and " 1 hits" not in log
    for e in (e for e in trace.events if e["kind"] == "tokens"):
        assert any(f"tokens  {e['hits']} token" in line and f"holds {e['models_left']}" in line for line in lines)
    # a joined hero is named with its unit
    assert "Warden Squad + Warden Captain" in log
    assert trace.log(round=2).splitlines()[0] == "Round 2" and str(trace) == log
