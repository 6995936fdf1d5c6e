"""Benchmark perclib's fast paths against scikit-learn and against perclib's own reference loop.

Run with ``make bench`` (not part of ``make test``), after the training grid (``bench_grid.py``).
It writes a markdown table to the ``fit`` section of ``benchmarks/results.md`` (``_report.py``).

* The main comparison: Perceptron fit to convergence on a separable 100k x 100 float64 dataset with
  margin 0.1, against ``sklearn.linear_model.Perceptron(shuffle=False, tol=None)`` run for the same
  number of epochs (the two are bit-identical, which is checked), and against the reference
  per-sample loop (``_reference = True``).
* AveragedPerceptron against ``SGDClassifier(loss="perceptron", average=True)``, same data and
  epochs.
* MulticlassPerceptron on the digits, fast path against the reference loop.
* One pass over X (``X.sum()``, einsum, BLAS ``X @ w``): the least an epoch can cost.
* Peak memory during fit (tracemalloc) against ``X.nbytes``.
* The wall time of the full nbval suite over ``notebooks/``.

Runs alternate between the contenders (A, B, C, A, B, C, ...) so that a burst of load on this shared
machine hits all of them, and the table reports medians. BLAS and OpenMP are pinned to one thread.
Options: ``--repeats N``, ``--ref-repeats N`` (runs of the slow reference loops), ``--quick``
(3 repeats, one reference run, no nbval), ``--no-nbval``, ``--no-write``.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # before numpy is imported: one thread for every contender

import argparse  # noqa: E402
import datetime  # noqa: E402
import platform  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import sklearn  # noqa: E402
from sklearn.linear_model import Perceptron as SkPerceptron  # noqa: E402
from sklearn.linear_model import SGDClassifier  # noqa: E402

from perclib import AveragedPerceptron, MulticlassPerceptron, Perceptron  # noqa: E402
from perclib.datasets import load_digits, make_separable  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _report import write_section  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
N, D, MARGIN, SEED = 100_000, 100, 0.1, 0
X_BYTES = N * D * 8
AVERAGED_EPOCHS = 10


def quiet(fn):
    """Call fn with warnings silenced (scikit-learn warns that tol=None ran all max_iter epochs)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def alternate(contenders, repeats, slow=None, slow_repeats=0):
    """Time each contender ``repeats`` times, interleaved; return
    {name: (wall times, cpu times, result)}.

    The ``slow`` contenders run only in the first ``slow_repeats`` rounds, still interleaved.
    """
    slow = slow or {}
    out = {name: ([], [], None) for name in [*contenders, *slow]}
    for round_ in range(repeats):
        both = {**contenders, **(slow if round_ < slow_repeats else {})}
        for name, fn in both.items():
            wall0, cpu0 = time.perf_counter(), time.process_time()
            result = quiet(fn)
            out[name][0].append(time.perf_counter() - wall0)
            out[name][1].append(time.process_time() - cpu0)
            out[name] = (out[name][0], out[name][1], result)
    return out


def med(values):
    return float(np.median(values))


def reference(model):
    model._reference = True  # the plain per-sample loop, mirroring the pseudocode
    return model


def main_comparison(X, y, repeats, ref_repeats):
    epochs = quiet(lambda: Perceptron(max_iter=1000).fit(X, y)).n_iter_
    # the reference loop runs the whole fit too (no extrapolation), in fewer of the rounds
    runs = alternate(
        {
            "perclib": lambda: Perceptron(max_iter=1000).fit(X, y),
            "sklearn": lambda: SkPerceptron(shuffle=False, tol=None, max_iter=epochs).fit(X, y),
        },
        repeats,
        slow={"reference": lambda: reference(Perceptron(max_iter=1000)).fit(X, y)},
        slow_repeats=ref_repeats,
    )
    ours, sk, ref = (runs[k][2] for k in ("perclib", "sklearn", "reference"))
    identical = bool(
        np.array_equal(ours.coef_, sk.coef_[0]) and ours.intercept_ == sk.intercept_[0]
    )
    ref_identical = all(
        np.array_equal(getattr(ours, a), getattr(ref, a))
        for a in ("coef_", "intercept_", "mistakes_", "n_iter_", "n_updates_")
    )
    return {
        "epochs": epochs,
        "updates": int(ours.n_updates_),
        "identical": identical,
        "ref_identical": ref_identical,
        **{k: v[:2] for k, v in runs.items()},
    }


