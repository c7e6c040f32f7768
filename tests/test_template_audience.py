"""No template decides who sees what. A template draws what it was handed for its
audience (a clock's audience view, sessions.audience.ClockView, whose fill is absent
where the audience does not see it) and asks the named predicates the views' guards
ask (`may.keep_journal`, `clock.can.edit`); it never reads the viewer's `is_gm`, and
never a clock's fill but through the view's `progress`."""

import re
from pathlib import Path

from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"
# The viewer's flag itself; `member.is_gm` (a member of the list, shown to all) is a fact
# about that member, not a question of who is looking.
IS_GM = re.compile(r"(?<![\w.])is_gm\b")
# A clock's fill, read anywhere but from an audience view's `progress`.
FILL = re.compile(r"(?<!progress)\.(filled|full)\b")


def _lines(pattern: re.Pattern) -> list[str]:
    found = []
    for path in sorted(p for p in TEMPLATES.rglob("*") if p.is_file()):
        name = str(path.relative_to(TEMPLATES))
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                found.append(f"{name}:{number}")
    return found


def test_no_template_asks_is_gm():
    assert _lines(IS_GM) == []


def test_no_template_reads_a_clocks_fill_but_from_its_audience_view():
    assert _lines(FILL) == []


def test_the_checks_see_what_they_look_for(tmp_path):
    assert IS_GM.search("{% if is_gm %}") and not IS_GM.search("{% if member.is_gm %}")
    assert FILL.search("{{ clock.filled }}") and FILL.search("{% if clock.full %}")
    assert not FILL.search("{{ clock.progress.filled }}{% if clock.progress.full %}")
