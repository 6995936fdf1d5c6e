"""Warm Jupyter kernels for the tests: the imports every kernel makes, done once per test process.

Each kernel that nbval or nbgrader starts is a new Python process that spends most of its first
second importing the same modules (ipykernel, numpy, scipy, scikit-learn, matplotlib, perclib);
``make test``
starts about 80. Here a server imports them once and forks a kernel for each request: the fork
starts with those modules loaded and nothing else done (no code of a notebook has run in it).

- ``serve SOCKET``: import :data:`PRELOAD` and fill the caches of a kernel's first lines
  (:func:`_warm_up`), then listen on the Unix socket ``SOCKET``. For each request, fork: the child
  takes the launcher's stdin, stdout and stderr, working folder, environment and arguments,
  reseeds numpy's global generator, and runs ipykernel's app as ``python -m ipykernel_launcher``
  does. ``serve SOCKET MODULE ...`` imports the MODULEs only, for ``run``.
- ``launch ARGS``: what the kernel spec runs (:func:`install`). It sends its request to one of the
  servers named by ``$PERCLIB_WARM_KERNELS`` (taken in turn: two kernels that one process starts
  one after the other come from two interpreters, with different string hash seeds, as two cold
  kernels would), forwards the signals it gets (an interrupt, a terminate) to the kernel and exits
  with the kernel's exit code. When it is killed, the server kills the kernel.

A warm kernel is only used when it cannot differ from a cold one: the launcher's environment must
equal the server's, except for the variables in :data:`PER_KERNEL` (set per kernel by
jupyter_client, or read only after start-up), and a new ``PYTHONPATH`` entry must not hold a module
of the same name as a preloaded one. Otherwise, or when there is no server, the launcher runs
``python -m ipykernel_launcher ARGS`` itself (a cold kernel), so the spec always works.
tests/test_warm_kernel.py compares what a notebook sees in a warm and a cold kernel.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import socket
import struct
import sys

SOCKET_ENV = "PERCLIB_WARM_KERNELS"
# The servers of `run MODULE` (a command such as `python -m nbgrader`), with MODULE preloaded.
RUN_ENV = "PERCLIB_WARM_RUN"
# The modules a course kernel imports on its first lines. Some read the environment when they are
# imported (perclib reads PERCLIB_ACCEL, matplotlib MPLBACKEND and MPLCONFIGDIR): the environment
# check below makes that safe. The one variable the kernel itself sets, after the fork, is
# MPLBACKEND (ipykernel's inline backend when it is not set): `_child` gives matplotlib what it
# would have read. Never matplotlib_inline: importing it wires it into a running IPython.
PRELOAD = (
    "ipykernel.kernelapp",
    "numpy",
    "scipy.sparse",
    "scipy.stats",
    "sklearn.base",
    "sklearn.utils",
    "matplotlib",
    "matplotlib.pyplot",
    "ipywidgets",
    "perclib",
    # perclib's other modules, which the notebooks import, and the lab grader (labs/grader) imports
    # all of them to block its algorithms while a student's function is graded; scikit-learn's
    # linear models, which the notebooks compare with and the grader blocks too; numba, which
    # the first fit imports (perclib._accel) when it is installed.
    "perclib.widgets",
    "perclib.plotting",
    "perclib.exercises",
    "perclib.experiments",
    "perclib.evaluation",
    "perclib.theory",
    "perclib.sparse",
    "perclib.exercise_bank",
    "perclib.exercise_bank_0507",
    "perclib._kernel",
    "sklearn.linear_model",
    "numba",
    # What ipykernel, IPython and matplotlib import on first use, in every kernel: the debugger
    # (debugpy), the traceback formatter (a failed test of a graded lab), the contour plots, and
    # scikit-learn's bundled datasets (the notebooks' real data).
    "ipykernel.debugger",
    "stack_data",
    "contourpy",
    "sklearn.datasets",
)
INLINE = "module://matplotlib_inline.backend_inline"  # ipykernel's default MPLBACKEND
# Variables that may differ between the server and a kernel: jupyter_client sets the JPY_ ones
# per kernel; the paths are read when the kernel starts, after the fork (PYTHONPATH is applied to
# sys.path below); the rest is bookkeeping of shells and pytest, read at run time if at all.
PER_KERNEL = frozenset(
    {
        "JPY_PARENT_PID",
        "JPY_SESSION_NAME",
        "PYDEVD_DISABLE_FILE_VALIDATION",
        "PATH",
        "PYTHONPATH",
        "JUPYTER_CONFIG_DIR",
        "JUPYTER_DATA_DIR",
        "JUPYTER_RUNTIME_DIR",
        "PWD",
        "OLDPWD",
        "SHLVL",
        "_",
        "PYTEST_CURRENT_TEST",
        "PYTEST_XDIST_WORKER",  # pytest-xdist's worker: the servers are shared by all workers
        "PYTEST_XDIST_WORKER_COUNT",
        "PYTEST_XDIST_TESTRUNUID",
        "PERCLIB_WARM_LOGS",
        "PERCLIB_WARM_SERVERS",
        "NBGRADER_EXECUTION",  # set by nbgrader's autograde, for the notebook to read
        "COLUMNS",  # the terminal's size, set by some test runners: read when printing
        "LINES",
        SOCKET_ENV,
        RUN_ENV,
    }
)
_HEADER = struct.Struct("!I")


def install(data_dir, name="python3"):
    """Write the kernel spec ``name`` into ``data_dir/kernels``: this Python, through the launcher.

    It stands in for ipykernel's own ``python3`` spec (a spec in the data folder comes first).
    """
    folder = os.path.join(data_dir, "kernels", name)
    os.makedirs(folder, exist_ok=True)
    spec = {
        "argv": [sys.executable, os.path.abspath(__file__), "launch", "-f", "{connection_file}"],
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
        "metadata": {"debugger": True},
    }
    with open(os.path.join(folder, "kernel.json"), "w") as f:
        json.dump(spec, f, indent=1)
    return folder


def start(socket_paths, env=None, preload=()):
    """Start one server per socket, in the background; return their Popens. Stop them by PID.

    Give ``$PERCLIB_WARM_KERNELS`` the paths joined by ``os.pathsep``: the launchers take the
    servers in turn (:func:`_next_server`), so two kernels that one process starts one after the
    other (a submission graded twice) come from two interpreters, with different string hash
    seeds, as two cold kernels would.
    """
    import subprocess
    import time

    servers = [
        subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "serve", path, *preload],
            env=env,
            stdin=subprocess.DEVNULL,
        )
        for path in socket_paths
    ]
    # A server listens before it imports anything (launchers wait for it from then on): a
    # fraction of a second.
    deadline = time.monotonic() + 30
    while not all(map(os.path.exists, socket_paths)) and time.monotonic() < deadline:
        time.sleep(0.01)
    return servers


# --- the launcher --------------------------------------------------------------------------------


KERNEL = "ipykernel_launcher"


def _cold(module, args):
    os.execv(sys.executable, [sys.executable, "-m", module, *args])


def _recv_exactly(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _next_server(paths):
    """The servers' sockets in turn, for each process that starts kernels (jupyter_client gives
    the kernel its pid, JPY_PARENT_PID): a counter in a file beside the first, under a lock. Two
    kernels that one process starts one after the other come from two servers, whatever other
    processes start in between."""
    import fcntl

    with open(f"{paths[0]}.next-{os.environ.get('JPY_PARENT_PID', '')}", "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        turn = int(f.read() or 0)
        f.seek(0)
        f.truncate()
        f.write(str(turn + 1))
    return paths[turn % len(paths)]


def launch(args, module=KERNEL, variable=SOCKET_ENV):
    """Run ``python -m module args`` as a fork of a server named by ``$variable``, or cold."""
    paths = [p for p in os.environ.get(variable, "").split(os.pathsep) if p]
    if not paths or not all(map(os.path.exists, paths)):  # no servers (a stale variable, say)
        _cold(module, args)
    path = _next_server(paths)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError:
        conn.close()
        _cold(module, args)
    request = {"module": module, "argv": args, "cwd": os.getcwd(), "env": dict(os.environ)}
    body = json.dumps(request).encode()
    socket.send_fds(conn, [_HEADER.pack(len(body)) + body], [0, 1, 2])
    replies = conn.makefile("r")
    reply = replies.readline().split()
    if not reply or reply[0] != "warm":
        conn.close()
        _cold(module, args)

    def forward(signum, frame):
        conn.sendall(f"signal {signum}\n".encode())

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(signum, forward)
    status = replies.readline().split()
    sys.exit(int(status[1]) if len(status) == 2 and status[0] == "exit" else 1)


# --- the server ----------------------------------------------------------------------------------


_PRELOADED = set()  # the top-level names of the modules this server imported


def _why_cold(env, base_env, imported_env):
    """Why a kernel with environment ``env`` must start cold, or None.

    A variable that the preloaded modules set (``imported_env``) may also be in ``env`` with the
    same value: the process that starts the kernel has imported them too.
    """
    keys = (set(env) | set(base_env)) - PER_KERNEL
    keys -= {k for k, v in imported_env.items() if env.get(k, v) == v}
    differ = sorted(k for k in keys if env.get(k) != base_env.get(k))
    if differ:
        return "environment differs: " + ",".join(differ)
    old = set(filter(None, base_env.get("PYTHONPATH", "").split(os.pathsep)))
    for entry in filter(None, env.get("PYTHONPATH", "").split(os.pathsep)):
        if entry in old or not os.path.isdir(entry):
            continue
        names = {n.split(".")[0] for n in os.listdir(entry)}
        if names & _PRELOADED:
            return f"PYTHONPATH entry {entry} holds a preloaded module"
    return None


def _kernel_sys_path(env, base_env, base_path):
    """sys.path of ``python -m ipykernel_launcher`` in ``env``: its PYTHONPATH, then the site paths
    (the launcher takes the working folder off; IPython puts '' back when the kernel starts)."""
    old = [os.path.abspath(p) for p in base_env.get("PYTHONPATH", "").split(os.pathsep) if p]
    new = [os.path.abspath(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    path, seen = [], set()
    for entry in new + [p for p in base_path if os.path.abspath(p) not in old]:
        key = os.path.normcase(os.path.abspath(entry))
        if key not in seen:  # as site.removeduppaths() does at start-up
            seen.add(key)
            path.append(entry)
    return path


def _child(request, fds, base_env, base_path, imported_env):
    code = 1
    try:
        os.setpgid(0, 0)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        os.environ.update(imported_env)
        sys.path[:] = _kernel_sys_path(request["env"], base_env, base_path)
        sys.argv = [sys.argv[0], *request["argv"]]
        module = request.get("module", KERNEL)
        # A cold kernel seeds numpy's global generator from the OS when it imports numpy; a fork
        # would share the server's state with every other kernel. (random reseeds itself in a
        # forked child: os.register_at_fork.)
        if "numpy" in sys.modules:
            sys.modules["numpy"].random.seed()
        if module == KERNEL:
            mpl = sys.modules.get("matplotlib")
            if mpl is not None and not os.environ.get("MPLBACKEND"):
                # A cold kernel sets MPLBACKEND to the inline backend when it starts, and
                # matplotlib, imported later, reads it: the same assignment as matplotlib's own.
                mpl.rcParams["backend"] = INLINE
            from ipykernel import kernelapp

            # The one default ipykernel reads from the environment when it is imported (in the
            # server): the kernel manager's pid, which a cold kernel gets (it then prints no
            # start-up banner).
            parent = int(os.environ.get("JPY_PARENT_PID") or 0)
            kernelapp.IPKernelApp.launch_instance(parent_handle=parent)
        else:
            import runpy

            sys.path.insert(0, os.getcwd())  # as `python -m module` puts it first
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _warm_up():
    """Fill the caches that every course kernel fills on its first lines, once, before any fork.

    - numba's: perclib's compiled loops, loaded from numba's cache (a kernel's first fit otherwise
      spends a fifth of a second loading numba's compiler state and the loops). With the
      accelerator off (PERCLIB_ACCEL=0) the fits run on numpy, as they would in the kernel.
    - matplotlib's mathtext grammar, built the first time a label holds math ($x_1$): the parser
      is cached globally, and its result depends only on the string parsed.
    - inspect's map from module files to modules, which IPython builds for the first traceback a
      kernel shows (a failed test of a graded lab), from every module loaded: a second or so of
      file-system calls. A module imported later is added to it when it is next used.

    None changes what a notebook computes or sees (tests/test_warm_kernel.py).
    """
    import inspect

    kernel = sys.modules.get("perclib._kernel")
    if kernel is not None:
        kernel.warm()
    if "matplotlib" in sys.modules:
        from matplotlib.mathtext import MathTextParser

        MathTextParser("path").parse("$w_1 x_1 + b$")
    inspect.getmodule(None, "<warm-up>")  # no such file: the map is built, then None returned


def serve(socket_path, preload=PRELOAD, warm_up=True):
    global _LOG
    _LOG = socket_path + ".log"
    script_dir = os.path.dirname(os.path.abspath(__file__))
    base_path = [p for p in sys.path if os.path.abspath(p or ".") != script_dir]
    parent = os.getppid()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    if os.path.exists(socket_path):
        os.unlink(socket_path)
    listener.bind(socket_path)
    listener.listen(64)  # launchers may connect now; they wait while the modules are imported
    import importlib

    # debugpy (ipykernel.debugger) warns on import that frozen modules may hide breakpoints;
    # ipykernel's own kernel spec sets this variable to silence it, and a kernel reads it only
    # then, on import: here, in the server. (A kernel's environment is its launcher's.)
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    base_env = dict(os.environ)
    for name in preload:
        try:
            importlib.import_module(name)
        except ImportError:
            continue
        _PRELOADED.add(name.split(".")[0])
    if warm_up:
        _warm_up()
    if "matplotlib_inline" in sys.modules:
        raise RuntimeError("matplotlib_inline was preloaded: kernels would miss its set-up")
    # What the imports wrote into os.environ (scikit-learn sets two KMP_ variables): a cold kernel
    # gets the same when it imports them.
    imported_env = {k: v for k, v in os.environ.items() if base_env.get(k) != v}
    # What the server holds now lives as long as a kernel does, as a cold kernel's own imports
    # would. Frozen, the cyclic garbage collector no longer walks it in each kernel: a full
    # collection (a few in each notebook) takes a tenth of a second less, and leaves those pages
    # shared with the server instead of copying them.
    import gc

    gc.collect()
    gc.freeze()
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    kernels = {}  # connection -> pid of its kernel
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    try:
        while os.getppid() == parent:
            for key, _ in selector.select(timeout=0.1):
                if key.fileobj is listener:
                    conn, _ = listener.accept()
                    pid = _handle(conn, listener, kernels, base_env, base_path, imported_env)
                    if pid:
                        kernels[conn] = pid
                        selector.register(conn, selectors.EVENT_READ)
                    else:
                        conn.close()
                else:
                    _control(key.fileobj, kernels, selector)
            _reap(kernels, selector)
    finally:
        for pid in kernels.values():
            _kill(pid, signal.SIGKILL)
        listener.close()
        if os.path.exists(socket_path):
            os.unlink(socket_path)


def _handle(conn, listener, kernels, base_env, base_path, imported_env):
    """Read one launch request; fork its kernel, return its pid (None: the launcher goes cold)."""
    head, fds, _, _ = socket.recv_fds(conn, _HEADER.size, 3)
    try:
        rest = _recv_exactly(conn, _HEADER.size - len(head)) if len(head) < _HEADER.size else b""
        body = _recv_exactly(conn, _HEADER.unpack(head + rest)[0])
        request = json.loads(body)
        reason = _why_cold(request["env"], base_env, imported_env) if len(fds) == 3 else "no stdio"
    except (TypeError, ValueError, struct.error):
        reason = "bad request"
    _log(f"cold {reason}" if reason else "warm")
    if reason:
        for fd in fds:
            os.close(fd)
        conn.sendall(f"cold {reason}\n".encode())
        return None
    pid = os.fork()
    if pid == 0:
        listener.close()
        for other in kernels:
            other.close()
        conn.close()
        _child(request, fds, base_env, base_path, imported_env)
    for fd in fds:
        os.close(fd)
    conn.sendall(f"warm {pid}\n".encode())
    return pid


_LOG = None


def _log(line):
    """One line per request in SOCKET.log: "warm", or "cold" and the reason."""
    if _LOG:
        with open(_LOG, "a") as f:
            f.write(line + "\n")


def _control(conn, kernels, selector):
    """A message from a launcher: a signal to forward, or the end (the launcher is gone)."""
    pid = kernels.get(conn)
    try:
        data = conn.recv(4096)
    except OSError:
        data = b""
    if not data:
        selector.unregister(conn)
        kernels.pop(conn, None)
        conn.close()
        if pid:
            _kill(pid, signal.SIGKILL)
            _wait(pid)
        return
    for line in data.decode().splitlines():
        words = line.split()
        if len(words) == 2 and words[0] == "signal" and pid:
            _kill(pid, int(words[1]))


def _reap(kernels, selector):
    for conn, pid in list(kernels.items()):
        code = _wait(pid, os.WNOHANG)
        if code is None:
            continue
        selector.unregister(conn)
        del kernels[conn]
        try:
            conn.sendall(f"exit {code}\n".encode())
        except OSError:
            pass
        conn.close()


def _wait(pid, flags=0):
    """The exit code of ``pid`` once it has ended (negative: the signal), None while it runs."""
    try:
        done, status = os.waitpid(pid, flags)
    except ChildProcessError:
        return 1
    if done == 0:
        return None
    return os.waitstatus_to_exitcode(status)


def _kill(pid, signum):
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


if __name__ == "__main__":
    command, *rest = sys.argv[1:]
    if command == "serve":
        # A server of `run MODULE` imports MODULE (and warms up nothing): its forks run that
        # command, not a kernel.
        serve(rest[0], tuple(rest[1:]) or PRELOAD, warm_up=not rest[1:])
    elif command == "launch":
        launch(rest)
    elif command == "run":
        launch(rest[1:], module=rest[0], variable=RUN_ENV)
    else:
        raise SystemExit(
            f"usage: {sys.argv[0]} serve SOCKET [MODULE ...] | launch ARGS | run MODULE ARGS"
        )