def averaged_comparison(X, y, repeats, ref_repeats):
    runs = alternate(
        {
            "perclib": lambda: AveragedPerceptron(max_iter=AVERAGED_EPOCHS).fit(X, y),
            "sklearn": lambda: SGDClassifier(
                loss="perceptron",
                penalty=None,
                learning_rate="constant",
                eta0=1.0,
                average=True,
                max_iter=AVERAGED_EPOCHS,
                tol=None,
                shuffle=False,
            ).fit(X, y),
        },
        repeats,
        slow={
            "reference": lambda: reference(AveragedPerceptron(max_iter=AVERAGED_EPOCHS)).fit(X, y)
        },
        slow_repeats=ref_repeats,
    )
    ours, ref = runs["perclib"][2], runs["reference"][2]
    ref_identical = all(
        np.array_equal(getattr(ours, a), getattr(ref, a))
        for a in ("coef_", "intercept_", "last_coef_", "mistakes_")
    )
    acc = {name: float(runs[name][2].score(X, y)) for name in ("perclib", "sklearn")}
    return {"accuracy": acc, "ref_identical": ref_identical, **{k: v[:2] for k, v in runs.items()}}


def multiclass_comparison(repeats, ref_repeats):
    X, y = load_digits()
    fast = quiet(lambda: MulticlassPerceptron(max_iter=1000).fit(X, y))
    epochs = fast.n_iter_
    runs = alternate(
        {
            "perclib": lambda: MulticlassPerceptron(max_iter=1000).fit(X, y),
            "sklearn": lambda: SkPerceptron(shuffle=False, tol=None, max_iter=epochs).fit(X, y),
        },
        repeats,
        slow={"reference": lambda: reference(MulticlassPerceptron(max_iter=1000)).fit(X, y)},
        slow_repeats=ref_repeats,
    )
    identical = bool(np.array_equal(runs["reference"][2].coef_, fast.coef_))
    return {
        "epochs": epochs,
        "converged": bool(fast.converged_),
        "updates": int(fast.n_updates_),
        "identical": identical,
        **{k: v[:2] for k, v in runs.items()},
    }


def one_pass(X, repeats):
    """What one epoch's scan costs at least: a single pass over X, three ways (alternated runs)."""
    w = np.random.default_rng(SEED).normal(size=X.shape[1])
    runs = alternate(
        {
            "sum": lambda: X.sum(),
            "einsum": lambda: np.einsum("ij,j->i", X, w),
            "blas": lambda: X @ w,
        },
        3 * repeats,
    )
    return {name: med(v[0]) for name, v in runs.items()}


def peak_memory(X, y):
    """tracemalloc's peak during fit, over X.nbytes of the float64 data."""

    def peak(fn):
        tracemalloc.start()
        tracemalloc.reset_peak()
        quiet(fn)
        value = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return value

    X32 = X.astype(np.float32)
    return {
        "nbytes": X.nbytes,
        "float64": peak(lambda: Perceptron(max_iter=1000).fit(X, y)),
        "float64 shuffle": peak(
            lambda: Perceptron(max_iter=5, order="shuffle", random_state=0).fit(X, y)
        ),
        "float32": peak(lambda: Perceptron(max_iter=2).fit(X32, y)),
        "averaged": peak(lambda: AveragedPerceptron(max_iter=2).fit(X, y)),
        "sklearn float64": peak(
            lambda: SkPerceptron(shuffle=False, tol=None, max_iter=2).fit(X, y)
        ),
    }


def nbval_suite():
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "--nbval",
        "--nbval-current-env",
        "notebooks",
    ]
    wall0, cpu0 = time.perf_counter(), _children_cpu()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - wall0, _children_cpu() - cpu0
    tail = (proc.stdout.strip().splitlines() or [""])[-1]
    return {
        "wall": wall,
        "cpu": cpu,
        "returncode": proc.returncode,
        "summary": tail,
        "notebooks": [p.name for p in notebooks],
    }


