"""docs/abilities.md covers every special ability and crew upgrade in the content, and
what it cites is real: each module and function, each test, and each reminder
(blades.rules.abilities.REMINDERS)."""

import ast
import re
from functools import cache
from pathlib import Path

from blades import content
from blades.rules.abilities import REMINDERS

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "abilities.md"
STATUSES = {"applied", "reminded", "sheet", "not yet applied"}


def rows() -> dict[tuple[str, str], tuple[str, str]]:
    """(source, key) -> (status, how), from the doc's tables."""
    found = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not cells[1].startswith("`"):
            continue
        source, key, _, status, how = cells
        assert (source, key.strip("`")) not in found, f"two rows for {source} {key}"
        found[(source, key.strip("`"))] = (status, how)
    return found


def content_rows() -> set[tuple[str, str]]:
    playbooks = {(p["key"], a["key"]) for p in content.playbooks() for a in p["abilities"]}
    crews = {(c["key"], a["key"]) for c in content.crew_types() for a in c["abilities"]}
    upgrades = {(u["crew_type"] or "any", u["key"]) for u in content.crew_upgrades()}
    # A custom playbook's ability that a core playbook has shares that playbook's row.
    on_playbooks = {key for _, key in playbooks}
    custom = {("custom", a["key"]) for a in content.custom_abilities()}
    return playbooks | crews | upgrades | {c for c in custom if c[1] not in on_playbooks}


def test_every_ability_and_upgrade_has_one_row():
    assert set(rows()) == content_rows()


def test_every_row_has_a_status_and_an_applied_one_cites_a_test():
    for (source, key), (status, how) in rows().items():
        said = {part.strip() for part in status.split(",")}
        assert said and said <= STATUSES, (source, key, status)
        if "applied" in said:
            assert "`tests/" in how, (source, key)
        assert ("reminded" in said) == (key in REMINDERS), (source, key)


def names() -> dict[tuple[str, str], str]:
    """(source, key) -> the ability's or upgrade's name in the content."""
    found = {(p["key"], a["key"]): a["name"] for p in content.playbooks() for a in p["abilities"]}
    found |= {(c["key"], a["key"]): a["name"] for c in content.crew_types() for a in c["abilities"]}
    found |= {(u["crew_type"] or "any", u["key"]): u["name"] for u in content.crew_upgrades()}
    return found | {("custom", a["key"]): a["name"] for a in content.custom_abilities()}


@cache
def docstrings(path: str) -> dict[str, str]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return {
        node.name: " ".join((ast.get_docstring(node) or "").split())
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
    }


def test_an_applied_row_cites_a_test_that_quotes_its_text():
    """Issue 28: an ability whose number the app applies has a test that quotes its text,
    so one of the tests its row cites names it in its docstring."""
    unquoted = []
    for (source, key), (status, how) in rows().items():
        if "applied" not in status:
            continue
        cited = re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", how)
        name = names()[(source, key)].lower()
        if not any(name in docstrings(path).get(test, "").lower() for path, test in cited):
            unquoted.append((source, key))
    assert unquoted == []


def test_every_cited_module_function_and_test_exists():
    for (_, key), (_, how) in rows().items():
        for path, name in re.findall(r"`([\w/]+\.py)(?:::(\w+))?`", how):
            file = ROOT / path
            assert file.is_file(), (key, path)
            if name:
                text = file.read_text(encoding="utf-8")
                assert re.search(rf"^\s*def {name}\(", text, re.M), (key, path, name)
