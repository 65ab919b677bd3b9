"""Distributions over counts (hits, wounds, models killed, ...), numpy-style."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np


class Distribution:
    """The distribution of a count: ``pmf[k]`` is the probability of exactly ``k``.

    Exact results come from the exact engine; sampled ones (``samples`` is set) carry a
    standard error per entry, ``stderr``.
    """

    __slots__ = ("_pmf", "_samples")

    def __init__(self, pmf: Any, *, samples: Optional[int] = None) -> None:
        arr = pmf if type(pmf) is np.ndarray and pmf.dtype == np.float64 else np.asarray(pmf, dtype=np.float64)
        if arr.ndim != 1 or arr.size == 0:
            raise ValueError(f"pmf: expected a non-empty 1-D array, got shape {arr.shape}")
        if arr.flags.writeable:
            arr.flags.writeable = False  # results are values; the array is shared, not copied
        self._pmf = arr
        self._samples = samples

    def __getstate__(self):
        return (self._pmf, self._samples)

    def __setstate__(self, state) -> None:
        # through __init__: an unpickled array is writeable, and a result's must not be
        pmf, samples = state
        type(self).__init__(self, pmf, samples=samples)

    @property
    def pmf(self) -> np.ndarray:
        """Probability of each count, index = count (read-only float64 array)."""
        return self._pmf

    @property
    def samples(self) -> Optional[int]:
        """How many samples estimated this distribution (``None`` when exact)."""
        return self._samples

    @property
    def stderr(self) -> Optional[np.ndarray]:
        """Standard error of each ``pmf`` entry for a sampled distribution, else ``None``."""
        if self._samples is None:
            return None
        p = self._pmf
        return np.sqrt(p * (1.0 - p) / self._samples)

    @property
    def max(self) -> int:
        """The largest count with non-zero probability."""
        nz = np.nonzero(self._pmf)[0]
        return int(nz[-1]) if nz.size else 0

    def mean(self) -> float:
        return float(np.dot(np.arange(self._pmf.size), self._pmf))

    def var(self) -> float:
        k = np.arange(self._pmf.size)
        m = self.mean()
        return float(np.dot((k - m) ** 2, self._pmf))

    def std(self) -> float:
        return float(np.sqrt(self.var()))

    def cdf(self, k: int) -> float:
        """P(X <= k)."""
        k = _count(k)
        if k < 0:
            return 0.0
        return float(min(1.0, self._pmf[: k + 1].sum()))

    def at_least(self, k: int) -> float:
        """P(X >= k): the chance of ``k`` or better."""
        k = _count(k)
        if k <= 0:
            return 1.0
        return float(min(1.0, self._pmf[k:].sum()))

    def quantile(self, q: float) -> int:
        """The smallest count ``k`` with P(X <= k) >= q."""
        if not 0.0 <= q <= 1.0:
            raise ValueError(f"q: must be from 0 to 1, got {q}")
        cum = np.cumsum(self._pmf)
        return min(int(np.searchsorted(cum, q - 1e-12)), self._pmf.size - 1)

    def __getitem__(self, k: int) -> float:
        """P(X == k)."""
        k = _count(k)
        return float(self._pmf[k]) if 0 <= k < self._pmf.size else 0.0

    def __len__(self) -> int:
        return self._pmf.size

    def __array__(self, dtype=None, copy=None):
        if copy:
            return np.array(self._pmf, dtype=dtype, copy=True)
        return self._pmf if dtype is None else self._pmf.astype(dtype)

    def to_pandas(self):
        """The pmf as a ``pandas.Series`` indexed by count."""
        from ._optional import pandas

        pd = pandas("to_pandas()")

        return pd.Series(self._pmf, name="p", index=pd.RangeIndex(self._pmf.size, name="count"))

    def _repr_html_(self) -> str:
        from . import _display as d

        kind = "exact" if self._samples is None else f"{self._samples:,} samples"
        lines = [f"mean {self.mean():.4g}, std {self.std():.4g}, max {self.max} ({kind})"]
        return d.block("Distribution", lines, d.distribution_table(self._pmf, stderr=self.stderr))

    def __repr__(self) -> str:
        kind = "exact" if self._samples is None else f"{self._samples:,} samples"
        return f"Distribution(mean={self.mean():.4g}, std={self.std():.4g}, max={self.max}, {kind})"


def tails(pmf: np.ndarray) -> np.ndarray:
    """P(X >= k) for every k of a pmf (clipped to 1 against rounding)."""
    return np.clip(np.cumsum(np.asarray(pmf, dtype=float)[::-1])[::-1], 0.0, 1.0)


def _count(k: Any) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"k: expected an int count, got {type(k).__name__}")
    return int(k)
