"""The tests' warm kernels (tools/warm_kernel.py): a student's cold kernels, started faster.

../conftest.py starts two servers per test process and installs the "python3" spec that nbval and
nbgrader use. Each test here starts kernels through that spec, as they do, and asks them what a
notebook could see.
"""

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

jupyter_client = pytest.importorskip("jupyter_client")

ROOT = pathlib.Path(__file__).resolve().parents[1]
# What a notebook could see of its process, printed as one JSON line. It imports perclib first,
# as every course notebook does (scikit-learn sets two KMP_ variables when it is imported: a warm
# kernel has them from the start).
PROBE = r"""
import perclib
import json, os, sys, random
import matplotlib
import numpy as np
print(json.dumps({
    "parent": open(f"/proc/{os.getppid()}/cmdline").read().split("\0"),
    "pid": os.getpid(),
    "argv": sys.argv[1:2],
    "path": sys.path,
    "cwd": os.getcwd(),
    "env": {k: v for k, v in os.environ.items() if not k.startswith("JPY_")},
    "backend": matplotlib.get_backend(),
    "main": sys.modules["__main__"].__name__,
    "executable": sys.executable,
    "flags": list(sys.flags),
    "hash": hash("perclib"),
    "np_random": float(np.random.random()),
    "random": random.random(),
}))
"""


def _run(code, env=None, cwd=None, until=None):
    """Start a "python3" kernel, run ``code``, return (its stdout, the kernel manager) after
    shutting it down; ``until(km)`` is called while the kernel still runs, if given."""
    km = jupyter_client.KernelManager(kernel_name="python3")
    km.start_kernel(env=dict(os.environ if env is None else env), cwd=str(cwd or ROOT))
    kc = km.client()
    kc.start_channels()
    out = []
    try:
        kc.wait_for_ready(timeout=60)

        def hook(msg):
            if msg["msg_type"] == "stream":
                out.append(msg["content"]["text"])
            elif msg["msg_type"] == "error":
                out.append(f"ERROR {msg['content']['ename']}")

        if until is None:
            kc.execute_interactive(code, output_hook=hook, timeout=60)
        else:
            kc.execute(code)
            until(km, kc, hook)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    return "".join(out)


def _probe(env=None, cwd=None):
    return json.loads(_run(PROBE, env=env, cwd=cwd).strip().splitlines()[-1])


def _warm(seen):
    return (
        any(arg.endswith("warm_kernel.py") for arg in seen["parent"]) and "serve" in seen["parent"]
    )


