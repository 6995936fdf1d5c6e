"""environment.yml (conda-forge, Binder) and pyproject.toml must agree on names and version bounds."""
import pathlib
import re
import sys

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _split(spec):
    m = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*(.*?)\s*", spec)
    assert m, f"cannot read the requirement {spec!r}"
    name = re.sub(r"[-_.]+", "-", m.group(1)).lower()
    bounds = ",".join(sorted(b.replace(" ", "") for b in m.group(2).split(",") if b.strip()))
    return name, bounds


def _pyproject():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project = data["project"]
    reqs = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        reqs += extra
    out = dict(_split(r) for r in reqs)
    out["python"] = ",".join(sorted(project["requires-python"].replace(" ", "").split(",")))
    return out


def _environment():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    out = {}
    for dep in env["dependencies"]:
        specs = dep["pip"] if isinstance(dep, dict) else [dep]
        for spec in specs:
            if spec.startswith("-e") or spec.strip() == "pip":
                continue
            name, bounds = _split(spec)
            out[name] = bounds
    return out


def test_same_packages_and_bounds():
    py, env = _pyproject(), _environment()
    assert sorted(set(py) - set(env)) == [], "in pyproject.toml but not in environment.yml"
    assert sorted(set(env) - set(py)) == [], "in environment.yml but not in pyproject.toml"
    differ = {name: (py[name], env[name]) for name in py if py[name] != env[name]}
    assert differ == {}, f"version bounds differ (pyproject, environment): {differ}"


def test_environment_installs_the_course_package_and_uses_conda_forge():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert env["channels"] == ["conda-forge"]
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "-e ." in pip


def test_the_checker_sees_a_disagreement(tmp_path, monkeypatch):
    """The comparison can fail: a changed bound is caught."""
    text = (ROOT / "environment.yml").read_text().replace("numpy>=1.23", "numpy>=1.20")
    fake = tmp_path / "environment.yml"
    fake.write_text(text)
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    py, env = _pyproject(), _environment()
    assert py["numpy"] == ">=1.23" and env["numpy"] == ">=1.20"
