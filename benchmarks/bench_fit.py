"""Benchmark perclib's fast paths against scikit-learn and against perclib's own reference loop.

Run with ``make bench`` (not part of ``make test``). It writes a markdown table to
``benchmarks/results.md`` and into README.md between ``<!-- bench:start -->`` and ``<!-- bench:end -->``.

* The main comparison: Perceptron fit to convergence on a separable 100k x 100 float64 dataset with
  margin 0.1, against ``sklearn.linear_model.Perceptron(shuffle=False, tol=None)`` run for the same
  number of epochs (the two are bit-identical, which is checked), and against the reference
  per-sample loop (``_reference = True``).
* AveragedPerceptron against ``SGDClassifier(loss="perceptron", average=True)``, same data and epochs.
* MulticlassPerceptron on the digits, fast path against the reference loop.
* Peak memory during fit (tracemalloc) against ``X.nbytes``.
* The wall time of the full nbval suite over ``notebooks/``.

Runs alternate between the contenders (A, B, C, A, B, C, ...) so that a burst of load on this shared
machine hits all of them, and the table reports medians. BLAS and OpenMP are pinned to one thread.
Options: ``--repeats N``, ``--quick`` (fewer repeats, no nbval), ``--no-nbval``, ``--no-write``.
"""
from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # before numpy is imported: one thread for every contender

import argparse  # noqa: E402
import datetime  # noqa: E402
import platform  # noqa: E402
import re  # noqa: E402
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

ROOT = Path(__file__).resolve().parents[1]
N, D, MARGIN, SEED = 100_000, 100, 0.1, 0
AVERAGED_EPOCHS = 10


