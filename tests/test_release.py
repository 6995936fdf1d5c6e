"""A package one can release: one version number, a changelog and a citation that name it, two
licences, and a wheel and an sdist that `twine check` accepts and that install and fit in a fresh
environment.

The build and the fresh environment fetch packages (setuptools for the isolated build; numpy,
matplotlib and ipywidgets for the venv), so those tests are marked `release`: `make release` runs
them (`pytest -m release`), and CI does. The metadata checks are unit tests, run by `make test`.
"""

from __future__ import annotations

import datetime
import os
import pathlib
import re
import subprocess
import sys
import tarfile
import zipfile

import pytest
import yaml

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import perclib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


# ----------------------------------------------------------------------------- one version
def test_the_version_lives_only_in_perclib_init():
    project = _pyproject()["project"]
    assert "version" not in project and "version" in project["dynamic"]
    attr = _pyproject()["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "perclib.__version__"
    assert re.fullmatch(r"\d+\.\d+\.\d+", perclib.__version__), perclib.__version__
    # no other file of the package spells a version number of its own
    spelled = [
        p
        for p in (ROOT / "perclib").rglob("*.py")
        if p.name != "__init__.py" and re.search(r"__version__\s*=", p.read_text())
    ]
    assert spelled == []


def _changelog_releases():
    """(version, date) of each released section, newest first: ## [X.Y.Z] - YYYY-MM-DD."""
    text = (ROOT / "CHANGELOG.md").read_text()
    return re.findall(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", text, re.M)


def test_changelog_names_the_version_first():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(r"^## \[Unreleased\]$", text, re.M), "keep an [Unreleased] section on top"
    releases = _changelog_releases()
    assert releases, "CHANGELOG.md has no released section '## [X.Y.Z] - YYYY-MM-DD'"
    assert releases[0][0] == perclib.__version__
    dates = [datetime.date.fromisoformat(d) for _, d in releases]
    assert dates == sorted(dates, reverse=True), "newest release first"


def test_citation_matches_the_package():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    for key in (
        "cff-version",
        "message",
        "title",
        "authors",
        "version",
        "date-released",
        "license",
    ):
        assert cff.get(key), f"CITATION.cff lacks {key}"
    assert cff["cff-version"] == "1.2.0"
    assert str(cff["version"]) == perclib.__version__
    version, date = _changelog_releases()[0]
    assert str(cff["date-released"]) == date, "CITATION.cff and CHANGELOG.md give other dates"
    assert cff["license"] == ["MIT", "CC-BY-4.0"]
    assert all(a.get("name") or a.get("family-names") for a in cff["authors"])


def test_two_licences_code_and_content():
    project = _pyproject()["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE", "LICENSE-CONTENT"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    content = (ROOT / "LICENSE-CONTENT").read_text()
    assert "Attribution 4.0 International" in content
    assert "Section 8 -- Interpretation." in content  # the whole legal code, not a summary


def test_errata_are_dated_newest_first_and_cite_real_commits():
    rows = re.findall(
        r"^\| (\d{4}-\d{2}-\d{2}) \| [^|]+ \| [^|]+ \| ([0-9a-f]{7,40}) \|$",
        (ROOT / "book" / "errata.md").read_text(),
        re.M,
    )
    assert len(rows) >= 5
    dates = [datetime.date.fromisoformat(d) for d, _ in rows]
    assert dates == sorted(dates, reverse=True), "newest first"
    if not (ROOT / ".git").exists():
        pytest.skip("no git history to look the commits up in")
    for date, commit in rows:
        shown = subprocess.run(
            ["git", "-C", str(ROOT), "show", "-s", "--format=%ad", "--date=short", commit],
            capture_output=True,
            text=True,
        )
        if shown.returncode:
            pytest.skip(f"commit {commit} not in this clone's history (shallow?)")
        assert shown.stdout.strip() == date, f"{commit} is dated {shown.stdout.strip()}"


# ----------------------------------------------------------------------------- the artefacts
release = pytest.mark.release


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """The wheel and the sdist, built here from this checkout: the sdist, then the wheel from the
    sdist, as `python -m build` does by default (so the sdist is shown to be complete)."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        text=True,
    )
    wheels, sdists = list(out.glob("*.whl")), list(out.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted(p.name for p in out.iterdir())
    return wheels[0], sdists[0]


@release
def test_build_makes_a_wheel_and_an_sdist_of_this_version(dist):
    wheel, sdist = dist
    v = perclib.__version__
    assert wheel.name == f"perclib-{v}-py3-none-any.whl"
    assert sdist.name == f"perclib-{v}.tar.gz"
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = z.read(f"perclib-{v}.dist-info/METADATA").decode()
    for module in (
        "perclib/__init__.py",
        "perclib/widgets/stepper.py",
        "perclib/widgets/slider.js",  # package data: the sliders' front end
        "perclib/plotting/__init__.py",
    ):
        assert module in names
    assert f"perclib-{v}.dist-info/licenses/LICENSE" in names
    assert f"perclib-{v}.dist-info/licenses/LICENSE-CONTENT" in names
    assert not [n for n in names if n.startswith(("tests/", "notebooks/", "labs/"))]
    assert re.search(r"^License-Expression: MIT$", meta, re.M)
    assert re.search(rf"^Version: {re.escape(v)}$", meta, re.M)
    with tarfile.open(sdist) as t:
        members = t.getnames()
    for name in (
        "pyproject.toml",
        "LICENSE",
        "LICENSE-CONTENT",
        "README.md",
        "perclib/__init__.py",
        "perclib/widgets/slider.js",
    ):
        assert f"perclib-{v}/{name}" in members


@release
def test_twine_check_passes(dist):
    result = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, dist)],
        capture_output=True,
        text=True,
    )
    print(result.stdout)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("PASSED") == 2


FIT = """
import pathlib, perclib
from perclib import Perceptron
from perclib.datasets import worked_example
X, y = worked_example()
model = Perceptron().fit(X, y)
print(perclib.__version__, pathlib.Path(perclib.__file__).parent.parent.name,
      model.score(X, y), model.coef_.tolist(), model.intercept_)
"""


@release
def test_the_wheel_installs_imports_and_fits_in_a_fresh_venv(dist, tmp_path, install_into):
    wheel, _ = dist
    venv = tmp_path / "venv"
    # A venv of its own (no system site-packages); the shared pip installs into it.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    install_into(python, str(wheel), env=env)
    result = subprocess.run(
        [str(python), "-I", "-c", FIT], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert result.returncode == 0, result.stderr
    print(result.stdout)
    version, where, score, coef, b = result.stdout.split(" ", 4)
    assert version == perclib.__version__
    assert where == "site-packages"  # the installed wheel, not this checkout
    # the same fit as this checkout's perclib on the same data
    from perclib.datasets import worked_example

    X, y = worked_example()
    here = perclib.Perceptron().fit(X, y)
    assert float(score) == here.score(X, y)
    assert f"{here.coef_.tolist()} {here.intercept_}" == f"{coef} {b}".strip()
