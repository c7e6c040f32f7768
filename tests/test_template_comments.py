"""A `{# ... #}` comment ends on its own line: Django reads one spread over several lines
as text and shows it on the page (the CSP note in base.html once did, on every page)."""

from pathlib import Path

import pytest
from django.conf import settings

TEMPLATES = sorted((Path(settings.BASE_DIR) / "templates").rglob("*.html"))


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda path: path.name)
def test_every_short_comment_closes_on_its_line(path):
    open_lines = [
        number
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if line.count("{#") > line.count("#}")
    ]
    assert open_lines == [], f"use {{% comment %}} for a comment over several lines: {open_lines}"
