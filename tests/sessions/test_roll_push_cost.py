"""What a line of the roll log costs to push (issue 18): it is read once after the commit,
with only the columns it shows, however many audiences it is drawn for."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from blades.rules.rolls import RollKind
from sessions import actions, audience
from tests.factories import CharacterFactory, ClockFactory
from tests.helpers import frames, listen


def pushed_queries(django_capture_on_commit_callbacks, make) -> list[str]:
    """The queries the push after `make`'s commit made."""
    with django_capture_on_commit_callbacks() as callbacks:
        make()
    with CaptureQueriesContext(connection) as queries:
        for callback in callbacks:
            callback()
    return [query["sql"] for query in queries]


def line_reads(queries: list[str]) -> list[str]:
    return [sql for sql in queries if sql.startswith("SELECT") and "table_sessions_roll" in sql]


def test_a_pushed_line_reads_only_the_columns_it_shows(
    table, player, django_capture_on_commit_callbacks
):
    character = CharacterFactory(table=table, owner=player, name="Vey")
    listen(table.pk, False)
    queries = pushed_queries(
        django_capture_on_commit_callbacks,
        lambda: actions.record_roll(
            table_id=table.pk, roller=player, kind=RollKind.ACTION, pool=2, character=character
        ),
    )
    [read] = line_reads(queries)
    assert '"table_sessions_roll"."character_name"' in read and '"auth_user"."username"' in read
    # Not the character's sheet (the line keeps its name), nor the roller's password hash.
    assert '"characters_character"' not in read
    assert '"auth_user"."password"' not in read


def test_a_line_naming_a_hidden_clock_is_read_once_and_drawn_for_each_audience(
    table, player, django_capture_on_commit_callbacks
):
    clock = ClockFactory(table=table, name="The Bluecoats close in", visibility="gm")
    gm, players = listen(table.pk, True), listen(table.pk, False)
    queries = pushed_queries(
        django_capture_on_commit_callbacks,
        lambda: actions.record_roll(
            table_id=table.pk,
            roller=player,
            kind=RollKind.FORTUNE,
            pool=1,
            note=f"against {audience.ref('clock', clock)}",
        ),
    )
    assert len(line_reads(queries)) == 1
    [for_gm], [for_players] = frames(gm), frames(players)
    assert "The Bluecoats close in" in for_gm
    assert "The Bluecoats" not in for_players and "a hidden clock" in for_players


def test_posting_a_roll_costs_a_handful_of_queries(
    client, table, player, django_assert_max_num_queries
):
    client.force_login(player)
    listen(table.pk, False)
    url = f"/tables/{table.pk}/rolls/"
    # The user, the membership, the write (begin, insert, commit), the languages the
    # table's sockets read and the line for the push, and the relay's list of tables with
    # a webhook once a second at most.
    with django_assert_max_num_queries(8):
        response = client.post(url, {"kind": "fortune", "pool": 2}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204
