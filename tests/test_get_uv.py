"""tools/get_uv.py: the pip wheel that installs uv into a venv made without pip."""

from tools import get_uv as G


def _touch(folder, *names):
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_bytes(b"")


def test_the_bundled_wheel_first_then_the_distributions_folder(tmp_path):
    ensurepip_dir, shared = tmp_path / "ensurepip", tmp_path / "python-wheels"
    _touch(
        ensurepip_dir / "_bundled",
        "pip-24.0-py3-none-any.whl",
        "setuptools-65.5.0-py3-none-any.whl",
    )
    _touch(shared, "pip-23.0-py3-none-any.whl", "wheel-0.40-py3-none-any.whl")
    assert G.pip_wheels(str(ensurepip_dir), str(shared)) == [
        str(ensurepip_dir / "_bundled" / "pip-24.0-py3-none-any.whl"),
        str(shared / "pip-23.0-py3-none-any.whl"),
    ]


def test_a_distributions_folder_alone_as_debian_keeps_them(tmp_path):
    ensurepip_dir, shared = tmp_path / "ensurepip", tmp_path / "python-wheels"
    ensurepip_dir.mkdir()  # no _bundled folder
    _touch(shared, "pip-23.0-py3-none-any.whl")
    assert G.pip_wheels(str(ensurepip_dir), str(shared)) == [
        str(shared / "pip-23.0-py3-none-any.whl")
    ]


def test_no_wheel_no_folder(tmp_path):
    _touch(tmp_path / "ensurepip" / "_bundled", "setuptools-65.5.0-py3-none-any.whl")
    assert G.pip_wheels(str(tmp_path / "ensurepip")) == []
    assert G.pip_wheels(str(tmp_path / "ensurepip"), None) == []
