"""Redraw time of the course's core widgets: the Stepper, the BoundaryExplorer, the KernelStepper.

The budget is 100 ms per redraw. A redraw here is everything that happens in the kernel when
a control moves: the observer recomputes the widget's ``state``, moves the changing artists, draws
them over the cached background (Agg) and encodes the PNG that the browser shows. It is timed from
setting the control's value to the return of that assignment, headlessly (no browser round trip).

Each case is warmed up, then redrawn ``--repeats`` times (default 300) with a value that differs
from the previous one, so that every assignment really redraws. The table gives the median, the 90th
percentile and the maximum of the wall time, in ms, and the median CPU time of this process (on a
shared, loaded machine the wall time also counts the time spent waiting for a core, so the CPU time
is the widget's own cost). The verdict compares the wall-time median with the budget; the exit
status is 1 if any redraw case's median is over budget. The header gives the load average.

Usage: ``python benchmarks/bench_widgets.py [--repeats N]`` (or ``make bench-widgets``).
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import matplotlib  # noqa: E402

matplotlib.use("Agg")

import numpy as np  # noqa: E402
from sklearn.datasets import make_moons  # noqa: E402

from perclib.datasets import make_separable, worked_example  # noqa: E402
from perclib.widgets import BoundaryExplorer, KernelStepper, Stepper  # noqa: E402

BUDGET_MS = 100.0
WARMUP = 5


def time_assignments(control, values):
    """Wall and CPU milliseconds taken by each ``control.value = v`` (which triggers the redraw)."""
    wall, cpu = [], []
    for v in values:
        t0, c0 = time.perf_counter(), time.process_time()
        control.value = v
        wall.append((time.perf_counter() - t0) * 1e3)
        cpu.append((time.process_time() - c0) * 1e3)
    return np.array(wall), np.array(cpu)


def stepper_values(n_steps, repeats):
    """Walk forward through the steps, wrapping round: consecutive values always differ."""
    return [k % n_steps for k in range(1, repeats + 1)]


def cases(repeats):
    X4, y4 = worked_example()
    X200, y200 = make_separable(200, margin=0.02, random_state=0)
    rng = np.random.default_rng(0)

    def stepper(X, y, **kw):
        s = Stepper(X, y, max_iter=50, **kw)
        n = len(s.history)
        time_assignments(s.slider, stepper_values(n, WARMUP))
        return (
            time_assignments(s.slider, stepper_values(n, repeats)),
            f"{n} steps",
            len(s.image.value),
        )

    def explorer(X, y):
        e = BoundaryExplorer(X, y)
        values = np.round(rng.uniform(-2.5, 2.5, size=repeats + WARMUP), 2)
        values[1:][values[1:] == values[:-1]] += 0.05
        time_assignments(e.b, values[:WARMUP])
        return time_assignments(e.b, values[WARMUP:]), f"{len(X)} points", len(e.image.value)

    def refit(X, y):
        s = Stepper(X, y, max_iter=50)
        etas = [0.5, 1.0] * (max(repeats // 10, 10) // 2)
        return time_assignments(s.eta, etas), f"{len(s.history)} steps", len(s.image.value)

    def kernel_stepper(X, y, kernel):
        s = KernelStepper(X, y, kernel=kernel, gamma=1.0)
        n = s.slider.max + 1
        time_assignments(s.slider, stepper_values(n, WARMUP))
        return (
            time_assignments(s.slider, stepper_values(n, repeats)),
            f"{n} steps",
            len(s.image.value),
        )

    def kernel_refit(X, y):
        s = KernelStepper(X, y, kernel="rbf", gamma=1.0)
        gammas = [1.0, 10.0] * (max(repeats // 10, 10) // 2)
        return time_assignments(s.gamma, gammas), f"{len(X)} points", len(s.image.value)

    Xm, ym = make_moons(60, noise=0.2, random_state=0)  # notebook 08's widget
    yield "Stepper: move the slider (worked example)", stepper(X4, y4, rule="prediction")
    yield "Stepper: move the slider (200 points)", stepper(X200, y200)
    yield "BoundaryExplorer: move b (worked example)", explorer(X4, y4)
    yield "BoundaryExplorer: move b (200 points)", explorer(X200, y200)
    yield "KernelStepper: move the slider (rbf, 60 moons)", kernel_stepper(Xm, ym, "rbf")
    yield "KernelStepper: move the slider (poly, 60 moons)", kernel_stepper(Xm, ym, "poly")
    yield "(not a redraw) Stepper: change eta = refit + redraw (200 points)", refit(X200, y200)
    yield (
        "(not a redraw) KernelStepper: change gamma = refit + redraw (60 moons)",
        kernel_refit(Xm, ym),
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=300)
    args = parser.parse_args(argv)
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(
        f"Python {platform.python_version()}, matplotlib {matplotlib.__version__}, Agg, "
        f"{os.cpu_count()} CPU(s), load average {load}; {args.repeats} redraws per case; "
        f"budget {BUDGET_MS:g} ms per redraw\n"
    )
    print(
        "| case | size | wall median ms | wall p90 ms | wall max ms | CPU median ms | PNG bytes "
        "| within budget |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---|")
    slow = False
    for name, ((wall, cpu), size, png) in cases(args.repeats):
        ok = np.median(wall) <= BUDGET_MS
        slow |= not ok and "refit" not in name
        print(
            f"| {name} | {size} | {np.median(wall):.1f} | {np.percentile(wall, 90):.1f} | "
            f"{wall.max():.1f} | "
            f"{np.median(cpu):.1f} | {png} | {'yes' if ok else 'NO'} |"
        )
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
