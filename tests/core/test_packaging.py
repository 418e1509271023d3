"""A non-editable install must find templates/ and data/: they travel inside the wheel."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_wheel_carries_templates_and_data(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    [wheel] = tmp_path.glob("pbem-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "pbem/_templates/mail/report.txt.j2" in names
    assert any(n.startswith("pbem/_data/custer/") for n in names)
    assert "pbem/locale/fr/LC_MESSAGES/pbem.po" in names or not (ROOT / "pbem/locale/fr/LC_MESSAGES/pbem.po").exists()
