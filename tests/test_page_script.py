"""The page's own script keeps only what htmx cannot do (issue 27): under 200 lines, and
no script of the site reads or sets a handle on `window` for a test to turn (a test
reaches into the page itself)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# What the site's scripts take from `window`: the browser's own, and htmx's. A new name
# belongs here only if the browser or a vendored library defines it.
BROWSERS_OWN = {"htmx", "matchMedia", "isSecureContext"}


def test_the_tables_script_is_under_200_lines():
    assert len((ROOT / "static/js/table.js").read_text().splitlines()) < 200


def test_no_script_of_the_site_keeps_a_handle_on_window_for_tests():
    for script in sorted((ROOT / "static" / "js").glob("*.js")):
        names = set(re.findall(r"\bwindow\.(\w+)", script.read_text()))
        assert names <= BROWSERS_OWN, (script.name, names - BROWSERS_OWN)
