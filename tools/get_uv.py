"""Install uv into the virtualenv that runs this script, with the pip wheel that Python ships.

`make`'s first step is ``python3 -m venv --without-pip .venv``, then this script, run by the venv's
Python. ``python3 -m venv`` on its own first installs pip into the venv from that same wheel
(ensurepip), about 2 s on a 2-core machine, before pip installs uv; here the wheel's pip installs
uv at once (pip runs from its wheel, as ensurepip itself runs it). uv then installs pip with the
sets (the Makefile's UV_INSTALL), for the user's own ``pip install``.

Exits with status 1 where no pip wheel is found or pip fails: the Makefile then makes the venv
the usual way (``python3 -m venv``, pip, then uv with pip).
"""

import glob
import os
import subprocess
import sys


def pip_wheels(ensurepip_dir, wheel_pkg_dir=None):
    """The pip wheels ensurepip would install: in its ``_bundled`` folder (CPython's own builds),
    or in the folder a distribution keeps them in (``WHEEL_PKG_DIR``: Debian's and Fedora's
    ``/usr/share/python-wheels``)."""
    folders = [os.path.join(ensurepip_dir, "_bundled")] + ([wheel_pkg_dir] if wheel_pkg_dir else [])
    return [w for folder in folders for w in sorted(glob.glob(os.path.join(folder, "pip-*.whl")))]


def main():  # pragma: no cover (run by the Makefile)
    import ensurepip
    import sysconfig

    wheels = pip_wheels(
        os.path.dirname(ensurepip.__file__), sysconfig.get_config_var("WHEEL_PKG_DIR")
    )
    if not wheels:
        print(
            "get_uv: Python ships no pip wheel; making the venv with pip instead", file=sys.stderr
        )
        return 1
    pip = os.path.join(wheels[0], "pip")
    cmd = [sys.executable, pip, "install", "--quiet", "--disable-pip-version-check", "--no-compile"]
    return subprocess.call([*cmd, "uv"])


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
