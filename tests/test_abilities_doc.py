"""docs/abilities.md covers every special ability and crew upgrade in the content, and
what it cites is real: each module and function, each test, and each reminder
(blades.rules.abilities.REMINDERS)."""

import re
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
    return playbooks | crews | upgrades


def test_every_ability_and_upgrade_has_one_row():
    assert set(rows()) == content_rows()


def test_every_row_has_a_status_and_an_applied_one_cites_a_test():
    for (source, key), (status, how) in rows().items():
        said = {part.strip() for part in status.split(",")}
        assert said and said <= STATUSES, (source, key, status)
        if "applied" in said:
            assert "`tests/" in how, (source, key)
        assert ("reminded" in said) == (key in REMINDERS), (source, key)


def test_every_cited_module_function_and_test_exists():
    for (_, key), (_, how) in rows().items():
        for path, name in re.findall(r"`([\w/]+\.py)(?:::(\w+))?`", how):
            file = ROOT / path
            assert file.is_file(), (key, path)
            if name:
                text = file.read_text(encoding="utf-8")
                assert re.search(rf"^\s*def {name}\(", text, re.M), (key, path, name)
