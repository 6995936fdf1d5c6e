"""The training benchmark grid: workload kinds x models, on the block scan (the models' default)
and on the plain loop, each against scikit-learn on the same data and epochs in the same run.

Run with ``make bench`` (not part of ``make test``). It writes the table to the ``grid`` section of
``benchmarks/results.md`` (``_report.py``).

* Workloads (``workloads.py``): tall and wide separable data, a thin margin, 2% and 20% label
  noise, a sparse text-like CSR matrix, many tiny fits (binary and 3-class) and the digits.
* Contenders in each workload: every model that takes the data, once on the block scan
  (``perclib.block_scan``) and once on the plain loop (``perclib.training``, the private
  ``_reference`` flag), and
  ``sklearn.linear_model.Perceptron(shuffle=False, tol=None, eta0=1, max_iter=e)``, where e is,
  problem by problem, the number of epochs the perclib model ran (``n_iter_``). For
  MulticlassPerceptron scikit-learn trains one-vs-rest, K binary models: the ratio compares the
  totals, which is the "per class" comparison.
* Each contender first runs once untimed (PocketPerceptron on the first 1000 rows of each
  problem, its full fit being long). The first call of each model in the process, before
  anything else, is timed separately.
* Then rounds alternate the contenders (A, B, C, A, B, C, ...); each cell is the ratio of the
  medians, wall clock and (in brackets) CPU time. PocketPerceptron runs only in the first
  ``--pocket-repeats`` rounds (each of its updates scores the whole training set), the plain loop
  only in the first (it visits the examples one by one in Python).
* Checks: Perceptron's coef_ and intercept_ equal scikit-learn's, bit for bit, on every problem;
  every model's fitted attributes are equal on the block scan and on the plain loop.

BLAS and OpenMP are pinned to one thread before numpy is imported. ConvergenceWarnings from both
libraries are silenced. Options: ``--repeats N``, ``--pocket-repeats N``, ``--quick`` (small
shapes, 3 rounds, for a smoke run), ``--no-write`` (print only).
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # before numpy is imported: one thread for every contender

import argparse  # noqa: E402
import datetime  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import scipy  # noqa: E402
import scipy.sparse as sp  # noqa: E402
import sklearn  # noqa: E402
from sklearn.exceptions import ConvergenceWarning as SkConvergenceWarning  # noqa: E402
from sklearn.linear_model import Perceptron as SkPerceptron  # noqa: E402

import perclib  # noqa: E402
from perclib import (  # noqa: E402
    AveragedPerceptron,
    MulticlassPerceptron,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
)
from perclib.datasets import make_blobs3, make_separable  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _report import write_section  # noqa: E402
from workloads import SIZES, make_workload  # noqa: E402

BINARY = (Perceptron, AveragedPerceptron, VotedPerceptron, PocketPerceptron)
SPARSE_OK = (Perceptron, AveragedPerceptron)  # the models that take a scipy.sparse X
POCKET_WARMUP_ROWS = 1000


def quiet(fn):
    """Call fn with both libraries' ConvergenceWarnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkConvergenceWarning)
        warnings.simplefilter("ignore", perclib.ConvergenceWarning)
        return fn()


def med(values):
    return float(np.median(values))


# -- what runs -------------------------------------------------------------------------------


def models_for(w):
    if w.multiclass:
        return (MulticlassPerceptron,)
    return BINARY if w.dense else SPARSE_OK


def fit_all(model, problems, max_iters, scan):
    """Fit ``model(max_iter=m)`` on every problem: on the block scan if ``scan``, else on the
    plain loop."""

    def fit(X, y, m):
        clf = model(max_iter=m)
        clf._reference = not scan
        return clf.fit(X, y)

    return quiet(lambda: [fit(X, y, m) for (X, y), m in zip(problems, max_iters)])


def sk_all(problems, epochs):
    return quiet(
        lambda: [
            SkPerceptron(shuffle=False, tol=None, eta0=1.0, max_iter=e).fit(X, y)
            for (X, y), e in zip(problems, epochs)
        ]
    )


