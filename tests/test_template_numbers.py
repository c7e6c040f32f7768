"""Templates hold no rule numbers: a track's length, a cap, a cost or a threshold comes
from the context, which has it from blades/rules. A number written into a template (heat
"/9", stress boxes from "123456789", "up to 4") goes stale the day the rule or a crew
upgrade changes it, and no rules test would notice.

The scan strips what is legitimately numeric (drawing geometry, input sizes, timers,
CSS names, HTTP codes, template variable indexes) and then allows only 0 and 1, the
numbers of a one-step counter ("+1", "Add 1 rep") and of yes/no values."""

import re
from pathlib import Path

from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"

LEGITIMATE = [
    r"\{#.*?#\}",
    r"\{% comment %\}.*?\{% endcomment %\}",
    # Drawing and layout: SVG geometry, sizes, input lengths.
    r"\b(?:viewBox|width|height|x|y|x1|x2|y1|y2|cx|cy|r|rx|ry|d|points|transform|"
    r"maxlength|minlength|rows|cols|tabindex)=(?:\"[^\"]*\"|'[^']*')",
    r"\b(?:id|for|name|aria-labelledby|aria-describedby|aria-controls|hx-target)="
    r"(?:\"[^\"]*\"|'[^']*')",  # names of elements and fields
    r"initial-scale=\d+",
    r"hx-trigger=\"[^\"]*\"",  # timers ("every 25s")
    r"<\/?h[1-6]\b",
    r"\bforloop\.\w+",
    r"\b[a-z]+(?:-[a-z]+)*-\d+\b",  # CSS classes and ids (seg-3, error-2)
    r"\.\d+\b",  # a variable's index (status_range.0)
    r"\b[45]\d\d\b",  # HTTP statuses
]


def numbers_left(text: str) -> list[tuple[int, str]]:
    for pattern in LEGITIMATE:
        text = re.sub(pattern, lambda m: re.sub(r"\d", "_", m.group(0)), text, flags=re.S)
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if any(n not in ("0", "1") for n in re.findall(r"\d+", line)):
            found.append((number, line.strip()))
    return found


def covered() -> list[Path]:
    return sorted(p for p in TEMPLATES.rglob("*") if p.suffix in (".html", ".md", ".txt"))


def test_templates_take_their_rule_numbers_from_the_context():
    found = [
        f"{path.relative_to(TEMPLATES)}:{number}: {line[:160]}"
        for path in covered()
        for number, line in numbers_left(path.read_text())
    ]
    assert found == [], "numbers written into templates:\n" + "\n".join(found)


def test_the_scan_finds_the_numbers_it_is_for():
    assert numbers_left("<dd>{{ crew.heat }}/9</dd>")
    assert numbers_left('{% for n in "123456789" %}{{ n }}{% endfor %}')
    assert numbers_left("{% if roll.pool <= 0 %} (2 dice, lowest counts){% endif %}")
    assert numbers_left("Mastery: action ratings up to 4")
    assert numbers_left("{% for on in crew.heat|boxes:9 %}")
    assert not numbers_left('<svg viewBox="0 0 100 100"><circle cx="12" r="2.2"/></svg>')
    assert not numbers_left('{% include "crews/counter.html" with amount=1 text="+1" %}')
    assert not numbers_left('<input maxlength="120" id="harm-{{ pk }}-2">')