def quiet(fn):
    """Call fn with warnings silenced (scikit-learn warns that tol=None ran all max_iter epochs)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def alternate(contenders, repeats):
    """Time each contender ``repeats`` times, interleaved; return {name: (wall times, cpu times, result)}."""
    out = {name: ([], [], None) for name in contenders}
    for _ in range(repeats):
        for name, fn in contenders.items():
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


def main_comparison(X, y, repeats):
    epochs = quiet(lambda: Perceptron(max_iter=1000).fit(X, y)).n_iter_
    runs = alternate({
        "perclib": lambda: Perceptron(max_iter=1000).fit(X, y),
        "sklearn": lambda: SkPerceptron(shuffle=False, tol=None, max_iter=epochs).fit(X, y),
    }, repeats)
    ours, sk = runs["perclib"][2], runs["sklearn"][2]
    identical = bool(np.array_equal(ours.coef_, sk.coef_[0]) and ours.intercept_ == sk.intercept_[0])
    # The reference loop takes minutes to converge here: time 1 and 3 epochs on all the rows, and
    # extrapolate linearly, t(E) = t(1) + (E - 1) * (t(3) - t(1)) / 2.
    ref = alternate({
        "1 epoch": lambda: reference(Perceptron(max_iter=1)).fit(X, y),
        "3 epochs": lambda: reference(Perceptron(max_iter=3)).fit(X, y),
    }, max(1, repeats // 3))
    per_epoch = {k: (med(ref["3 epochs"][k]) - med(ref["1 epoch"][k])) / 2 for k in (0, 1)}
    ref_wall = med(ref["1 epoch"][0]) + (epochs - 1) * per_epoch[0]
    ref_cpu = med(ref["1 epoch"][1]) + (epochs - 1) * per_epoch[1]
    same_start = bool(np.array_equal(ref["3 epochs"][2].coef_,
                                     quiet(lambda: Perceptron(max_iter=3).fit(X, y)).coef_))
    return {"epochs": epochs, "updates": int(ours.n_updates_), "identical": identical,
            "ref_identical_3": same_start, "perclib": runs["perclib"][:2], "sklearn": runs["sklearn"][:2],
            "reference": (ref_wall, ref_cpu), "ref_repeats": max(1, repeats // 3)}


def averaged_comparison(X, y, repeats):
    runs = alternate({
        "perclib": lambda: AveragedPerceptron(max_iter=AVERAGED_EPOCHS).fit(X, y),
        "sklearn": lambda: SGDClassifier(loss="perceptron", penalty=None, learning_rate="constant", eta0=1.0,
                                         average=True, max_iter=AVERAGED_EPOCHS, tol=None,
                                         shuffle=False).fit(X, y),
    }, repeats)
    ref = alternate({"1 epoch": lambda: reference(AveragedPerceptron(max_iter=1)).fit(X, y)}, 1)
    acc = {name: float(runs[name][2].score(X, y)) for name in ("perclib", "sklearn")}
    return {"perclib": runs["perclib"][:2], "sklearn": runs["sklearn"][:2], "accuracy": acc,
            "reference": (AVERAGED_EPOCHS * med(ref["1 epoch"][0]), AVERAGED_EPOCHS * med(ref["1 epoch"][1]))}


def multiclass_comparison(repeats):
    X, y = load_digits()
    fast = quiet(lambda: MulticlassPerceptron(max_iter=1000).fit(X, y))
    epochs = fast.n_iter_
    runs = alternate({
        "perclib": lambda: MulticlassPerceptron(max_iter=1000).fit(X, y),
        "reference": lambda: reference(MulticlassPerceptron(max_iter=1000)).fit(X, y),
        "sklearn": lambda: SkPerceptron(shuffle=False, tol=None, max_iter=epochs).fit(X, y),
    }, max(1, repeats // 2))
    identical = bool(np.array_equal(runs["reference"][2].coef_, fast.coef_))
    return {"epochs": epochs, "converged": bool(fast.converged_), "updates": int(fast.n_updates_),
            "identical": identical, **{k: v[:2] for k, v in runs.items()}}


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
    return {"nbytes": X.nbytes,
            "float64": peak(lambda: Perceptron(max_iter=1000).fit(X, y)),
            "float64 shuffle": peak(lambda: Perceptron(max_iter=5, order="shuffle", random_state=0).fit(X, y)),
            "float32": peak(lambda: Perceptron(max_iter=2).fit(X32, y)),
            "averaged": peak(lambda: AveragedPerceptron(max_iter=2).fit(X, y)),
            "sklearn float64": peak(lambda: SkPerceptron(shuffle=False, tol=None, max_iter=2).fit(X, y))}


def nbval_suite():
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    cmd = [str(ROOT / ".venv" / "bin" / "python"), "-m", "pytest", "-q", "--nbval", "--nbval-current-env",
           "notebooks"]
    wall0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - wall0
    tail = (proc.stdout.strip().splitlines() or [""])[-1]
    return {"wall": wall, "returncode": proc.returncode, "summary": tail,
            "notebooks": [p.name for p in notebooks]}


def fmt_s(seconds):
    return f"{seconds * 1e3:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def verdict(ok):
    return "**met**" if ok else "**not met**"


def table(main, avg, mc, mem, nb, repeats, load):
    pw, pc = med(main["perclib"][0]), med(main["perclib"][1])
    sw, sc = med(main["sklearn"][0]), med(main["sklearn"][1])
    rw, rc = main["reference"]
    aw, ac = med(avg["perclib"][0]), med(avg["perclib"][1])
    gw, gc = med(avg["sklearn"][0]), med(avg["sklearn"][1])
    lines = [
        f"Measured {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} shared cores "
        f"(load average {load[0]:.1f} at the start, {load[1]:.1f} at the end), Python "
        f"{platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}, "
        "`OPENBLAS_NUM_THREADS=1`. Medians of alternated runs (wall clock; CPU time in brackets).",
        "",
        f"Main comparison: `Perceptron` on `make_separable({N:_}, {D}, margin={MARGIN}, random_state={SEED})` "
        f"(float64, {N * D * 8 / 1e6:.0f} MB), fit to convergence: {main['epochs']} epochs, "
        f"{main['updates']} updates. perclib's weights are bit-identical to scikit-learn's: "
        f"{'yes' if main['identical'] else 'NO'}.",
        "",
        "| Benchmark | perclib | Compared with | Their time | Ratio | Target | Met? |",
        "|---|---|---|---|---|---|---|",
        f"| Perceptron fit, {main['epochs']} epochs ({repeats} runs each) | {fmt_s(pw)} ({fmt_s(pc)}) | "
        f"scikit-learn `Perceptron(shuffle=False, tol=None, max_iter={main['epochs']})` | {fmt_s(sw)} ({fmt_s(sc)}) | "
        f"{pw / sw:.2f}x ({pc / sc:.2f}x) | <= 1.0x | {verdict(pw / sw <= 1.0)} |",
        f"| Perceptron fit, same | {fmt_s(pw)} ({fmt_s(pc)}) | reference per-sample loop, "
        f"**extrapolated** from 1 and 3 epochs on all rows ({main['ref_repeats']} runs each) | "
        f"{fmt_s(rw)} ({fmt_s(rc)}) | {rw / pw:.0f}x faster ({rc / pc:.0f}x) | >= 15x faster | "
        f"{verdict(rw / pw >= 15)} |",
        f"| AveragedPerceptron, {AVERAGED_EPOCHS} epochs ({repeats} runs each) | {fmt_s(aw)} ({fmt_s(ac)}) | "
        f"`SGDClassifier(loss='perceptron', average=True, shuffle=False, tol=None, max_iter={AVERAGED_EPOCHS})` | "
        f"{fmt_s(gw)} ({fmt_s(gc)}) | {aw / gw:.2f}x ({ac / gc:.2f}x) | <= 1.5x | {verdict(aw / gw <= 1.5)} |",
        f"| AveragedPerceptron, same | {fmt_s(aw)} ({fmt_s(ac)}) | reference loop, **extrapolated** "
        f"x{AVERAGED_EPOCHS} from 1 epoch | {fmt_s(avg['reference'][0])} ({fmt_s(avg['reference'][1])}) | "
        f"{avg['reference'][0] / aw:.0f}x faster | - | - |",
        f"| MulticlassPerceptron on digits (1797 x 64, 10 classes), {mc['epochs']} epochs to convergence | "
        f"{fmt_s(med(mc['perclib'][0]))} ({fmt_s(med(mc['perclib'][1]))}) | reference loop (bit-identical: "
        f"{'yes' if mc['identical'] else 'NO'}) | {fmt_s(med(mc['reference'][0]))} "
        f"({fmt_s(med(mc['reference'][1]))}) | {med(mc['reference'][0]) / med(mc['perclib'][0]):.1f}x faster | - | - |",
        f"| MulticlassPerceptron on digits, same | {fmt_s(med(mc['perclib'][0]))} | scikit-learn `Perceptron` "
        f"one-vs-rest, same epochs (a different model, for scale) | {fmt_s(med(mc['sklearn'][0]))} | "
        f"{med(mc['perclib'][0]) / med(mc['sklearn'][0]):.2f}x | - | - |",
    ]
    mb = mem["nbytes"]
    lines.append(
        f"| Peak memory during fit (tracemalloc), X float64 C-contiguous | {mem['float64'] / mb:.3f} x X.nbytes "
        f"(shuffle: {mem['float64 shuffle'] / mb:.3f}; averaged: {mem['averaged'] / mb:.3f}) | scikit-learn | "
        f"{mem['sklearn float64'] / mb:.3f} x X.nbytes | - | no copy of X (< 1x) | "
        f"{verdict(max(mem['float64'], mem['float64 shuffle'], mem['averaged']) < mb)} |")
    lines.append(
        f"| Peak memory, X float32 (one float64 conversion expected) | {mem['float32'] / mb:.3f} x float64 X.nbytes "
        f"| - | - | - | one conversion (< 2x) | {verdict(mem['float32'] < 2 * mb)} |")
    if nb is not None:
        lines.append(
            f"| nbval suite (`pytest --nbval --nbval-current-env notebooks`, {len(nb['notebooks'])} notebooks: "
            f"{nb['summary']}) | {fmt_s(nb['wall'])} | - | - | - | <= 120 s | {verdict(nb['wall'] <= 120)} |")
    lines += ["", "Notebooks timed: " + (", ".join(nb["notebooks"]) if nb else "not run (--no-nbval)") + "."]
    return "\n".join(lines) + "\n"


def write(text):
    (ROOT / "benchmarks" / "results.md").write_text("# Benchmark results (`make bench`)\n\n" + text)
    readme = ROOT / "README.md"
    body = readme.read_text()
    pattern = re.compile(r"(<!-- bench:start -->\n).*?(<!-- bench:end -->)", re.S)
    if not pattern.search(body):
        raise SystemExit("README.md has no <!-- bench:start --> ... <!-- bench:end --> markers")
    readme.write_text(pattern.sub(lambda m: m.group(1) + text + m.group(2), body))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--quick", action="store_true", help="3 repeats and no nbval")
    parser.add_argument("--no-nbval", action="store_true")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    args = parser.parse_args(argv)
    repeats = 3 if args.quick else args.repeats
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    X, y = make_separable(N, D, margin=MARGIN, random_state=SEED)
    print(f"data: {X.shape} in {time.perf_counter() - t0:.1f} s", flush=True)
    main_ = main_comparison(X, y, repeats)
    print("main comparison done", flush=True)
    avg = averaged_comparison(X, y, repeats)
    print("averaged done", flush=True)
    mc = multiclass_comparison(repeats)
    print("multiclass done", flush=True)
    mem = peak_memory(X, y)
    nb = None if (args.quick or args.no_nbval) else nbval_suite()
    text = table(main_, avg, mc, mem, nb, repeats, (load0, os.getloadavg()[0]))
    print(text)
    if not args.no_write:
        write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
