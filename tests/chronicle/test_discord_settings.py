import json

import pytest
from django.test import Client

from backup.tables import dumps, export_table
from chronicle import discord
from chronicle.discord import valid_webhook
from chronicle.models import DiscordHook
from tests.factories import DiscordHookFactory

URL = "https://discord.com/api/webhooks/123456789012345678/AbC-dEf_123"


@pytest.mark.parametrize(
    "url, valid",
    [
        (URL, True),
        ("https://discordapp.com/api/webhooks/1/token", True),
        ("http://discord.com/api/webhooks/1/token", False),
        ("https://discord.com.evil.example/api/webhooks/1/token", False),
        ("https://discord.com/api/webhooks/1/token/../../../users", False),
        ("https://discord.com/api/webhooks/1/token?wait=true", False),
        ("http://127.0.0.1:8000/api/webhooks/1/token", False),
        ("https://discord.com/api/webhooks/abc/token", False),
        # What Discord's clients copy: its test builds, the versioned API, a forum thread.
        ("https://canary.discord.com/api/webhooks/1/token", True),
        ("https://ptb.discord.com/api/webhooks/1/token", True),
        ("https://discord.com/api/v10/webhooks/1/token", True),
        ("https://discord.com/api/v9/webhooks/1/token", True),
        ("https://discord.com/api/webhooks/1/token?thread_id=1234567890", True),
        ("https://canary.discord.com/api/v10/webhooks/1/token?thread_id=12", True),
        # And still nothing else.
        ("https://discord.com/api/webhooks/1/token?thread_id=12&wait=true", False),
        ("https://discord.com/api/webhooks/1/token?wait=true&thread_id=12", False),
        ("https://discord.com/api/webhooks/1/token?thread_id=", False),
        ("https://discord.com/api/webhooks/1/token?thread_id=12#x", False),
        ("https://discord.com/api/webhooks/1/token?thread_id=12/../../users", False),
        ("https://discord.com/api/webhooks/1/token#fragment", False),
        ("https://discord.com/api/vx/webhooks/1/token", False),
        ("https://discord.com/api/v/webhooks/1/token", False),
        ("https://discord.com/api/v10/../webhooks/1/token", False),
        ("https://discord.com:443/api/webhooks/1/token", False),
        ("https://user:pass@discord.com/api/webhooks/1/token", False),
        ("https://discord.com@evil.example/api/webhooks/1/token", False),
        ("https://canary.discord.com.evil.example/api/webhooks/1/token", False),
        ("https://evil.discord.com/api/webhooks/1/token", False),
        ("https://canary.evil.example/api/webhooks/1/token", False),
        ("http://canary.discord.com/api/webhooks/1/token", False),
        ("ftp://discord.com/api/webhooks/1/token", False),
        ("//discord.com/api/webhooks/1/token", False),
        ("https://discord.com/api/webhooks/1/token\n", False),
        ("https://discord.com/api/webhooks/1/token/", False),
    ],
)
def test_only_discord_webhooks_are_accepted(url, valid):
    assert valid_webhook(url) is valid


def test_the_gm_saves_webhooks(client, table, gm):
    client.force_login(gm)
    response = client.post(f"/tables/{table.pk}/discord/", {"players_url": URL, "gm_url": ""})
    assert response.status_code == 302
    assert DiscordHook.objects.get(table=table).players_url == URL
    page = client.get(response.url).content.decode()
    assert "Webhooks saved." in page
    assert "Send a test post" in page
    # Said once: the next visit is quiet.
    assert "Webhooks saved." not in client.get(response.url).content.decode()


@pytest.fixture
def jobs(monkeypatch):
    """The relay's jobs, held instead of run (tests/chronicle/test_discord.py posts them)."""
    handed = []
    monkeypatch.setattr(discord, "enqueue", handed.append)
    return handed


def test_a_test_post_without_a_webhook_is_refused_in_words(client, table, gm, jobs):
    client.force_login(gm)
    assert "Send a test post" not in client.get(f"/tables/{table.pk}/discord/").content.decode()
    response = client.post(f"/tables/{table.pk}/discord/test/")
    assert response.status_code == 422
    assert "Save a webhook first" in response.content.decode()
    assert jobs == []


def test_only_the_gm_sends_a_test_post(client, table, player, jobs):
    DiscordHookFactory(table=table, players_url=URL)
    client.force_login(player)
    assert client.post(f"/tables/{table.pk}/discord/test/").status_code == 403
    assert jobs == []


def test_a_test_post_needs_the_csrf_token(table, gm, jobs):
    DiscordHookFactory(table=table, players_url=URL)
    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(gm)
    assert guarded.post(f"/tables/{table.pk}/discord/test/").status_code == 403
    assert jobs == []


def test_a_url_that_is_not_a_webhook_is_refused_beside_its_field(client, table, gm):
    client.force_login(gm)
    response = client.post(
        f"/tables/{table.pk}/discord/",
        {"players_url": "http://169.254.169.254/latest/meta-data", "gm_url": ""},
    )
    assert response.status_code == 422
    assert "Paste a Discord webhook URL" in response.content.decode()
    assert not DiscordHook.objects.exists()


def test_players_never_see_the_webhooks(client, table, player, outsider):
    DiscordHookFactory(table=table, players_url=URL)
    client.force_login(player)
    assert client.get(f"/tables/{table.pk}/discord/").status_code == 403
    assert client.post(f"/tables/{table.pk}/discord/", {"players_url": ""}).status_code == 403
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "webhooks" not in page
    assert f"/tables/{table.pk}/discord/" not in page
    client.force_login(outsider)
    assert client.get(f"/tables/{table.pk}/discord/").status_code == 404


def test_the_gm_finds_the_settings_from_the_table(client, table, gm):
    client.force_login(gm)
    assert f"/tables/{table.pk}/discord/" in client.get(f"/tables/{table.pk}/").content.decode()


def test_the_webhooks_stay_out_of_the_export(table):
    DiscordHookFactory(table=table, players_url=URL, gm_url=URL + "gm")
    document = dumps(export_table(table.pk))
    assert "webhooks" not in document
    assert "chronicle" not in {row["model"] for row in json.loads(document)["objects"]}
