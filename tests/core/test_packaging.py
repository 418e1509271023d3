"""A non-editable install must find templates/ and data/: they travel inside the wheel."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_wheel_carries_every_package_template_and_data_file(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    [wheel] = tmp_path.glob("pbem-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for path in (ROOT / "templates").rglob("*.j2"):
        assert "pbem/_templates/" + path.relative_to(ROOT / "templates").as_posix() in names, path
    for path in (ROOT / "data").rglob("*.json"):
        assert "pbem/_data/" + path.relative_to(ROOT / "data").as_posix() in names, path
    for path in (ROOT / "pbem").rglob("*.py"):
        assert path.relative_to(ROOT).as_posix() in names, f"{path} is missing: add its package to pyproject.toml"
    for path in (ROOT / "pbem" / "locale").rglob("*.po"):
        assert path.relative_to(ROOT).as_posix() in names, path