def head(problems, rows=POCKET_WARMUP_ROWS):
    return [(X[:rows], y[:rows]) for X, y in problems]


def plan(w):
    """max_iter per problem for each model; Perceptron's convergence is found by fitting it once
    (this fit is also Perceptron's warm-up)."""
    n = len(w.problems)
    if w.multiclass:
        return {MulticlassPerceptron: [w.epochs or w.cap] * n}, {}
    percs = fit_all(Perceptron, w.problems, [w.epochs or w.cap] * n, scan=True)
    epochs = [p.n_iter_ for p in percs]
    iters = {Perceptron: [w.epochs or w.cap] * n}
    for model in (AveragedPerceptron, VotedPerceptron):
        iters[model] = list(epochs)
    if w.dense:
        iters[PocketPerceptron] = [w.pocket_epochs or w.cap] * n
    return {m: iters[m] for m in models_for(w)}, {Perceptron: percs}


def measure(w, repeats, pocket_repeats):
    """Warm up, then time alternated rounds. Returns one dict per model."""
    iters, warm = plan(w)
    contenders = {}  # name -> (fn, slow)
    for model, its in iters.items():
        for scan in (True, False):
            contenders[(model.__name__, scan)] = (
                lambda model=model, its=its, scan=scan: fit_all(model, w.problems, its, scan),
                model is PocketPerceptron,
            )
    # warm-up (untimed); it also tells the epochs scikit-learn must run for each model
    sk_epochs = {}
    for (name, scan), (fn, slow) in contenders.items():
        model = next(m for m in iters if m.__name__ == name)
        if not scan:  # the plain loop: one untimed warm-up on the first rows is enough
            fit_all(model, head(w.problems), iters[model], scan)
            continue
        if slow:
            fit_all(model, head(w.problems), iters[model], scan)
            continue
        fits = warm.pop(model, None) if scan else None
        fits = fits or fn()
        if scan:
            sk_epochs[name] = tuple(f.n_iter_ for f in fits)
    if PocketPerceptron in iters:
        # Its epochs: a capped pocket never meets a clean epoch this early (checked below, after
        # timing); uncapped, it stops at the first clean epoch, found by a fit of its own.
        its = iters[PocketPerceptron]
        if w.pocket_epochs is None:
            its = [f.n_iter_ for f in fit_all(PocketPerceptron, w.problems, its, True)]
        sk_epochs["PocketPerceptron"] = tuple(its)
    for e in set(sk_epochs.values()):
        contenders[("sklearn", e)] = (lambda e=e: sk_all(w.problems, e), False)
        sk_all(w.problems, e)  # warm-up

    runs = {key: ([], [], None) for key in contenders}
    for round_ in range(repeats):
        for key, (fn, slow) in contenders.items():
            if slow and round_ >= pocket_repeats or key[1] is False and round_ >= 1:
                continue  # the plain loop (minutes on the larger workloads) is timed once
            wall0, cpu0 = time.perf_counter(), time.process_time()
            result = fn()
            wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
            runs[key] = (runs[key][0] + [wall], runs[key][1] + [cpu], result)

    out = []
    for model in iters:
        name = model.__name__
        on, off = runs[(name, True)], runs[(name, False)]
        sk = runs[("sklearn", sk_epochs[name])]
        row = {
            "model": name,
            "epochs": sk_epochs[name],
            "runs": len(on[0]),
            "sk_runs": len(sk[0]),
            "time": (med(on[0]), med(on[1])),
            "ratio_on": (med(on[0]) / med(sk[0]), med(on[1]) / med(sk[1])),
            "ratio_off": (med(off[0]) / med(sk[0]), med(off[1]) / med(sk[1])),
            "same_paths": all(map(same_fit, on[2], off[2])),
            "updates": sum(int(f.n_updates_) for f in on[2]),
            "converged": sum(bool(f.converged_) for f in on[2]),
        }
        if model is Perceptron:
            row["same_sklearn"] = same_as_sklearn(w, on[2], sk[2], sk_epochs[name])
        if model is PocketPerceptron:
            xw = matvec_time(w.problems)
            row["per_update"] = tuple(med(r[0]) / max(row["updates"], 1) / xw for r in (on, off))
            # judged as the ratios are (verdict): wall clock only, so the pair repeats it
            row["per_update_on"] = (row["per_update"][0],) * 2
            row["per_update_off"] = (row["per_update"][1],) * 2
            row["xw"] = xw
        if tuple(f.n_iter_ for f in on[2]) != sk_epochs[name]:
            raise RuntimeError(f"{name} on {w.key}: scikit-learn ran other epochs than perclib")
        out.append(row)
    return out