@pytest.fixture(scope="module")
def probes(tmp_path_factory):
    """Three warm kernels one after the other, then a cold one (the same environment but for one
    variable: the launcher starts it cold), all in a new folder with a PYTHONPATH the servers did
    not start with: one folder twice (Python keeps it once)."""
    tmp = tmp_path_factory.mktemp("probe")
    extra = tmp / "extra"
    extra.mkdir()
    paths = [str(extra), str(extra), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    warm = [_probe(env=env, cwd=tmp) for _ in range(3)]
    cold = _probe(env={**env, "PERCLIB_PROBE": "1"}, cwd=tmp)
    return {"warm": warm, "cold": cold, "tmp": tmp, "extra": extra}


def test_a_warm_kernel_sees_what_a_cold_kernel_sees(probes):
    warm, cold = probes["warm"][0], dict(probes["cold"])
    assert _warm(warm), f"not started warm (parent {warm['parent']})"
    assert not _warm(cold), f"started warm (parent {cold['parent']})"
    cold["env"] = {k: v for k, v in cold["env"].items() if k != "PERCLIB_PROBE"}
    assert probes["cold"]["env"]["PERCLIB_PROBE"] == "1"
    for key in ("argv", "path", "cwd", "env", "backend", "main", "executable", "flags"):
        assert warm[key] == cold[key], key
    # ipykernel's default when MPLBACKEND is not set (CI sets it to Agg: then both say agg).
    inline = "module://matplotlib_inline.backend_inline"
    assert warm["backend"].lower() == (os.environ.get("MPLBACKEND") or inline).lower()
    assert warm["cwd"] == str(probes["tmp"])
    assert warm["path"].count(str(probes["extra"])) == 1


def test_kernels_one_after_the_other_differ_as_cold_ones_do(probes):
    """Fresh random generators and, from the two servers taken in turn, fresh string hashes: a
    submission graded twice is run by two different interpreters."""
    a, b, c = probes["warm"]
    assert _warm(a) and _warm(b) and _warm(c)
    assert a["parent"] == c["parent"] != b["parent"]  # servers in turn (their sockets differ)
    assert len({a["pid"], b["pid"], c["pid"]}) == 3
    assert a["hash"] != b["hash"]  # two interpreters (equal with probability 2**-64)
    # a and c are forks of one interpreter (the same hash): only reseeding sets them apart.
    assert a["hash"] == c["hash"]
    assert a["np_random"] != c["np_random"]
    assert a["random"] != c["random"]


def test_an_interrupt_reaches_the_kernel_and_killing_the_launcher_kills_it():
    seen, pids = [], []

    def until(km, kc, hook):
        while not pids:
            msg = kc.get_iopub_msg(timeout=60)
            if msg["msg_type"] == "stream":
                pids.append(int(msg["content"]["text"].split()[0]))
        km.interrupt_kernel()  # SIGINT to the launcher, which passes it on
        while not seen:
            msg = kc.get_iopub_msg(timeout=60)
            if msg["msg_type"] == "error":
                seen.append(msg["content"]["ename"])
        kc.execute("time.sleep(120)")
        time.sleep(0.2)
        os.kill(km.provisioner.pid, signal.SIGKILL)  # the launcher cannot pass this one on

    _run("import os, time\nprint(os.getpid(), flush=True)\ntime.sleep(120)", until=until)
    assert seen == ["KeyboardInterrupt"]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _alive(pids[0]):
        time.sleep(0.05)
    assert not _alive(pids[0]), "the warm kernel outlived its launcher"


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_preloading_leaves_matplotlib_inline_to_the_kernel():
    """Importing matplotlib_inline wires it into the running IPython: a server that preloaded it
    would hand out kernels without that set-up."""
    code = (
        "import importlib, sys\n"
        "for name in sys.argv[1:]: importlib.import_module(name)\n"
        "print('matplotlib' in sys.modules, 'matplotlib_inline' in sys.modules)\n"
    )
    cmd = [sys.executable, "-c", code, *_load_warm_kernel().PRELOAD]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]


def test_the_backend_is_a_cold_kernels_with_and_without_mplbackend(tmp_path):
    """matplotlib is preloaded before the kernel sets MPLBACKEND: with the variable unset (a
    student's machine) and set (CI sets Agg), a warm kernel has a cold kernel's backend. The first
    test covers this session's case; a server of its own covers the other one. Its cold control
    finds no server."""
    env = dict(os.environ)
    if env.pop("MPLBACKEND", None) is None:
        env["MPLBACKEND"] = "Agg"
    env["PERCLIB_WARM_KERNELS"] = sock = str(tmp_path / "s.sock")
    warm_kernel = _load_warm_kernel()
    (server,) = warm_kernel.start([sock], env=env)
    try:
        warm = _probe(env=env)
        # The cold control: a launcher that finds no server starts the kernel itself.
        cold = _probe(env={**env, "PERCLIB_WARM_KERNELS": str(tmp_path / "no-such.sock")})
    finally:
        os.kill(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    assert _warm(warm) and not _warm(cold)
    assert cold["executable"] == warm["executable"] == sys.executable
    expected = env.get("MPLBACKEND") or "module://matplotlib_inline.backend_inline"
    assert warm["backend"].lower() == cold["backend"].lower() == expected.lower()


def _load_warm_kernel():
    import importlib.util

    spec = importlib.util.spec_from_file_location("warm_kernel", ROOT / "tools" / "warm_kernel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
