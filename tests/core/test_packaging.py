"""A non-editable install must carry every engine with its templates and data: they travel
inside the wheel, and the packages are found by setup.py, not listed by hand."""

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Run in the installed copy, with the venv's dependencies but not its editable pbem.
_INSTALLED_CHECK = """
import json, pbem
from pbem.dice import Dice
from pbem.engines import all_engines
from pbem.resources import data_dir, templates_dir
found = {}
for name, engine in all_engines().items():
    scenario = sorted(engine.scenarios())[0]
    state = engine.setup(scenario, dict(engine.scenarios()[scenario].options), Dice("ab" * 32))
    found[name] = {"module": type(engine).__module__, "phase": engine.phase(state).id,
                   "report": (templates_dir() / name / "report.txt.j2").is_file()}
print(json.dumps({"package": pbem.__file__, "templates": str(templates_dir()), "data": str(data_dir()), "engines": found}))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    [built] = out.glob("pbem-*.whl")
    return built


def test_wheel_carries_every_package_template_and_data_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for path in (ROOT / "templates").rglob("*.j2"):
        assert "pbem/_templates/" + path.relative_to(ROOT / "templates").as_posix() in names, path
    for path in (ROOT / "data").rglob("*.json"):
        assert "pbem/_data/" + path.relative_to(ROOT / "data").as_posix() in names, path
    for path in (ROOT / "pbem").rglob("*.py"):
        assert path.relative_to(ROOT).as_posix() in names, f"{path} is missing from the wheel (see setup.py)"
    for path in (ROOT / "pbem" / "locale").rglob("*.po"):
        assert path.relative_to(ROOT).as_posix() in names, path


def test_an_installed_copy_finds_every_engine_with_its_templates_and_data(wheel, tmp_path):
    """Installed from the wheel (not editable), every engine of the checkout loads from the
    installed copy, sets up a game from its data and finds its report template."""
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), sysconfig.get_paths()["purelib"]])}
    # -S: no site-packages processing, so the checkout's editable install stays out of the way.
    proc = subprocess.run([sys.executable, "-S", "-c", _INSTALLED_CHECK], cwd=tmp_path, env=env,
                          capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr.decode()
    got = json.loads(proc.stdout)
    assert got["package"].startswith(str(target))
    assert got["templates"] == str(target / "pbem" / "_templates") and got["data"] == str(target / "pbem" / "_data")
    engine_folders = {p.parent.name for p in (ROOT / "pbem" / "engines").glob("*/__init__.py")}
    assert set(got["engines"]) == engine_folders
    for name, engine in got["engines"].items():
        assert engine["module"].startswith(f"pbem.engines.{name}") and engine["phase"] and engine["report"], (name, engine)