def same_as_sklearn(w, ours, theirs, epochs):
    """Perceptron's coef_ and intercept_ equal scikit-learn's on every problem.

    On sparse X scikit-learn damps the intercept's updates (``intercept_decay`` 0.01), a different
    algorithm: there the check is made, untimed, on fits without an intercept.
    """
    if not w.dense:
        pairs = quiet(
            lambda: [
                (
                    Perceptron(max_iter=e, fit_intercept=False).fit(X, y),
                    SkPerceptron(shuffle=False, tol=None, max_iter=e, fit_intercept=False).fit(
                        X, y
                    ),
                )
                for (X, y), e in zip(w.problems, epochs)
            ]
        )
        ours, theirs = zip(*pairs)
    return all(
        np.array_equal(f.coef_, s.coef_[0]) and f.intercept_ == s.intercept_[0]
        for f, s in zip(ours, theirs)
    )


def matvec_time(problems, repeats=21):
    """Median wall time of one ``X @ w`` on the workload's X."""
    total = 0.0  # many tiny fits: the mean over the problems (all of one shape)
    for X, _ in problems:
        v = np.random.default_rng(0).normal(size=X.shape[1])
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            X @ v
            times.append(time.perf_counter() - t0)
        total += med(times)
    return total / len(problems)


def same_fit(a, b):
    """Whether two fitted models have equal fitted attributes (name_, public), bit for bit."""
    names = [k for k in vars(a) if k.endswith("_") and not k.startswith("_")]
    if sorted(names) != sorted(k for k in vars(b) if k.endswith("_") and not k.startswith("_")):
        return False
    for k in names:
        x, y = getattr(a, k), getattr(b, k)
        if isinstance(x, np.ndarray | float | int | np.generic):
            if not np.array_equal(x, y, equal_nan=np.asarray(x).dtype.kind == "f"):
                return False
        elif x != y:
            return False
    return True


def first_calls():
    """The first fit of each model in this process, then a second identical fit, in ms, on the
    block scan; the sparse (CSR) fits come after the dense ones."""
    X, y = make_separable(100, 2, random_state=0)
    X3, y3 = make_blobs3(33, random_state=0)
    Xs = sp.csr_matrix(X)
    jobs = [(m.__name__, m, X, y) for m in BINARY] + [
        ("MulticlassPerceptron", MulticlassPerceptron, X3, y3),
        *((f"{m.__name__} (CSR)", m, Xs, y) for m in SPARSE_OK),
    ]
    out = []
    for name, model, A, b in jobs:
        times = []
        for _ in range(2):
            t0 = time.perf_counter()
            quiet(lambda model=model, A=A, b=b: model(max_iter=10).fit(A, b))
            times.append(time.perf_counter() - t0)
        out.append((name, *times))
    return out


# -- the table --------------------------------------------------------------------------------

WORD = {True: "met", False: "**not met**"}

