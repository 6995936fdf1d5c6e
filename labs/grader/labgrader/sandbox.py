"""The grader's side of the channel to a sandboxed worker (``worker.py``).

:class:`Worker` starts ``python worker.py`` inside bubblewrap (``bwrap``): no network (every
namespace unshared), a read-only view of the Python installation, perclib and the worker's file and
nothing else of the machine (not the course, the grader, other submissions, the gradebook or the
instructor's home), a private ``/tmp`` and home, and a copy of the submission's folder as the
working folder, deleted afterwards. Resource limits (``setrlimit`` before ``bwrap`` starts, kept
by everything it runs): CPU seconds, address space, file size, processes. The grader also keeps a
wall-clock deadline on every reply and kills the sandbox's whole process group when it passes.

Without bubblewrap (not Linux, or not installed) :func:`sandbox_command` raises
:class:`SandboxUnavailable`; ``LABS_SANDBOX=none`` runs the worker unsandboxed with the same limits,
for a lab author's own machine only: then the student's code can read what the grader can.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from . import worker as codec

WORKER = pathlib.Path(codec.__file__).resolve()
MAX_MESSAGE = 64 * 2**20  # bytes of one reply: a larger one is the student's code flooding
INSTALL_HINT = "as root: apt-get install -y bubblewrap (make test and make grade fetch it)"


class SandboxUnavailable(RuntimeError):
    pass


class WorkerDied(RuntimeError):
    """The worker stopped answering: killed by a limit, crashed, or past its deadline."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason  # "timeout" or "crashed"


def _python_roots():
    roots = {pathlib.Path(sys.prefix).resolve(), pathlib.Path(sys.base_prefix).resolve()}
    exe = pathlib.Path(sys.executable)
    roots.add(exe.parent.parent)
    roots.add(exe.resolve().parent.parent)
    return sorted(roots)


def _perclib_dir():
    import importlib.util

    spec = importlib.util.find_spec("perclib")
    if spec is None or spec.origin is None:
        raise SandboxUnavailable("perclib cannot be imported by the grader")
    return pathlib.Path(spec.origin).resolve().parent


def bwrap():
    """The system's bwrap, else the copy `make` unpacked into the venv (no root needed)."""
    beside = os.path.join(os.path.dirname(sys.executable), "bwrap")
    for tool in (shutil.which("bwrap"), "/usr/bin/bwrap", beside):
        if tool and os.access(tool, os.X_OK):
            return tool
    return None


# What a lab's cells import: compiled once by the grader into a bytecode cache that every sandbox
# reads (read-only). Python compiles a module's source on every import when no bytecode is stored
# next to it (a read-only or bytecode-free installation); the cache spares each worker that.
WARM_IMPORTS = ("numpy", "perclib", "perclib.datasets", "perclib.theory", "perclib.plotting",
                "perclib.widgets", "matplotlib.pyplot", "sklearn.linear_model")  # fmt: skip


