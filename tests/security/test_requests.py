"""CSRF, foreign origins, HTML in names, invite tokens and oversized input."""

import math
from collections import Counter

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from blades.asgi import application
from characters.models import Character
from sessions import actions
from sessions.models import Table
from tests.factories import CharacterFactory, ClockFactory, TableFactory
from tests.sockets import Socket

NON_TABLE_POSTS = ["table_list", "signup", "login", "logout"]


def test_csrf_is_enforced_on_every_post(scene):
    browser = Client(enforce_csrf_checks=True)
    for user in (scene.gm, scene.player):
        browser.force_login(user)
        urls = [u.url for u in scene.urls(character=scene.character)]
        urls += [reverse(name) for name in NON_TABLE_POSTS]
        urls.append(reverse("join", args=[scene.table.invite_token]))
        for url in urls:
            response = browser.post(url, {"ticks": "1", "name": "x"})
            assert response.status_code == 403, url
            assert b"CSRF" in response.content, url


def test_csrf_token_from_the_page_is_accepted(scene):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(scene.gm)
    browser.get(reverse("table_detail", args=[scene.table.pk]))
    token = browser.cookies["csrftoken"].value
    response = browser.post(
        reverse("clock_tick", args=[scene.table.pk, scene.clock.pk]),
        {"ticks": "1"},
        headers={"X-CSRFToken": token},
    )
    assert response.status_code == 302


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_socket_from_a_foreign_origin_is_refused():
    table = await database_sync_to_async(TableFactory)()

    def cookie():
        client = Client()
        client.force_login(table.gm)
        return f"sessionid={client.cookies['sessionid'].value}".encode()

    session = await database_sync_to_async(cookie)()
    for origin in (b"https://evil.example", b"http://127.0.0.1.evil.example", None):
        headers = [(b"cookie", session)]
        if origin:
            headers.append((b"origin", origin))
        communicator = Socket(application, f"/ws/tables/{table.pk}/", headers=headers)
        connected, _ = await communicator.connect()
        assert not connected, origin
        await communicator.disconnect()


def test_html_in_names_and_notes_is_shown_as_text(client, table, gm, player):
    evil = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    Table.objects.filter(pk=table.pk).update(name=evil)
    character = CharacterFactory(table=table, owner=player, name=evil, notes=evil, look=evil)
    actions.quick_roll(table=table, roller=player, kind="action", pool=1, note=evil)

    ClockFactory(table=table, name=evil)
    client.force_login(gm)
    pages = [
        client.get(reverse("table_detail", args=[table.pk])).content,
        client.get(reverse("character_sheet", args=[table.pk, character.pk])).content,
        client.get(reverse("table_list")).content,
    ]
    for page in pages:
        assert b"<script>alert" not in page and b"<img src=x" not in page
        assert b"&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


def entropy_bits(token: str) -> float:
    counts = Counter(token)
    return -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values()) * len(token)


def test_invite_tokens_are_long_random_and_distinct(db):
    tokens = [TableFactory().invite_token for _ in range(50)]
    assert len(set(tokens)) == 50
    for token in tokens:
        # 24 random bytes make 32 URL-safe characters: 192 bits of the OS's randomness.
        assert len(token) >= 32
        assert entropy_bits(token) > 100
        assert token.replace("-", "").replace("_", "").isalnum()


def test_a_revoked_invite_admits_nobody(client, table, gm, outsider):
    token = table.invite_token
    client.force_login(gm)
    client.post(reverse("invite_revoke", args=[table.pk]))
    client.force_login(outsider)
    assert client.post(reverse("join", args=[token])).status_code == 404
    assert not table.memberships.filter(user=outsider).exists()
    # A new link works; the old one stays dead.
    client.force_login(gm)
    client.post(reverse("invite_regenerate", args=[table.pk]))
    table.refresh_from_db()
    assert table.invite_token != token
    client.force_login(outsider)
    assert client.post(reverse("join", args=[token])).status_code == 404
    assert client.post(reverse("join", args=[table.invite_token])).status_code == 302
    assert table.memberships.filter(user=outsider).exists()


def test_a_one_megabyte_note_is_refused_cleanly(client, table, player):
    character = CharacterFactory(table=table, owner=player)
    client.force_login(player)
    response = client.post(
        reverse("character_move", args=[table.pk, character.pk, "notes"]),
        {"notes": "x" * 1_000_000},
    )
    assert response.status_code == 400
    assert Character.objects.get(pk=character.pk).notes == ""


@pytest.mark.parametrize(
    "url_name,field,extra",
    [
        ("table_list", "name", {}),
        ("roll_create", "note", {"kind": "fortune", "pool": "2"}),
        ("clock_create", "new-clock-name", {"new-clock-segments": "4"}),
    ],
)
def test_a_ten_thousand_character_name_is_refused_next_to_the_field(
    client, table, gm, url_name, field, extra
):
    client.force_login(gm)
    args = [] if url_name == "table_list" else [table.pk]
    before = (Table.objects.count(), table.rolls.count(), table.clocks.count())
    response = client.post(
        reverse(url_name, args=args),
        {
            field: "n" * 10_000,
            "new-clock-kind": "danger",
            "new-clock-visibility": "everyone",
            **extra,
        },
        headers={"HX-Request": "true"},
    )
    assert response.status_code in {200, 422}
    assert b"at most" in response.content
    assert (Table.objects.count(), table.rolls.count(), table.clocks.count()) == before


def test_a_ten_thousand_character_character_name_is_refused(client, table, player):
    character = CharacterFactory(table=table, owner=player, name="Kept")
    client.force_login(player)
    response = client.post(
        reverse("character_edit", args=[table.pk, character.pk]), {"name": "n" * 10_000}
    )
    assert response.status_code == 422
    assert Character.objects.get(pk=character.pk).name == "Kept"
