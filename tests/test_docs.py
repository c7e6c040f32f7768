"""Every file, module, function and test that the README or a page of docs/ names exists.

Only code spans (`...`) outside fenced code blocks are read. The forms understood:

- A path: `blades/server/origin.py`, `tests/rules`; a file with a known extension (.py
  .md .html .css .js .json .toml .lock .png .svg) or anything with a slash. Without a slash
  (`test_dice.py`), some file of that name must exist in the project; a folder with a
  trailing slash (`rules/`) may be named by the end of its path.
- A test in a file: `tests/rolls/test_actions.py::test_full_roll`; `::test_other` names
  another test of the last file so named in the same page.
- A test alone: `test_keyboard_under_pushes` (any `test_` name), defined somewhere in tests/.
- A module with what it defines, dotted or with a slash, a call's arguments ignored:
  `sessions.live.push`, `play/phases.roll_engagement`, `characters/actions.set_load(...)`,
  `sessions.Table.opening_position` (a Django app's models), `Character.stress_max` (a
  project class and its attribute). The module may be named by the end of its path:
  `dice.odds` is blades/rules/dice.py's `odds`. A dotted name that starts with no project
  module or class (`gc.freeze`, `auth.get_user`) is someone else's and is not checked.
- In a table row, a bare name after a module in the same cell is that module's:
  `rolls.fortune_pool`, `fortune_result`; after `Character.stress_max`, `trauma_max` is
  Character's.

Spans with spaces, URLs, host names, placeholders (`<id>`, `*`, `…`), lists and options
(`--seconds`) are commands or values, not names, and are left alone.
"""

import ast
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SKIPPED_FOLDERS = {".venv", "node_modules", "staticfiles", ".git"}
EXTENSIONS = (".py", ".md", ".html", ".css", ".js", ".json", ".toml", ".lock", ".png", ".svg")
NOT_A_NAME = re.compile(r"\s|://|[<>*…=\"'{}$,\[\]]|^[-/.~]|\.(org|com|net)$")
QUALIFIED = re.compile(r"^[A-Za-z_]\w*(?:[./][A-Za-z_]\w*)+$")
IDENTIFIER = re.compile(r"^[A-Za-z_]\w*$")
FENCE = re.compile(r"^\s*```")


def project_files() -> list[Path]:
    return [
        path
        for path in ROOT.rglob("*")
        if path.is_file() and not SKIPPED_FOLDERS & set(path.relative_to(ROOT).parts)
    ]


@cache
def files_by_name() -> dict[str, list[Path]]:
    found: dict[str, list[Path]] = {}
    for path in project_files():
        found.setdefault(path.name, []).append(path)
    return found


@dataclass
class Scope:
    """What a module or a class defines: names, and the scopes of its classes."""

    names: set[str] = field(default_factory=set)
    classes: dict[str, "Scope"] = field(default_factory=dict)


def scope_of(statements: list[ast.stmt]) -> Scope:
    scope = Scope()
    for node in statements:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            scope.names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            scope.names.add(node.name)
            scope.classes[node.name] = scope_of(node.body)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                scope.names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            scope.names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.If | ast.Try | ast.With):
            inner = scope_of([n for n in ast.iter_child_nodes(node) if isinstance(n, ast.stmt)])
            scope.names |= inner.names
            scope.classes |= inner.classes
    return scope


@cache
def modules() -> dict[tuple[str, ...], Scope]:
    """Every project module by its dotted path (a package by its folder)."""
    found = {}
    for path in project_files():
        if path.suffix != ".py":
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[parts] = scope_of(ast.parse(path.read_text(), str(path)).body)
    return found


@cache
def classes() -> dict[str, list[Scope]]:
    found: dict[str, list[Scope]] = {}

    def collect(scope: Scope) -> None:
        for name, inner in scope.classes.items():
            found.setdefault(name, []).append(inner)
            collect(inner)

    for scope in modules().values():
        collect(scope)
    return found


@cache
def defined_tests() -> frozenset[str]:
    return frozenset(
        name
        for parts, scope in modules().items()
        if parts[0] == "tests"
        for name in scope.names | {n for c in scope.classes.values() for n in c.names}
        if name.startswith("test_")
    )


def defines(scope: Scope, attributes: list[str]) -> Scope | None:
    """The scope that holds the last of `attributes` inside `scope`, or None."""
    for n, name in enumerate(attributes):
        if name not in scope.names:
            return None
        if n < len(attributes) - 1:
            if name not in scope.classes:
                return None
            scope = scope.classes[name]
    return scope


