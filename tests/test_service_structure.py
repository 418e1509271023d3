"""The shape docs/service.md describes, checked: pbem's modules import each other without
a cycle (imports inside functions count: a lazy import hides a cycle, it does not remove
one), the few imports of pbem's own modules left inside functions each say why, and the
service's questions of the store are asked in its query layer only."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PBEM = Path(__file__).resolve().parents[1] / "pbem"
#: the service modules that may hold SQL: the query layer (its clubs' questions apart), the schema,
#: and the outbox queue's own table
SQL_HOMES = {"records.py", "club_records.py", "store.py", "outbox.py"}
MAX_FUNCTION_LEVEL_IMPORTS = 10
SQL = re.compile(r"^\s*(SELECT\b.*\bFROM\b|INSERT\s+INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b)", re.I | re.S)


def _modules() -> dict[str, Path]:
    out = {}
    for path in PBEM.rglob("*.py"):
        parts = list(path.relative_to(PBEM.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, known: set[str]):
    """(target module, the import node, whether it sits inside a function) for each import of a pbem module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    in_function = {id(s) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) for s in ast.walk(f)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            heads = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            head = ".".join(base + ([node.module] if node.module else []))
            named = [f"{head}.{a.name}" for a in node.names if f"{head}.{a.name}" in known]
            heads = named or [head]
        else:
            continue
        for target in heads:
            if target in known and target != name:
                yield target, node, id(node) in in_function


def test_no_import_cycle_among_pbem_modules_counting_imports_inside_functions():
    modules = _modules()
    edges = {name: {t for t, _, _ in _imports(name, path, set(modules))} for name, path in modules.items()}
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for name in modules:
        if name not in index:
            visit(name)
    assert cycles == []


def test_imports_of_pbem_modules_inside_functions_are_few_and_each_says_why():
    modules = _modules()
    lazy = []
    for name, path in modules.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for target, node, inside in _imports(name, path, set(modules)):
            if inside:
                lazy.append((f"{path.relative_to(PBEM.parent)}:{node.lineno}", lines[node.lineno - 1]))
    assert len(lazy) <= MAX_FUNCTION_LEVEL_IMPORTS, lazy
    assert [where for where, line in lazy if "#" not in line] == []


def test_the_service_asks_the_store_only_through_its_query_layer():
    strays = []
    for path in (PBEM / "service").rglob("*.py"):
        if path.name in SQL_HOMES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.match(node.value):
                strays.append(f"{path.relative_to(PBEM.parent)}:{node.lineno}")
    assert strays == []
