"""The apps are floors: sessions at the bottom imports none of the others, and no two
apps import each other, however far round. Read from the source with `ast`, so an
import inside a function counts as much as one at the top.

The table page and the reconnect snapshot still show every floor's part: the apps
above add them through sessions/panels.py.
"""

import ast
import tomllib
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.db.migrations.loader import MigrationLoader

from crews import actions as crew_actions
from sessions import live, panels
from tests.factories import CharacterFactory


def floors() -> list[str]:
    """The project's apps from the ground up, as the import contract in pyproject lists
    them (top first there)."""
    config = tomllib.loads((Path(settings.BASE_DIR) / "pyproject.toml").read_text())
    (layers,) = (
        contract["layers"]
        for contract in config["tool"]["importlinter"]["contracts"]
        if contract["type"] == "layers"
    )
    return [name for name in reversed(layers) if name in project_apps()]


def project_apps() -> dict[str, Path]:
    base = Path(settings.BASE_DIR)
    return {
        config.name: Path(config.path)
        for config in apps.get_app_configs()
        if Path(config.path).parent == base
    }


def imported_apps(name: str, folder: Path, names: set[str]) -> dict[str, set[str]]:
    """The other project apps that `name` imports → the modules of `name` importing them."""
    found: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        module = ".".join(path.relative_to(folder.parent).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                targets = [node.module]
            else:
                continue  # a relative import stays inside its own app
            for target in targets:
                top = target.split(".")[0]
                if top in names and top != name:
                    found.setdefault(top, set()).add(module)
    return found


def import_graph() -> dict[str, dict[str, set[str]]]:
    found = project_apps()
    return {name: imported_apps(name, folder, set(found)) for name, folder in found.items()}


def test_the_walk_sees_the_apps_and_their_imports():
    graph = import_graph()
    assert {"sessions", "characters", "crews", "rolls"} <= set(graph)
    assert "rolls.actions" in graph["rolls"]["characters"]


def test_sessions_imports_no_other_app():
    # But accounts, the floor below it: an invite link's own sign-up is the accounts'
    # form (sessions/views.py join_signup).
    assert set(import_graph()["sessions"]) <= {"accounts"}
    assert import_graph()["accounts"] == {}


def test_no_apps_import_each_other_however_far_round():
    graph = import_graph()

    def cycle_from(start: str, path: list[str]) -> list[str] | None:
        for above in graph[path[-1]]:
            if above == start:
                return [*path, start]
            if above not in path:
                found = cycle_from(start, [*path, above])
                if found:
                    return found
        return None

    for name in graph:
        cycle = cycle_from(name, [name])
        assert cycle is None, " → ".join(cycle or [])


@pytest.mark.django_db
def test_the_snapshot_brings_every_floors_part(table, player):
    character = CharacterFactory(table=table, owner=player, name="Sable")
    crew = crew_actions.create_crew(table=table, crew_type="shadows", name="The Lampblacks' Bane")
    for is_gm in (True, False):
        snapshot = live.snapshot(table.pk, is_gm, "en").frame()
        assert 'id="clock-list"' in snapshot and 'id="roll-log"' in snapshot  # sessions
        assert f'id="party-{character.pk}"' in snapshot  # characters
        assert f'id="sheet-signal-{character.pk}"' in snapshot
        assert f'id="crew-{crew.pk}-books"' in snapshot  # crews
        assert 'id="faction-ladder"' in snapshot
        assert 'id="flow-signal"' in snapshot  # rolls


def test_the_table_page_draws_every_floors_panel_where_it_was(client, table, gm):
    crew_actions.create_crew(table=table, crew_type="shadows", name="The Lampblacks' Bane")
    client.force_login(gm)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    marks = [
        "Table settings and backup",  # backup, in the line naming the GM
        'class="crew-links"',  # crews
        'class="chronicle-links"',  # chronicle
        f'id="session-control-{table.pk}"',
        "crew-summary",  # crews
        f'id="phase-{table.pk}-line"',  # play
        'id="presence"',  # sessions: the header ends with who is here
        'id="flow-heading"',  # rolls, above the roll log
        'id="rolls-heading"',
        'id="clocks-heading"',
        'id="party-heading"',  # characters, between the clocks and the players
        'id="members-heading"',
    ]
    places = [page.find(mark) for mark in marks]
    assert -1 not in places and places == sorted(places), dict(zip(marks, places, strict=True))


def test_a_panel_goes_to_a_place_the_page_has():
    with pytest.raises(ValueError):
        panels.Panel("crews/table_panels.html#links", place="footer", order=1)


def test_the_table_page_shows_the_action_roll_card(client, table, player):
    CharacterFactory(table=table, owner=player, name="Sable")
    client.force_login(player)
    page = client.get(f"/tables/{table.pk}/")
    assert page.status_code == 200
    assert b'id="flow-panel"' in page.content and b'id="flow-start"' in page.content


# Written before the action roll had an app of its own (it began in sessions, pointing at
# sheets) and when it moved out; databases have run them, so they stay as they were.
SESSIONS_HISTORY = {
    "0002_roll_character",
    "0003_action_roll_flow",
    "0005_action_roll_moves_to_rolls",
}


def test_the_base_apps_migrations_point_at_no_app_above_it():
    order = floors()
    labels = {config.name: config.label for config in apps.get_app_configs()}
    above = {labels[name] for name in order[order.index("sessions") + 1 :]}
    loader = MigrationLoader(None, ignore_no_migrations=True)
    upward = {
        name: {app for app, _ in migration.dependencies if app in above}
        for (app, name), migration in loader.disk_migrations.items()
        if app == "table_sessions"
    }
    assert {name for name, found in upward.items() if found} == SESSIONS_HISTORY
    # And what the migrations leave: no table of sessions keeps a key to a row above it.
    state = loader.project_state()
    for (app, _), model in state.models.items():
        if app == "table_sessions":
            targets = {field.related_model for field in model.fields.values() if field.is_relation}
            assert not {str(t).split(".")[0].lower() for t in targets} & above, model.name
