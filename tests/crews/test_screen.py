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


def test_a_link_made_over_htmx_answers_with_the_share_fold_open(client, table, gm, shared):
    """Issue 40: a page load folded the share panel shut over the link just made."""
    client.force_login(gm)
    page = client.get(reverse("screen", args=[table.pk])).content.decode()
    assert '<details id="screen-share" class="card">' in page and "autofocus" not in page
    response = client.post(reverse("screen_link", args=[table.pk]), headers=HTMX)
    answer = response.content.decode()
    fresh = Screen.objects.get(table=table)
    assert response.status_code == 200
    assert answer.lstrip().startswith('<details id="screen-share" class="card" open>')
    assert f'value="http://testserver/screen/{fresh.token}/" autofocus' in answer
    assert shared.token not in answer and 'id="screen-body"' not in answer
    revoked = client.post(reverse("screen_link", args=[table.pk]), {"revoke": "1"}, headers=HTMX)
    assert "Make a link" in revoked.content.decode() and fresh.token not in revoked.content.decode()


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


def test_a_revoked_or_renewed_link_says_so_in_the_apps_look(client, table, shared):
    old = reverse("screen_shared", args=[shared.token])
    actions.new_screen_link(table=table)
    for url in (old, reverse("overlay_clocks", args=[shared.token]), "/screen/x%00y/"):
        response = client.get(url)
        assert response.status_code == 404
        page = response.content.decode()
        assert "This screen&#x27;s link was revoked — ask the GM for the new one." in page
        assert 'class="site"' in page and "table.css" in page
    # A page's own fetch of its body gets the message in the body's place.
    body = client.get(old, headers=HTMX)
    assert body.status_code == 404
    assert body.content.decode().startswith('<div id="screen-body" class="screen-revoked">')


@pytest.mark.parametrize(
    ("part", "shown", "not_shown"),
    [
        ("clocks", "Open threat", ("Sable", "Slip past")),
        ("roll", "Slip past", ("Open threat", "Sable: stress")),
        ("party", "Sable: stress 0 of 9", ("Open threat", "Slip past")),
    ],
)
def test_each_overlay_is_its_part_alone_without_chrome(
    client, table, shared, part, shown, not_shown
):
    ClockFactory(table=table, name="Open threat")
    ClockFactory(table=table, name="Secret plot", visibility="gm")
    sable = CharacterFactory(table=table, name="Sable")
    ActionRollFactory(table=table, character=sable, goal="Slip past the watch")
    ActionRollFactory(table=table, character=sable, goal="Secret plot's end", secret=True)
    url = reverse(f"overlay_{part}", args=[shared.token])
    page = client.get(url, {"width": "640", "scale": "1.5"}).content.decode()
    assert shown in page
    assert all(text not in page for text in not_shown)
    assert "Secret plot" not in page
    assert 'class="site"' not in page and "Wharf Rats" not in page  # no chrome, no books
    assert 'data-width="640"' in page and 'data-scale="1.5"' in page
    assert f'ws-connect="/ws/screen/{shared.token}/"' in page
    body = client.get(url, headers=HTMX).content.decode()
    assert body.lstrip().startswith('<div id="screen-body"') and shown in body


@pytest.mark.parametrize("query", [{"width": "wide"}, {"width": "99999"}, {"scale": "0"}])
def test_an_overlays_size_out_of_bounds_is_named(client, table, shared, query):
    response = client.get(reverse("overlay_clocks", args=[shared.token]), query)
    assert response.status_code == 400
    assert f"{next(iter(query))}:" in response.content.decode()


def test_the_screen_offers_no_tick_on_a_clock_players_may_tick(client, table, player, shared):
    """The screen is read-only for everyone in the room: neither the TV nor the clocks
    overlay offers a player's tick, even on a clock the players may tick."""
    ClockFactory(table=table, name="Open threat", players_tick=True)
    client.force_login(player)
    urls = (
        reverse("screen", args=[table.pk]),
        reverse("screen_shared", args=[shared.token]),
        reverse("overlay_clocks", args=[shared.token]),
    )
    for url in urls:
        page = client.get(url).content.decode()
        assert "Open threat" in page, url
        assert "You may tick" not in page and "Tick Open threat" not in page, url