def bytecode_cache():
    """The folder of compiled bytecode for the sandboxes (``LABS_PYCACHE``, else the user's cache
    folder), filled by the grader's own Python on first use: trusted code, before any submission
    runs. A sandbox only reads it, so a submission cannot plant code there for the next one.

    The compiled files are stored under the paths of their sources, so each Python environment
    (``sys.prefix``) and perclib checkout has a folder of its own: a cache filled for another
    environment would hold nothing this one imports. A venv made again at the same path (its
    ``pyvenv.cfg`` is new) gets a new folder too: its files are new, the old compiled ones stale.
    The folder counts as filled once the filling process has exited normally."""
    made = pathlib.Path(sys.prefix, "pyvenv.cfg")
    made = made.stat().st_mtime_ns if made.exists() else 0
    where = f"{sys.prefix}\0{made}\0{_perclib_dir()}".encode()
    folder = pathlib.Path(
        os.environ.get("LABS_PYCACHE")
        or pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"))
        / "perclib-labs"
        / f"pycache-{sys.implementation.cache_tag}-{hashlib.sha256(where).hexdigest()[:12]}"
    )  # fmt: skip
    stamp = folder / "warm.txt"
    if not stamp.exists():
        folder.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "PYTHONPYCACHEPREFIX": str(folder), "MPLBACKEND": "Agg"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPATH"] = str(_perclib_dir().parent)
        # a module that cannot be imported here is compiled in the sandbox, as without a cache
        code = "".join(f"try:\n import {name}\nexcept Exception:\n pass\n" for name in WARM_IMPORTS)
        done = subprocess.run([sys.executable, "-c", code], env=env, check=False,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        if done.returncode == 0:  # not killed half-way: else the next call fills it again
            stamp.write_text(" ".join(WARM_IMPORTS) + "\n")
    return folder


def sandbox_command(workdir):
    """The command that runs the worker in a sandbox whose working folder is ``workdir``."""
    env = {
        "HOME": "/home/student",
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(_perclib_dir().parent),
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPYCACHEPREFIX": "/opt/pycache",
        "MPLBACKEND": "Agg",
        "MPLCONFIGDIR": "/tmp/matplotlib",
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "LANG": "C.UTF-8",
    }
    python = [sys.executable, "-s", "/opt/worker/worker.py"]
    if os.environ.get("LABS_SANDBOX") == "none":
        env["PYTHONPATH"] = str(_perclib_dir().parent)
        env["PYTHONPYCACHEPREFIX"] = str(bytecode_cache())
        return [sys.executable, "-s", str(WORKER)], env, str(workdir)
    tool = bwrap()
    if not tool:
        raise SandboxUnavailable(
            f"bubblewrap (bwrap) is needed to grade: {INSTALL_HINT} (a Linux grading host)"
        )
    cmd = [tool, "--unshare-all", "--die-with-parent", "--new-session", "--clearenv"]
    # The fresh folders first: a later mount hides what an earlier one put below it, and the
    # Python environment or the course may live under /tmp (a clone there, say).
    cmd += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/home/student"]
    for top in ("/usr",):
        cmd += ["--ro-bind", top, top]
    for link in ("bin", "lib", "lib32", "lib64", "sbin"):
        target = pathlib.Path("/") / link
        if target.is_symlink():
            cmd += ["--symlink", os.readlink(target), str(target)]
        elif target.is_dir():
            cmd += ["--ro-bind", str(target), str(target)]
    for etc in ("/etc/ld.so.cache", "/etc/localtime", "/etc/fonts"):
        if os.path.exists(etc):
            cmd += ["--ro-bind", etc, etc]
    for root in _python_roots():
        if not str(root).startswith("/usr/"):
            cmd += ["--ro-bind", str(root), str(root)]
    cmd += [
        "--ro-bind", str(_perclib_dir()), str(_perclib_dir()),  # the folder above it: not bound
        "--ro-bind", str(WORKER), "/opt/worker/worker.py",
        "--ro-bind", str(bytecode_cache()), "/opt/pycache",
        "--bind", str(workdir), "/home/student/lab",
        "--chdir", "/home/student/lab",
    ]  # fmt: skip
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    return cmd + python, None, None


def _limits(cpu_seconds, memory_bytes, file_bytes):
    def apply():
        import resource

        os.setsid()
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


class Worker:
    """One sandboxed worker for one submission: ``load`` its cells, then ``call`` its functions."""

    def __init__(self, folder, *, cpu_seconds=60, memory=3 * 2**30, file_bytes=16 * 2**20):
        self.tmp = tempfile.mkdtemp(prefix="labgrade-")
        work = pathlib.Path(self.tmp) / "lab"
        shutil.copytree(folder, work, ignore=shutil.ignore_patterns("*.ipynb", ".*"))
        cmd, env, cwd = sandbox_command(work)
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env if env is not None else {},
            cwd=cwd,
            preexec_fn=_limits(cpu_seconds, memory, file_bytes),
        )
        self.buffer = b""
        self.dead = None
        self.cpu = None  # the worker's own CPU seconds, as it reports them at the end

    def send(self, message):
        try:
            self.proc.stdin.write((json.dumps(message) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self._died("crashed")

    def send_quietly(self, message):
        try:
            self.proc.stdin.write((json.dumps(message) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def receive(self, deadline):
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self._died("timeout")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                self._died(self._exit_reason())
            self.buffer += chunk
            if len(self.buffer) > MAX_MESSAGE:
                self._died("crashed")
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            return {"op": "garbled"}
        return message

    def _exit_reason(self):
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return "crashed"
        # bwrap reports its child's death by a signal as 128 + signal; SIGXCPU/SIGKILL: a limit.
        return "timeout" if code in (-signal.SIGXCPU, -signal.SIGKILL, 128 + signal.SIGXCPU,
                                     128 + signal.SIGKILL) else "crashed"  # fmt: skip

    def _died(self, reason):
        self.dead = reason
        self.close()
        raise WorkerDied(reason)

    def load(self, cells, timeout, cpu=None):
        self.send({"op": "load", "cells": cells, "cpu": cpu})
        reply = self.receive(time.monotonic() + timeout)
        return reply.get("failed", []) if reply.get("op") == "loaded" else []

    def call(self, fn, args, kwargs, *, deps=None, allow=(), count_rows=None, cpu=None,
             timeout=120.0):  # fmt: skip
        """Call the student's ``fn``; return ("return", value, changes) or ("raise", kind, type).

        ``cpu``: the call's CPU seconds (the worker's limit, the verdict); ``timeout``: wall-clock
        seconds, a backstop for code that waits without computing (``time.sleep``).

        ``deps`` maps names to the grader's own functions: while this call runs, the student's
        code finds at those names functions that ask the grader, which computes the answer here.
        """
        deps = deps or {}
        self.send(
            {
                "op": "call",
                "fn": fn,
                "args": codec.encode(list(args)),
                "kwargs": codec.encode(dict(kwargs)),
                "deps": sorted(deps),
                "allow": list(allow),
                "count_rows": count_rows,
                "cpu": cpu,
            }
        )
        deadline = time.monotonic() + timeout
        while True:
            reply = self.receive(deadline)
            op = reply.get("op")
            if op == "callback":
                ref = deps.get(reply.get("name"))
                try:
                    value = ref(
                        *codec.decode(reply.get("args")), **codec.decode(reply.get("kwargs"))
                    )
                    self.send({"op": "value", "value": codec.encode(value)})
                except Exception:
                    self.send({"op": "refused"})
                continue
            if op == "return":
                changes = reply.get("changes", 0)
                return (
                    "return",
                    codec.decode(reply.get("value")),
                    (changes if type(changes) is int else 0),
                )
            if op == "raise":
                return "raise", str(reply.get("kind")), str(reply.get("type", ""))
            return "raise", "garbled", ""

    def close(self):
        if self.dead is None and self.proc.poll() is None:
            self.send_quietly({"op": "quit"})
            try:
                bye = self.receive(time.monotonic() + 5)
                self.cpu = float(bye.get("cpu", 0.0)) if bye.get("op") == "bye" else None
                self.proc.wait(timeout=2)
            except (WorkerDied, subprocess.TimeoutExpired, TypeError, ValueError):
                pass
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
