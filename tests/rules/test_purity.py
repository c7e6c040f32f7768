"""The rules engine must stay plain Python: importable and testable without Django."""

import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "blades" / "rules"


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_rules_module_imports_django():
    offenders = {
        path.name: sorted(name for name in imported_modules(path) if name.split(".")[0] == "django")
        for path in RULES.glob("*.py")
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}


def test_rules_import_in_a_fresh_interpreter_without_loading_django():
    code = (
        "import sys, pkgutil, importlib, blades.rules as r\n"
        "for m in pkgutil.iter_modules(r.__path__):\n"
        "    importlib.import_module('blades.rules.' + m.name)\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django loaded'\n"
    )
    root = RULES.parents[1]
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True)