#: The targets, by workload and model: the numpy path's ratios in the last grid with the compiled
#: loops (its 'Ratio, no accel' column, wall clock), rounded up; PocketPerceptron: per update.
TARGETS = {
    "tall": {
        "Perceptron": 0.85,
        "AveragedPerceptron": 0.9,
        "VotedPerceptron": 0.9,
        "PocketPerceptron": 1.7,
    },
    "wide": {
        "Perceptron": 1.0,
        "AveragedPerceptron": 1.1,
        "VotedPerceptron": 1.1,
        "PocketPerceptron": 1.2,
    },
    "thin": {
        "Perceptron": 3.3,
        "AveragedPerceptron": 3.9,
        "VotedPerceptron": 3.6,
        "PocketPerceptron": 2.7,
    },
    "noise2": {
        "Perceptron": 26.3,
        "AveragedPerceptron": 33.3,
        "VotedPerceptron": 30.0,
        "PocketPerceptron": 2.4,
    },
    "noise20": {
        "Perceptron": 59.3,
        "AveragedPerceptron": 77.5,
        "VotedPerceptron": 69.2,
        "PocketPerceptron": 2.9,
    },
    "sparse": {"Perceptron": 49.2, "AveragedPerceptron": 55.0},
    "tiny": {
        "Perceptron": 0.9,
        "AveragedPerceptron": 0.95,
        "VotedPerceptron": 0.95,
        "PocketPerceptron": 1.3,
    },
    "tiny3": {"MulticlassPerceptron": 0.95},
    "digits": {"MulticlassPerceptron": 2.7},
}


def targets(w, model):
    """[(label, which ratio, bound)] for a cell: the block scan's ratio, as measured before the
    compiled loops were removed (the 'no accel' column of that grid), must not get worse.

    PocketPerceptron is judged per update, in units of one ``X @ w``.
    """
    per_update = model == "PocketPerceptron" and w.key != "tiny"  # tiny fits: the fit time
    return [("", "per_update_on" if per_update else "ratio_on", TARGETS[w.key][model])]


def verdict(row, tgts):
    """Met or not for each target, judged on the wall-clock medians and on the CPU medians."""
    parts = []
    for label, which, bound in tgts:
        wall, cpu = (r <= bound for r in row[which])
        text = WORD[wall] if wall == cpu else f"{WORD[wall]} (wall), {WORD[cpu]} (CPU)"
        parts.append(f"{label}{text}")
    if row.get("same_sklearn") is False:
        parts.append("**weights differ from scikit-learn**")
    return "; ".join(parts) or "-"


def ratio(pair):
    return f"{pair[0]:.2f}x ({pair[1]:.2f}x)"


