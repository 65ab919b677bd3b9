"""Fit the cost models that ship with the package, on the official books in ../shared.

    python scripts/fit_cost_model.py            # fit, cross-validate, write the parameter file
    python scripts/fit_cost_model.py --check    # only compare a fresh fit with the shipped file
    python scripts/fit_cost_model.py --edition firefight-3.2   # the same on the Firefight books

The parameter file holds numbers keyed by feature name (rule names included, no rules
text): the model fitted on every book, one fitted without each family of books (what
fairness() judges that family with), the prediction intervals calibrated on those models'
errors, hashed unit names (how a list's unit finds its family), and how it was fitted, with
its leave-one-army-out accuracy.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

import oprstats
from oprstats._points import CostModel, shipped_model_path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "opr"
# each edition a model ships for, and the official books it is fitted on
BOOKS = {"3.5": DATA / "grimdark-future" / "3.5.1", "firefight-3.2": DATA / "grimdark-future-firefight" / "3.5.1"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare a fresh fit with the shipped file, write nothing")
    parser.add_argument("--edition", choices=sorted(BOOKS), default="3.5", help="the edition, and so the books, to fit (default 3.5)")
    args = parser.parse_args()
    edition = args.edition
    target = ROOT / "python" / "oprstats" / "data" / shipped_model_path(edition).name
    paths = sorted(BOOKS[edition].glob("*.json"))
    if not paths:
        print(f"no army books at {BOOKS[edition]}", file=sys.stderr)
        return 1
    books = [oprstats.load_army_book(p, edition=edition) for p in paths]
    start = time.perf_counter()
    model = CostModel.fit(books, edition=edition, out_of_sample=not args.check)
    print(f"fitted {model} in {time.perf_counter() - start:.1f} s")
    units = [u for b in books for u in b.units]
    if args.check:
        shipped = CostModel.load(target)
        gap = np.abs(model.prices(units) - shipped.prices(units)).max()
        print(f"largest difference from the shipped model: {gap:.3f} points")
        return 0 if gap < 0.5 else 1
    info = dict(model.info)
    for by in ("book", "family"):
        start = time.perf_counter()
        cv = CostModel.cross_validate(books, by=by, edition=edition)
        print(f"{cv.summary()} [{time.perf_counter() - start:.0f} s]")
        info[f"leave_one_{by}_out"] = {"median": round(cv.median, 4), "p90": round(cv.p90, 4), "within_15": round(cv.within(0.15), 4),
                                      "baseline_median_in_sample": round(cv.baseline_median, 4),
                                      "option_median_abs_error_points": round(cv.option_error, 2)}
    prices = model.prices(units)
    official = np.asarray([u.cost for u in units], dtype=float)
    errors = np.abs(prices - official) / official
    info["in_sample"] = {"median": round(float(np.median(errors)), 4), "p90": round(float(np.quantile(errors, 0.9)), 4)}
    info["books"] = len(books)
    CostModel(model.weights, edition=model.edition, info=info, held_out=model._held_out, intervals=model.intervals).save(target)
    print(f"wrote {target.relative_to(ROOT)} ({target.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
