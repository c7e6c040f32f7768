"""The links a GM hands out (the invite, the shared screen) are made from PUBLIC_URL, the
address the others reach, not from the GM's own browser's (127.0.0.1 on the server)."""

import pytest
from django.test import override_settings
from django.urls import reverse

from crews import actions


@pytest.fixture
def shared(table):
    return actions.new_screen_link(table=table)


def links(client, table, shared) -> tuple[str, str]:
    client.force_login(table.gm)
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    screen = client.get(reverse("screen", args=[table.pk])).content.decode()
    invite = reverse("join", args=[table.invite_token])
    share = reverse("screen_shared", args=[shared.token])
    return (
        next(p for p in page.split('"') if p.endswith(invite)),
        next(p for p in screen.split('"') if p.endswith(share)),
    )


@override_settings(PUBLIC_URL="http://192.0.2.7:8000")
def test_links_are_made_from_the_public_url(client, table, shared):
    invite, screen = links(client, table, shared)
    assert invite == f"http://192.0.2.7:8000{reverse('join', args=[table.invite_token])}"
    assert screen == f"http://192.0.2.7:8000{reverse('screen_shared', args=[shared.token])}"


def test_without_one_links_are_made_from_the_address_asked(client, table, shared):
    invite, screen = links(client, table, shared)
    assert invite == f"http://testserver{reverse('join', args=[table.invite_token])}"
    assert screen == f"http://testserver{reverse('screen_shared', args=[shared.token])}"
