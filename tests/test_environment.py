"""environment.yml (conda-forge, Binder) is the student environment of pyproject.toml.

It lists exactly ``[project].dependencies`` plus the ``student`` extra, with the same names and
version bounds; the other extras (labs, handouts, test) stay out of a student's environment.
"""

import pathlib
import re

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import pytest
import yaml
from packaging.utils import canonicalize_name

ROOT = pathlib.Path(__file__).resolve().parents[1]
STUDENT_EXTRAS = ("student",)


def _split(spec):
    """``"scikit-learn >= 1.3"`` -> ``("scikit-learn", ">=1.3")``; markers (``; ...``) dropped."""
    spec = spec.split(";")[0]
    m = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*(.*?)\s*", spec)
    assert m, f"cannot read the requirement {spec!r}"
    name = canonicalize_name(m.group(1))
    bounds = ",".join(sorted(b.replace(" ", "") for b in m.group(2).split(",") if b.strip()))
    return name, bounds


def _pyproject(text):
    project = tomllib.loads(text)["project"]
    reqs = list(project["dependencies"])
    for extra in STUDENT_EXTRAS:
        reqs += project["optional-dependencies"][extra]
    out = {}
    for name, bounds in map(_split, reqs):
        assert out.get(name, bounds) == bounds, f"{name} has two different bounds in pyproject"
        out[name] = bounds
    out["python"] = _split("python" + project["requires-python"])[1]
    return out


def _environment(text):
    out = {}
    for dep in yaml.safe_load(text)["dependencies"]:
        for spec in dep["pip"] if isinstance(dep, dict) else [dep]:
            if spec.startswith("-e") or spec.strip() == "pip":
                continue
            name, bounds = _split(spec)
            out[name] = bounds
    return out


def _disagreements(pyproject_text, environment_text):
    """What differs: names only in one file, and bounds that differ. Empty when they agree."""
    py, env = _pyproject(pyproject_text), _environment(environment_text)
    return {
        "only in pyproject.toml": sorted(set(py) - set(env)),
        "only in environment.yml": sorted(set(env) - set(py)),
        "bounds differ": {
            n: (py[n], env[n]) for n in sorted(set(py) & set(env)) if py[n] != env[n]
        },
    }


AGREE = {"only in pyproject.toml": [], "only in environment.yml": [], "bounds differ": {}}
PYPROJECT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
ENVIRONMENT = (ROOT / "environment.yml").read_text(encoding="utf-8")


def test_same_packages_and_bounds():
    assert _disagreements(PYPROJECT, ENVIRONMENT) == AGREE


def test_environment_installs_the_course_package_and_uses_conda_forge():
    env = yaml.safe_load(ENVIRONMENT)
    assert env["channels"] == ["conda-forge"]
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "-e ." in pip


def test_student_environment_leaves_out_the_other_extras():
    """nbgrader, Jupyter Book, Playwright, pytest: not in a student's environment."""
    extras = tomllib.loads(PYPROJECT)["project"]["optional-dependencies"]
    others = {
        _split(r)[0] for name, reqs in extras.items() if name not in STUDENT_EXTRAS for r in reqs
    }
    assert {"nbgrader", "jupyter-book", "playwright", "pytest"} <= others
    assert sorted(others & set(_environment(ENVIRONMENT))) == []


@pytest.mark.parametrize(
    ("file", "old", "new", "expected"),
    [
        (
            "environment.yml",
            "numpy>=1.23",
            "numpy>=1.20",
            {"bounds differ": {"numpy": (">=1.23", ">=1.20")}},
        ),
        (
            "pyproject.toml",
            '"scikit-learn>=1.6"',
            '"scikit-learn>=1.7"',
            {"bounds differ": {"scikit-learn": (">=1.7", ">=1.6")}},
        ),
        (
            "environment.yml",
            "  - jupyterlab>=4.0,<5\n",
            "",
            {"only in pyproject.toml": ["jupyterlab"]},
        ),
        (
            "environment.yml",
            "  - pip\n",
            "  - pip\n  - pytest>=7.4\n",
            {"only in environment.yml": ["pytest"]},
        ),
    ],
    ids=["bound-in-environment", "bound-in-pyproject", "name-missing", "name-extra"],
)
def test_the_comparison_catches_a_change(file, old, new, expected):
    """Change one bound or one name in one file: the comparison names exactly that change."""
    texts = {"pyproject.toml": PYPROJECT, "environment.yml": ENVIRONMENT}
    assert texts[file].count(old) == 1, f"{old!r} is not in {file} once"
    texts[file] = texts[file].replace(old, new)
    assert _disagreements(texts["pyproject.toml"], texts["environment.yml"]) == {
        **AGREE,
        **expected,
    }
