"""The Content-Security-Policy: scripts and styles from this site's files only, and no
page that needs more (an inline script, an inline handler, code htmx would evaluate)."""

import re

import pytest

from tests.security.conftest import build_scene

pytestmark = pytest.mark.django_db

# What a page would need 'unsafe-inline' or 'unsafe-eval' for.
INLINE = [
    re.compile(rb"<script(?![^>]*\ssrc=)[^>]*>"),  # an inline script
    re.compile(rb"<[^>]+\son[a-z]+\s*=", re.IGNORECASE),  # onclick= and the like
    re.compile(rb"\shx-on[:-]"),  # htmx's inline handlers, evaluated
    re.compile(rb"\shx-(?:vals|vars|headers)=['\"]\s*(?:js|javascript):"),
    re.compile(rb"\shx-trigger=\"[^\"]*\["),  # an event filter, evaluated
    re.compile(rb"<style[\s>]"),
    re.compile(rb"<[^>]+\sstyle\s*=", re.IGNORECASE),
    re.compile(rb"javascript:", re.IGNORECASE),
]


def test_every_page_carries_the_policy(client, db):
    response = client.get("/accounts/login/")
    policy = response.headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy


def test_no_page_needs_inline_code(client):
    from crews import actions as crew_actions

    scene = build_scene()
    crew_actions.create_crew(table=scene.table, crew_type="shadows", name="Crew")
    screen = crew_actions.new_screen_link(table=scene.table)
    pages = [("login", "/accounts/login/"), ("signup", "/accounts/signup/")]
    client.force_login(scene.gm)
    seen = 0
    for url in [*scene.urls(character=scene.character), ("screen", f"/screen/{screen.token}/")]:
        name, path = url if isinstance(url, tuple) else (url.name, url.url)
        pages.append((name, path))
    for name, path in pages:
        response = client.get(path)
        if response.status_code != 200 or b"<html" not in response.content:
            continue
        seen += 1
        for pattern in INLINE:
            match = pattern.search(response.content)
            assert match is None, f"{name} ({path}) needs inline code: {match.group(0)[:80]!r}"
    assert seen >= 8  # the table, sheet, crew, factions, phase, screen and account pages


def test_no_template_holds_inline_code():
    """Pushed fragments too: every template file, as written."""
    from django.conf import settings

    templates = sorted(settings.BASE_DIR.glob("templates/**/*.html"))
    assert len(templates) > 10
    for template in templates:
        source = template.read_bytes()
        for pattern in INLINE:
            match = pattern.search(source)
            assert match is None, f"{template.name} needs inline code: {match.group(0)[:80]!r}"