def fmt_s(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    return f"{seconds * 1e3:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def epochs_text(w, row):
    epochs = row["epochs"]
    text = str(epochs[0]) if len(epochs) == 1 else f"{min(epochs)}-{max(epochs)} per fit"
    to_convergence = (row["model"] == "Perceptron" and w.epochs is None) or (
        row["model"] == "PocketPerceptron" and w.pocket_epochs is None
    )
    if to_convergence or (row["model"] == "MulticlassPerceptron" and w.epochs is None):
        n = len(epochs)
        done = "converged" if n == 1 else f"{row['converged']}/{n} converged"
        text += f" (cap {w.cap}; {done if row['converged'] else 'not converged'})"
    return text


def checks_text(w, row):
    parts = []
    if "same_sklearn" in row:
        how = " (both without intercept)" if not w.dense else ""
        parts.append(f"= scikit-learn{how}: {'yes' if row['same_sklearn'] else '**NO**'}")
    parts.append(f"block scan = plain loop: {'yes' if row['same_paths'] else '**NO**'}")
    if "per_update" in row:
        on, off = row["per_update"]
        parts.append(f"per update {on:.2f} (plain {off:.2f}) x one `X @ w` ({fmt_s(row['xw'])})")
    return "; ".join(parts)


def machine():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def table(results, firsts, meta):
    lines = [
        "### Training grid (`benchmarks/bench_grid.py`)",
        "",
        f"Measured {meta['date']:%Y-%m-%d %H:%M} UTC on {machine()}, {os.cpu_count()} cores "
        f"shared with other jobs (load average {meta['load'][0]:.2f} at the start, "
        f"{meta['load'][1]:.2f} at the end); Python {platform.python_version()}, numpy "
        f"{np.__version__}, scipy {scipy.__version__}, scikit-learn {sklearn.__version__}; "
        f"`OPENBLAS_NUM_THREADS=1`. {meta['repeats']} alternated rounds per workload "
        f"({meta['pocket_repeats']} for "
        f"PocketPerceptron){', --quick shapes' if meta['quick'] else ''}; the grid took "
        f"{meta['elapsed']:.0f} s.",
        "",
        "Each ratio is perclib's median time over scikit-learn's "
        "`Perceptron(shuffle=False, tol=None, eta0=1, max_iter=e)` on the same data, e being the "
        "epochs the perclib model ran, problem by problem: wall clock, then CPU time in brackets. "
        "'numpy': the block scan (`perclib.block_scan`, the models' default); 'plain loop': "
        "`perclib.training`'s per-example loop. For MulticlassPerceptron scikit-learn trains "
        "one-vs-rest (K binary "
        "models), so the ratio of the totals is the per-class comparison. Many tiny fits: the "
        "total time of all fits. 'Epochs' is what perclib ran (scikit-learn ran the same); "
        "'perclib' is the block scan's median. Target: the block scan's ratio must not exceed the "
        "'Ratio, no accel' of the last grid measured with the compiled loops (rounded up).",
        "",
        "| Workload (shape) | Model | Epochs | perclib | Ratio, numpy | Ratio, plain loop | "
        "Target | Met? | Checks |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for w, rows in results:
        for row in rows:
            tgts = targets(w, row["model"])
            target = "; ".join(f"{label}<= {bound}x" for label, _, bound in tgts)
            lines.append(
                f"| {w.title} ({w.shape}) | {row['model']} | {epochs_text(w, row)} | "
                f"{fmt_s(row['time'][0])} | {ratio(row['ratio_on'])} | "
                f"{ratio(row['ratio_off'])} | {target} | {verdict(row, tgts)} | "
                f"{checks_text(w, row)} |"
            )
    lines += [
        "",
        "Notes: the sparse workload is separable (by its hidden w* and a tiny bias) but its margin "
        "is unknown and it runs a fixed number of epochs. On sparse X "
        "scikit-learn damps its intercept's updates (`intercept_decay` 0.01), so there the "
        "bit-identity is checked on untimed fits without intercept. Only Perceptron "
        "and AveragedPerceptron take sparse X. PocketPerceptron runs "
        f"{', '.join(f'{k}: {v}' for k, v in meta['pocket_epochs'].items())} epoch(s) "
        "(to convergence where '-'); its time per update is its median fit time over its "
        "updates, in units of one `X @ w` (median of 21) on the same X. "
        "Separable workloads' Perceptron runs to convergence (at most 'cap' epochs); "
        "AveragedPerceptron and VotedPerceptron run as many epochs as it took.",
        "",
        "First call of each model in the process, then a second identical call, fit on 100 "
        "points, dense then sparse (block scan): "
        + ", ".join(f"{name} {a * 1e3:.0f} ms / {b * 1e3:.1f} ms" for name, a, b in firsts)
        + ".",
    ]
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--pocket-repeats", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="small shapes and 3 rounds")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    args = parser.parse_args(argv)
    repeats = 3 if args.quick else args.repeats
    pocket_repeats = 1 if args.quick else min(args.pocket_repeats, repeats)
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    date = datetime.datetime.now(datetime.timezone.utc)
    firsts = first_calls()
    results, pocket_epochs = [], {}
    for key in SIZES:
        t1 = time.perf_counter()
        w = make_workload(key, quick=args.quick)
        made = time.perf_counter() - t1
        rows = measure(w, repeats, pocket_repeats)
        results.append((w, rows))
        if w.dense and not w.multiclass:
            pocket_epochs[key] = w.pocket_epochs or "-"
        print(
            f"{key}: data {made:.1f} s, measured in {time.perf_counter() - t1 - made:.1f} s",
            flush=True,
        )
    meta = {
        "date": date,
        "load": (load0, os.getloadavg()[0]),
        "repeats": repeats,
        "pocket_repeats": pocket_repeats,
        "quick": args.quick,
        "elapsed": time.perf_counter() - t0,
        "pocket_epochs": pocket_epochs,
    }
    text = table(results, firsts, meta)
    print(text)
    if not args.no_write:
        write_section("grid", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
