"""The floors hold in the templates too: a lower app's template loads no tag library of
a higher app and includes or extends none of its templates. import-linter reads only
Python; these names are read here from the templates' own tags. A higher app adds its
part of a lower app's page through sessions/panels.py, which the page loops over
without naming it.

A template's floor is its app's (templates/<app>/, and registration/ for accounts, as
Django's login views name it); a tag library's is the app that defines it. Templates
directly under templates/ (base.html, form_fields.html) are the ground: they name no app.
"""

from pathlib import Path

import pytest
from django.conf import settings
from django.template.backends.django import get_installed_libraries
from django.template.base import Lexer, TokenType

from tests.test_layers import floors

# Django's auth views look for the login page under registration/.
FOLDERS = {"registration": "accounts"}
GROUND = -1


def floor_of() -> dict[str, int]:
    return {app: number for number, app in enumerate(floors())}


def library_apps() -> dict[str, str]:
    """Tag library name → the project app that defines it."""
    apps = set(floors())
    return {
        name: module.split(".")[0]
        for name, module in get_installed_libraries().items()
        if module.split(".")[0] in apps
    }


def names(source: str) -> list[tuple[str, str]]:
    """("load", library) and ("include"/"extends", template) for each tag naming one by
    a literal; a name held in a variable (a registered panel) is decided at run time."""
    found = []
    for token in Lexer(source).tokenize():
        if token.token_type != TokenType.BLOCK:
            continue
        bits = token.split_contents()
        if bits[0] == "load":
            libraries = [bits[-1]] if len(bits) > 3 and bits[-2] == "from" else bits[1:]
            found += [("load", library) for library in libraries]
        elif bits[0] in ("include", "extends") and len(bits) > 1 and bits[1][:1] in "'\"":
            found.append((bits[0], bits[1][1:-1]))
    return found


def upward(floor: int, source: str) -> list[str]:
    """What `source`, a template on `floor`, names of a floor above it."""
    floors_ = floor_of()
    libraries = library_apps()
    found = []
    for tag, name in names(source):
        if tag == "load":
            app = libraries.get(name)
        else:
            folder = name.split("/")[0] if "/" in name else ""
            app = FOLDERS.get(folder, folder)
        if app in floors_ and floors_[app] > floor:
            found.append(f"{{% {tag} {name} %}} ({app})")
    return found


def templates() -> list[tuple[Path, int]]:
    root = Path(settings.BASE_DIR) / "templates"
    floors_ = floor_of()
    found = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        parts = path.relative_to(root).parts
        app = FOLDERS.get(parts[0], parts[0]) if len(parts) > 1 else None
        found.append((path, GROUND if app is None else floors_[app]))
    return found


def test_every_template_is_on_a_floor():
    found = {floor for _, floor in templates()}
    assert GROUND in found and floor_of()["sessions"] in found and floor_of()["rolls"] in found


def test_no_template_names_a_floor_above_its_own():
    root = Path(settings.BASE_DIR)
    found = [
        f"{path.relative_to(root)}: {name}"
        for path, floor in templates()
        for name in upward(floor, path.read_text())
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("source", "named"),
    [
        ("{% load partials party %}", ["{% load party %} (characters)"]),
        ("{% load table_phase from phase_tags %}", ["{% load phase_tags %} (play)"]),
        (
            '{% include "rolls/flow.html#flow-panel" %}',
            ["{% include rolls/flow.html#flow-panel %} (rolls)"],
        ),
        ("{% extends 'crews/crew.html' %}", ["{% extends crews/crew.html %} (crews)"]),
        ('{% include "registration/login.html" %}', []),  # accounts is below sessions
        ('{% include "sessions/table.html#dice" %}{% load audience %}', []),
        ("{% for panel in panels.main %}{% include panel %}{% endfor %}", []),
    ],
)
def test_a_sessions_template_naming_an_app_above_is_caught(source, named):
    assert upward(floor_of()["sessions"], source) == named
