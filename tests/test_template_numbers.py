"""Templates hold no rule numbers: a track's length, a cap, a cost or a threshold comes
from the context, which has it from blades/rules. A number written into a template (heat
"/9", stress boxes from "123456789", "up to 4") goes stale the day the rule or a crew
upgrade changes it, and no rules test would notice.

The scan strips what is legitimately numeric (drawing geometry, input sizes, timers,
CSS names, HTTP codes, template variable indexes) and then allows only 0 and 1, the
numbers of a one-step counter ("+1", "Add 1 rep") and of yes/no values; but not where
even a 0 or a 1 can only be a rule (RULE_SHAPED): a number of dice, a level of effect,
a price, an amount sent unseen."""

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
    r"\{% load [\w .]+%\}",  # tag libraries (i18n)
]


# Where a 0 or a 1 is the rules' number, not a counter's step or a yes.
RULE_SHAPED = [
    r"(?<![\w-])\d+d\b",  # dice: "+1d", "0d"
    r"\b\d+ effect\b",  # a level of effect: "+1 effect"
    r"\b\d+ (?:coin|rep|stress|heat|xp) (?:to|for|each|per)\b",  # a price: "1 coin to raise"
    # a resource spent unseen: a hidden coin="1" (a hidden flag or one-step "amount" is no rule)
    r"<input\b(?=[^>]*\btype=\"hidden\")(?=[^>]*\bname=\"(?:coin|rep|stress|heat|xp)\")"
    r"[^>]*\bvalue=\"\d+\"",
]


def numbers_left(text: str) -> list[tuple[int, str]]:
    for pattern in LEGITIMATE:
        text = re.sub(pattern, lambda m: re.sub(r"\d", "_", m.group(0)), text, flags=re.S)
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        shaped = any(re.search(pattern, line) for pattern in RULE_SHAPED)
        if shaped or any(n not in ("0", "1") for n in re.findall(r"\d+", line)):
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
    assert numbers_left("<label>A friend or contact helps (+1d)</label>")
    assert numbers_left("No healer (1 stress, 0d)")
    assert numbers_left("<li>Pushes for +1 effect</li>")
    assert numbers_left('<button type="submit">Spend 1 coin to raise recover</button>')
    assert numbers_left('<input type="hidden" name="coin" value="1">')
    assert not numbers_left('<svg viewBox="0 0 100 100"><circle cx="12" r="2.2"/></svg>')
    assert not numbers_left('{% include "crews/counter.html" with amount=1 text="+1" %}')
    assert not numbers_left('<input maxlength="120" id="harm-{{ pk }}-2">')
    assert not numbers_left('<label><input type="checkbox" name="push" value="1"> Push</label>')
    assert not numbers_left("<button hx-vals='{\"amount\": 1}'>Stash 1 coin</button>")
    assert not numbers_left('<input type="hidden" name="coin" value="{{ rule.raise_coin }}">')
    assert not numbers_left('<input type="hidden" name="amount" value="1">')
    assert not numbers_left("<strong>{{ v.pool }}d</strong> · Add 1 rep")