def resolve(segments: list[str]) -> tuple[bool, Scope | None]:
    """(whether the name is the project's, the scope that defines it if it exists)."""
    ours = False
    for size in range(len(segments), 0, -1):
        prefix, rest = tuple(segments[:size]), segments[size:]
        for parts, scope in modules().items():
            if parts[-size:] != prefix:
                continue
            ours = True
            if not rest:
                return True, scope
            found = defines(scope, rest)
            app_models = modules().get((*parts, "models"))
            if found is None and app_models is not None:
                found = defines(app_models, rest)
            if found is not None:
                return True, found
    if ours:
        return True, None
    if segments[0] in classes():
        for scope in classes()[segments[0]]:
            found = defines(scope, segments[1:])
            if found is not None:
                return True, found
        return True, None
    return False, None


@cache
def folders() -> frozenset[tuple[str, ...]]:
    return frozenset(
        parent.parts[:n]
        for parent in (p.relative_to(ROOT).parent for p in project_files())
        for n in range(1, len(parent.parts) + 1)
    )


def file_exists(name: str) -> bool:
    if name.endswith("/"):
        # A folder, by its path or (`rules/` after `tests/`) by the end of it.
        wanted = tuple(name.strip("/").split("/"))
        return any(parts[-len(wanted) :] == wanted for parts in folders())
    if "/" in name:
        return (ROOT / name).exists()
    return name in files_by_name()


def has_test(name: str, test: str) -> bool:
    paths = [ROOT / name] if "/" in name else files_by_name().get(name, [])
    return any(re.search(rf"def {re.escape(test)}\b", p.read_text()) for p in paths)


def spans(path: Path):
    """(line number, cell, code span) of every span outside fenced blocks; a table row's
    cells are told apart, a prose line is one cell."""
    fenced = False
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        cells = line.split("|") if line.lstrip().startswith("|") else [line]
        for cell_number, cell in enumerate(cells):
            for span in re.findall(r"`([^`]+)`", cell):
                yield number, (cell_number if len(cells) > 1 else None), span


def problems(path: Path) -> list[str]:
    found = []
    last_test_file = None
    context: tuple[int, int | None, Scope] | None = None  # (line, cell, scope)
    for number, cell, span in spans(path):
        name = re.sub(r"\(.*\)$", "", span)

        def fail(why: str) -> None:
            found.append(f"{path.relative_to(ROOT)}:{number}: `{span}` {why}")  # noqa: B023

        if name.startswith("::"):
            test = name[2:]
            if last_test_file is None or not has_test(last_test_file, test):
                fail(f"is not a test of {last_test_file}")
            continue
        if NOT_A_NAME.search(name):
            continue
        if "::" in name:
            file, test = name.split("::", 1)
            last_test_file = file
            if not file_exists(file):
                fail("names no file")
            elif not has_test(file, test.split("::")[-1]):
                fail("names no test of that file")
        elif name.endswith(EXTENSIONS) or ("/" in name and "." not in name):
            if not file_exists(name):
                fail("names no file or folder")
        elif QUALIFIED.match(name):
            ours, scope = resolve(re.split(r"[./]", name))
            if ours and scope is None:
                fail("names nothing the project defines")
            elif scope is not None and cell is not None:
                context = (number, cell, scope)
        elif IDENTIFIER.match(name):
            if name.startswith("test_"):
                if name not in defined_tests():
                    fail("names no test")
            elif context and context[:2] == (number, cell) and name not in context[2].names:
                fail("is not defined beside the name before it")
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: str(doc.relative_to(ROOT)))
def test_every_name_a_doc_cites_exists(doc):
    assert problems(doc) == []


def test_the_readme_is_a_newcomers_page_under_200_lines():
    """Architecture, security, deployment and performance are pages of docs/ (issue 27)."""
    assert len((ROOT / "README.md").read_text().splitlines()) < 200


def test_the_check_catches_a_name_that_is_gone(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "| rule | module | tests |\n"
        "| --- | --- | --- |\n"
        "| a | `characters/actions.roll_action(assister=…)` | `test_no_such_test` |\n"
        "| b | `rolls.fortune_pool`, `no_such_function` | `test_dice.py::test_gone` |\n"
        "See `blades/server/nothing.py` and `sessions.live.nothing`; `gc.freeze` is not ours.\n"
    )
    page = page.rename(ROOT / "docs" / f".{tmp_path.name}.md")
    try:
        found = problems(page)
    finally:
        page.unlink()
    assert [line.split(": ", 1)[1] for line in found] == [
        "`characters/actions.roll_action(assister=…)` names nothing the project defines",
        "`test_no_such_test` names no test",
        "`no_such_function` is not defined beside the name before it",
        "`test_dice.py::test_gone` names no test of that file",
        "`blades/server/nothing.py` names no file or folder",
        "`sessions.live.nothing` names nothing the project defines",
    ]
