"""The files a hub or Binder builds from (repo2docker reads environment.yml) are sound, as far as
this machine can tell without conda, Docker or the network services themselves:

* environment.yml parses, names conda-forge, a Python this course supports, and installs the
  course's package (the cheap checks, run by `make test`);
* its packages resolve against PyPI (pip's `install --dry-run`), and a fresh virtual environment
  built from it (no system site-packages) imports perclib, scikit-learn and JupyterLab, fits a
  perceptron and builds a widget. These fetch packages, so they are marked `release`
  (`make release`).

What this cannot check: a conda solve on conda-forge, and repo2docker's own build (docs/teaching.md
lists these).
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys

import pytest
import yaml
from packaging.utils import canonicalize_name

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENVIRONMENT = ROOT / "environment.yml"
# Files that would make repo2docker ignore environment.yml, or build from another folder.
OTHER_CONFIGS = ("binder", ".binder", "Dockerfile", "Pipfile", "Project.toml", "install.R")

slow = pytest.mark.release  # fetches packages from PyPI: `make release`


def _conda_to_pip(spec):
    """A conda match spec as a pip requirement: `name=1.2` (conda's 1.2.*) becomes name==1.2.*."""
    m = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*=\s*([0-9][0-9A-Za-z.]*)\s*", spec)
    return f"{m.group(1)}=={m.group(2)}.*" if m else spec.strip()


def pip_requirements(env):
    """environment.yml's dependencies as pip arguments (python and pip themselves left out)."""
    args = []
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            for spec in dep["pip"]:
                if spec.strip() in ("-e .", "."):
                    args += ["-e", str(ROOT)] if spec.startswith("-e") else [str(ROOT)]
                else:
                    args.append(spec.strip())
        elif not re.match(r"\s*(python|pip)\b", dep):
            args.append(_conda_to_pip(dep))
    return args


def _environment():
    return yaml.safe_load(ENVIRONMENT.read_text())


def test_environment_yml_is_what_repo2docker_reads():
    env = _environment()
    assert isinstance(env, dict) and env.get("name") and env.get("dependencies")
    assert env["channels"] == ["conda-forge"]
    present = [name for name in OTHER_CONFIGS if (ROOT / name).exists()]
    assert present == [], f"repo2docker would build from {present}, not environment.yml"
    pythons = [d for d in env["dependencies"] if isinstance(d, str) and re.match(r"python\b", d)]
    assert len(pythons) == 1 and ">=3.10" in pythons[0].replace(" ", "")
    pip = [d["pip"] for d in env["dependencies"] if isinstance(d, dict)]
    assert len(pip) == 1 and ("-e ." in pip[0] or "." in pip[0]), "the course's package"
    assert "pip" in env["dependencies"], "conda needs pip to install the pip section"


def test_conda_specs_become_pip_requirements():
    assert _conda_to_pip("numpy=1.26") == "numpy==1.26.*"
    assert _conda_to_pip("numpy>=1.23") == "numpy>=1.23"
    env = {"dependencies": ["python>=3.10", "pip", "scikit-learn>=1.3", {"pip": ["-e ."]}]}
    assert pip_requirements(env) == ["scikit-learn>=1.3", "-e", str(ROOT)]


def _resolve(args, folder):
    """What pip picks from PyPI for ``args`` (pip_requirements'), without installing:
    ``{name: version}`` (pip's ``install --dry-run --report``)."""
    report = folder / "report.json"
    cmd = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet"]
    result = subprocess.run([*cmd, "--report", str(report), *args], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    return {
        canonicalize_name(i["metadata"]["name"]): i["metadata"]["version"]
        for i in json.loads(report.read_text())["install"]
    }


@slow
def test_environment_resolves_against_pypi(tmp_path):
    chosen = _resolve(pip_requirements(_environment()), tmp_path)
    print(
        f"{len(chosen)} packages; "
        + ", ".join(
            f"{n} {chosen[n]}"
            for n in ("perclib", "numpy", "matplotlib", "ipywidgets", "jupyterlab", "scikit-learn")
            if n in chosen
        )
    )
    for name in ("perclib", "numpy", "matplotlib", "ipywidgets", "jupyterlab", "scikit-learn"):
        assert name in chosen, f"{name} is not in the resolved student environment"


SMOKE = """
import jupyterlab, sklearn, perclib
from perclib import Perceptron
from perclib.datasets import worked_example
from perclib.widgets import Stepper
X, y = worked_example()
model = Perceptron().fit(X, y)
stepper = Stepper(X, y, rule="prediction")
stepper.slider.value = 2
print(perclib.__version__, jupyterlab.__version__, sklearn.__version__, model.score(X, y),
      stepper.state["updated"])
"""


@slow
def test_a_fresh_venv_built_from_environment_yml_imports_and_fits(tmp_path, install_into):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["MPLBACKEND"] = "Agg"
    install_into(python, *pip_requirements(_environment()), env=env)
    result = subprocess.run(
        [str(python), "-c", SMOKE], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert result.returncode == 0, result.stderr[-3000:]
    print(result.stdout)
    version, _lab, _sklearn, score, updated = result.stdout.split()
    import perclib

    assert version == perclib.__version__
    # worked_example is separable, and step 2 makes an update (the Stepper's doctest)
    assert float(score) == 1.0 and updated == "True"
    jupyter = subprocess.run(
        [str(venv / "bin" / "jupyter"), "lab", "--version"], capture_output=True, text=True, env=env
    )
    assert jupyter.returncode == 0 and jupyter.stdout.startswith("4."), jupyter
