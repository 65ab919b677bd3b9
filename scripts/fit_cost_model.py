"""Fit the cost model that ships with the package, on the official books in ../shared.

    python scripts/fit_cost_model.py            # fit, cross-validate, write the parameter file
    python scripts/fit_cost_model.py --check    # only compare a fresh fit with the shipped file

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
BOOKS = ROOT.parent / "shared" / "data" / "opr" / "grimdark-future" / "3.5.1"
TARGET = ROOT / "python" / "oprstats" / "data" / shipped_model_path("3.5").name


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare a fresh fit with the shipped file, write nothing")
    args = parser.parse_args()
    paths = sorted(BOOKS.glob("*.json"))
    if not paths:
        print(f"no army books at {BOOKS}", file=sys.stderr)
        return 1
    books = [oprstats.load_army_book(p) for p in paths]
    start = time.perf_counter()
    model = CostModel.fit(books, out_of_sample=not args.check)
    print(f"fitted {model} in {time.perf_counter() - start:.1f} s")
    units = [u for b in books for u in b.units]
    if args.check:
        shipped = CostModel.load(TARGET)
        gap = np.abs(model.prices(units) - shipped.prices(units)).max()
        print(f"largest difference from the shipped model: {gap:.3f} points")
        return 0 if gap < 0.5 else 1
    info = dict(model.info)
    for by in ("book", "family"):
        start = time.perf_counter()
        cv = CostModel.cross_validate(books, by=by)
        print(f"{cv.summary()} [{time.perf_counter() - start:.0f} s]")
        info[f"leave_one_{by}_out"] = {"median": round(cv.median, 4), "p90": round(cv.p90, 4), "within_15": round(cv.within(0.15), 4),
                                      "baseline_median_in_sample": round(cv.baseline_median, 4),
                                      "option_median_abs_error_points": round(cv.option_error, 2)}
    prices = model.prices(units)
    official = np.asarray([u.cost for u in units], dtype=float)
    errors = np.abs(prices - official) / official
    info["in_sample"] = {"median": round(float(np.median(errors)), 4), "p90": round(float(np.quantile(errors, 0.9)), 4)}
    info["books"] = len(books)
    CostModel(model.weights, edition=model.edition, info=info, held_out=model._held_out, intervals=model.intervals).save(TARGET)
    print(f"wrote {TARGET.relative_to(ROOT)} ({TARGET.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
