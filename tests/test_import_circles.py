"""No module of the project imports one that imports it back, however far round, within
an app or across apps. Read from the source with `ast`, so an import inside a function
counts as much as one at the top: a circle that works only because something else was
imported first breaks for the next person who imports in another order."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (
    "accounts",
    "sessions",
    "characters",
    "crews",
    "rolls",
    "play",
    "chronicle",
    "backup",
    "blades",
)


def project_modules() -> dict[str, Path]:
    """Every first-party module by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts:
                continue
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `name` imports: `from x import y` names the module x.y when
    there is one, else x; a relative import is read against the module's package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
            targets = [t for t in targets if t in modules] or [base]
        else:
            continue
        found |= {target for target in targets if target in modules and target != name}
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that reach one another (Tarjan's strongly connected parts)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = []
            while True:
                member = stack.pop()
                part.append(member)
                if member == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def test_no_module_imports_one_that_imports_it_back():
    assert circles(import_graph()) == []


def test_the_walk_sees_imports_inside_functions_and_relative_ones():
    graph = import_graph()
    assert {"rolls.live", "rolls.views"} <= graph["rolls.apps"]  # inside ready()
    assert "sessions.panels" in graph["rolls.apps"]
    assert "rolls.derived" in graph["rolls.live"]  # `from .derived import revision`


def test_a_circle_is_found_however_far_round():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


@pytest.mark.parametrize("module", ["rolls.actions", "rolls.undo", "rolls.queries", "rolls.live"])
def test_a_rolls_module_imports_first_in_a_fresh_interpreter(module):
    """Before the app's own ready() has imported anything else of it."""
    code = (
        "import django, rolls.apps as app\n"
        "ready = app.RollsConfig.ready\n"
        f"app.RollsConfig.ready = lambda self: (__import__({module!r}), ready(self))\n"
        "django.setup()\n"
    )
    env = {"DJANGO_SETTINGS_MODULE": "blades.settings", "SECRET_KEY": "circles"}
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, env=env)
