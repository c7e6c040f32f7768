from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from crews import actions
from crews.models import Screen
from tests.factories import (
    ActionRollFactory,
    CharacterFactory,
    ClockFactory,
    FactionFactory,
    RollFactory,
    TableFactory,
)

HTMX = {"HX-Request": "true"}


@pytest.fixture
def shared(table):
    actions.create_crew(table=table, crew_type="smugglers", name="Wharf Rats")
    return actions.new_screen_link(table=table)


def test_shared_link_shows_the_books_without_login(client, table, shared):
    page = client.get(reverse("screen_shared", args=[shared.token])).content.decode()
    assert "Wharf Rats" in page and "Heat" in page


def test_shared_link_never_shows_gm_only_things(client, table, shared):
    ClockFactory(table=table, name="Secret plot", visibility="gm")
    ClockFactory(table=table, name="Open threat")
    RollFactory(table=table, secret=True, note="GM whisper")
    RollFactory(table=table, note="Loud roll")
    FactionFactory(table=table, name="Hidden Cabal", hidden=True, status=-3)
    for url in (reverse("screen_shared", args=[shared.token]), reverse("screen", args=[table.pk])):
        client.force_login(table.gm)
        page = client.get(url).content.decode()
        assert "Open threat" in page and "Loud roll" in page
        assert "Secret plot" not in page and "GM whisper" not in page and "At war" not in page
        assert "Tick Open threat" not in page  # read-only


def test_refresh_returns_only_the_body(client, table, shared):
    response = client.get(
        reverse("screen_shared", args=[shared.token]), headers={"HX-Request": "true"}
    )
    assert response.content.decode().lstrip().startswith('<div id="screen-body"')


def test_new_link_replaces_the_old_and_revoke_ends_it(client, table, gm, shared):
    client.force_login(gm)
    client.post(reverse("screen_link", args=[table.pk]))
    assert client.get(reverse("screen_shared", args=[shared.token])).status_code == 404
    fresh = Screen.objects.get(table=table)
    client.logout()
    assert client.get(reverse("screen_shared", args=[fresh.token])).status_code == 200
    client.force_login(gm)
    client.post(reverse("screen_link", args=[table.pk]), {"revoke": "1"})
    client.logout()
    assert client.get(reverse("screen_shared", args=[fresh.token])).status_code == 404


def test_only_the_gm_hands_out_links(client, table, player, outsider):
    client.force_login(player)
    assert client.post(reverse("screen_link", args=[table.pk])).status_code == 403
    assert client.get(reverse("screen", args=[table.pk])).status_code == 200
    client.force_login(outsider)
    assert client.get(reverse("screen", args=[table.pk])).status_code == 404
    assert client.get(reverse("screen_shared", args=["not-a-token"])).status_code == 404


def test_screen_queries_do_not_grow(client, db):
    counts = []
    for n in (1, 10):
        table = TableFactory()
        actions.create_crew(table=table, crew_type="cult", name="Cult")
        screen = actions.new_screen_link(table=table)
        for _ in range(n):
            ClockFactory(table=table)
            FactionFactory(table=table)
            # A roll in progress, rolled, with its line in the log and a helper.
            log = RollFactory(table=table)
            ActionRollFactory(
                table=table, step="consequences", pool=2, dice=[6, 2], outcome="success",
                log=log, assister=CharacterFactory(table=table),
            )  # fmt: skip
        # The fetch every signal makes, drawn as the players see it.
        with CaptureQueriesContext(connection) as queries:
            client.get(reverse("screen_shared", args=[screen.token]), headers=HTMX)
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_dice_tumble_only_just_after_they_fell(client, table, shared):
    """The body is drawn again on every change at the table: dice that fell a while ago
    keep still, or every tick would roll them again on the TV."""
    url = reverse("screen_shared", args=[shared.token])
    log = RollFactory(table=table)
    ActionRollFactory(
        table=table, step="consequences", pool=2, dice=[6, 2], outcome="success", log=log
    )
    body = client.get(url, headers=HTMX).content.decode()
    # The roll in progress, and the newest line of the log.
    assert body.count('class="dice tumble"') == 1 and "screen-rolls fresh" in body
    RollFactory._meta.model.objects.filter(pk=log.pk).update(
        created=timezone.now() - timedelta(seconds=30)
    )
    body = client.get(url, headers=HTMX).content.decode()
    assert "tumble" not in body and "fresh" not in body