def _children_cpu():
    """CPU seconds of finished child processes (pytest and the kernels it started and waited
    for)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def fmt_s(seconds):
    return f"{seconds * 1e3:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def verdict(wall_ok, cpu_ok=None):
    """Met or not, judged on the wall-clock medians and, separately, on the CPU-time medians."""
    word = {True: "met", False: "not met"}
    if cpu_ok is None or cpu_ok == wall_ok:
        return f"**{word[wall_ok]}**"
    return f"**{word[wall_ok]}** (wall), **{word[cpu_ok]}** (CPU)"


def _pair(runs, name):
    return med(runs[name][0]), med(runs[name][1])


def table(main, avg, mc, mem, nb, repeats, ref_repeats, load, scan):
    pw, pc = _pair(main, "perclib")
    sw, sc = _pair(main, "sklearn")
    rw, rc = _pair(main, "reference")
    aw, ac = _pair(avg, "perclib")
    gw, gc = _pair(avg, "sklearn")
    arw, arc = _pair(avg, "reference")
    mw, mcpu = _pair(mc, "perclib")
    mrw, mrc = _pair(mc, "reference")
    msw, msc = _pair(mc, "sklearn")
    lines = [
        "### Fit details (`benchmarks/bench_fit.py`)",
        "",
        f"Measured {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores shared with "
        f"other jobs (load average {load[0]:.1f} at the start, {load[1]:.1f} at the end), Python "
        f"{platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}, "
        "`OPENBLAS_NUM_THREADS=1`. Each cell: the median wall-clock time of alternated runs, then "
        "in brackets the median CPU time of the same runs (on a loaded machine wall time also "
        "counts the wait for a core; CPU time counts only the work). Ratios likewise.",
        "",
        "Main comparison: `Perceptron` on "
        f"`make_separable({N:_}, {D}, margin={MARGIN}, random_state={SEED})` "
        f"(float64, {N * D * 8 / 1e6:.0f} MB), fit to convergence: {main['epochs']} epochs, "
        f"{main['updates']} updates. Bit-identical weights: perclib = scikit-learn "
        f"{'yes' if main['identical'] else 'NO'}; perclib = reference loop (coef_, intercept_, "
        f"mistakes_, n_iter_, n_updates_) {'yes' if main['ref_identical'] else 'NO'}.",
        "",
        "| Benchmark | perclib | Compared with | Their time | Ratio | Target | Met? |",
        "|---|---|---|---|---|---|---|",
        f"| Perceptron fit, {main['epochs']} epochs ({repeats} runs each) | "
        f"{fmt_s(pw)} ({fmt_s(pc)}) | "
        f"scikit-learn `Perceptron(shuffle=False, tol=None, max_iter={main['epochs']})` | "
        f"{fmt_s(sw)} ({fmt_s(sc)}) | "
        f"{pw / sw:.2f}x ({pc / sc:.2f}x) | <= 1.0x | {verdict(pw / sw <= 1.0, pc / sc <= 1.0)} |",
        f"| Perceptron fit, same | {fmt_s(pw)} ({fmt_s(pc)}) | reference per-sample loop, whole "
        f"fit, not extrapolated ({ref_repeats} runs) | {fmt_s(rw)} ({fmt_s(rc)}) | "
        f"{rw / pw:.0f}x faster ({rc / pc:.0f}x) | "
        f">= 15x faster | {verdict(rw / pw >= 15, rc / pc >= 15)} |",
        f"| AveragedPerceptron, {AVERAGED_EPOCHS} epochs ({repeats} runs each; training accuracy "
        f"{avg['accuracy']['perclib']:.4f}) | {fmt_s(aw)} ({fmt_s(ac)}) | "
        "`SGDClassifier(loss='perceptron', penalty=None, learning_rate='constant', eta0=1, "
        f"average=True, shuffle=False, tol=None, max_iter={AVERAGED_EPOCHS})` "
        f"(training accuracy {avg['accuracy']['sklearn']:.4f}) | "
        f"{fmt_s(gw)} ({fmt_s(gc)}) | {aw / gw:.2f}x ({ac / gc:.2f}x) | <= 1.5x | "
        f"{verdict(aw / gw <= 1.5, ac / gc <= 1.5)} |",
        f"| AveragedPerceptron, same | {fmt_s(aw)} ({fmt_s(ac)}) | reference loop, whole fit "
        f"({ref_repeats} runs; bit-identical: {'yes' if avg['ref_identical'] else 'NO'}) | "
        f"{fmt_s(arw)} ({fmt_s(arc)}) | "
        f"{arw / aw:.0f}x faster ({arc / ac:.0f}x) | - | - |",
        f"| MulticlassPerceptron on digits (1797 x 64, 10 classes), {mc['epochs']} epochs to "
        f"convergence, {mc['updates']} updates | {fmt_s(mw)} ({fmt_s(mcpu)}) | reference loop "
        f"({ref_repeats} runs; bit-identical: {'yes' if mc['identical'] else 'NO'}) | "
        f"{fmt_s(mrw)} ({fmt_s(mrc)}) | {mrw / mw:.1f}x faster "
        f"({mrc / mcpu:.1f}x) | - | - |",
        f"| MulticlassPerceptron on digits, same | {fmt_s(mw)} ({fmt_s(mcpu)}) | "
        "scikit-learn `Perceptron` "
        f"one-vs-rest, same epochs (a different model, for scale) | {fmt_s(msw)} ({fmt_s(msc)}) | "
        f"{mw / msw:.2f}x ({mcpu / msc:.2f}x) | - | - |",
    ]
    mb = mem["nbytes"]
    lines.append(
        "| Peak memory during fit (tracemalloc), X float64 C-contiguous | "
        f"{mem['float64'] / mb:.3f} x X.nbytes "
        f"(shuffle: {mem['float64 shuffle'] / mb:.3f}; averaged: {mem['averaged'] / mb:.3f}) | "
        f"scikit-learn | {mem['sklearn float64'] / mb:.3f} x X.nbytes | - | no copy of X (< 1x) | "
        f"{verdict(max(mem['float64'], mem['float64 shuffle'], mem['averaged']) < mb)} |"
    )
    lines.append(
        "| Peak memory, X float32 (one float64 conversion expected) | "
        f"{mem['float32'] / mb:.3f} x float64 X.nbytes "
        f"| - | - | - | one conversion (< 2x) | {verdict(mem['float32'] < 2 * mb)} |"
    )
    if nb is not None:
        lines.append(
            "| nbval suite (`pytest --nbval --nbval-current-env notebooks`, "
            f"{len(nb['notebooks'])} notebooks: {nb['summary']}) | "
            f"{fmt_s(nb['wall'])} ({fmt_s(nb['cpu'])}) | - | - | - | <= 120 s | "
            f"{verdict(nb['wall'] <= 120, nb['cpu'] <= 120)} |"
        )
    gbs = {k: X_BYTES / v / 1e9 for k, v in scan.items()}
    lines += [
        "",
        f"One pass over X, the least an epoch can cost (medians of {3 * repeats} alternated runs): "
        f"`X.sum()` {scan['sum'] * 1e3:.1f} ms ({gbs['sum']:.0f} GB/s), "
        f"`np.einsum('ij,j->i', X, w)` {scan['einsum'] * 1e3:.1f} ms ({gbs['einsum']:.0f} GB/s), "
        f"BLAS `X @ w` {scan['blas'] * 1e3:.1f} ms ({gbs['blas']:.0f} GB/s). scikit-learn's epoch "
        f"takes about {sw / main['epochs'] * 1e3:.1f} ms; the block scan scores each window of "
        "rows with one BLAS product and, after a mistake, scores again from the row after it.",
    ]
    lines += [
        "",
        "Notebooks timed: " + (", ".join(nb["notebooks"]) if nb else "not run (--no-nbval)") + ".",
    ]
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument(
        "--ref-repeats", type=int, default=3, help="runs of the (slow) reference loops"
    )
    parser.add_argument("--quick", action="store_true", help="3 repeats and no nbval")
    parser.add_argument("--no-nbval", action="store_true")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    args = parser.parse_args(argv)
    repeats = 3 if args.quick else args.repeats
    ref_repeats = 1 if args.quick else min(args.ref_repeats, repeats)
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    X, y = make_separable(N, D, margin=MARGIN, random_state=SEED)
    print(f"data: {X.shape} in {time.perf_counter() - t0:.1f} s", flush=True)
    main_ = main_comparison(X, y, repeats, ref_repeats)
    print("main comparison done", flush=True)
    avg = averaged_comparison(X, y, repeats, ref_repeats)
    print("averaged done", flush=True)
    mc = multiclass_comparison(repeats, ref_repeats)
    print("multiclass done", flush=True)
    scan = one_pass(X, repeats)
    mem = peak_memory(X, y)
    nb = None if (args.quick or args.no_nbval) else nbval_suite()
    text = table(main_, avg, mc, mem, nb, repeats, ref_repeats, (load0, os.getloadavg()[0]), scan)
    print(text)
    if not args.no_write:
        write_section("fit", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
