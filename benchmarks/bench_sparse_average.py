"""Naive against lazy averaging of the perceptron on sparse, text-like data (notebook 06,
section 3).

Run: ``python benchmarks/bench_sparse_average.py`` (not part of ``make test``). Both runs make the
same perceptron updates; they differ only in how the average is kept. Runs alternate (naive, lazy,
naive, ...) and the medians are reported, with the ratio measured in the same run; the result goes
to the section "sparse" of benchmarks/results.md, where notebook 06 points.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

# the notebooks' experiments, imported from notebooks/ as the notebooks import them
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "notebooks"))

import statistics  # noqa: E402
import time  # noqa: E402

from _report import write_section  # noqa: E402
from experiments import averaged_sparse  # noqa: E402

from perclib.datasets import make_sparse_text  # noqa: E402


def main(repeats=5, n=2000, d=20000, words=20, epochs=5):
    X, y = make_sparse_text(n, d, words=words, random_state=0)
    times = {True: [], False: []}
    for _ in range(repeats):
        for lazy in (False, True):
            t = time.perf_counter()
            _, _, ops = averaged_sparse(X, y, max_iter=epochs, lazy=lazy)
            times[lazy].append(time.perf_counter() - t)
    naive, lazy = statistics.median(times[False]), statistics.median(times[True])
    text = (
        f"n={n}, d={d}, {words} non-zeros per example, {epochs} epochs, median of {repeats} "
        f"alternating runs: naive {naive:.3f} s, lazy {lazy:.3f} s, naive/lazy = {naive / lazy:.1f}"
    )
    print(text)
    write_section(
        "sparse",
        "### Naive against lazy averaging on sparse data (`benchmarks/bench_sparse_average.py`)\n\n"
        + text
        + "\n",
    )


if __name__ == "__main__":
    main()
