import pytest

from chronicle import discord as relay
from tests.factories import DiscordHookFactory

PLAYERS_PATH = "/api/webhooks/111/players-token"
GM_PATH = "/api/webhooks/222/gm-token"


@pytest.fixture
def discord(httpserver, settings):
    """pytest-httpserver standing in for Discord, allowed as a webhook host for the test
    only; quick retries. Waits for the relay to finish before the server goes."""
    settings.DISCORD_WEBHOOK_ORIGINS = (
        *settings.DISCORD_WEBHOOK_ORIGINS,
        httpserver.url_for("").rstrip("/"),
    )
    settings.DISCORD_BACKOFF = 0.05
    settings.DISCORD_TIMEOUT = 2
    yield httpserver
    relay.wait_idle()


@pytest.fixture
def hook(table, discord):
    return DiscordHookFactory(
        table=table,
        players_url=discord.url_for(PLAYERS_PATH),
        gm_url=discord.url_for(GM_PATH),
    )


def posts(httpserver, path: str) -> list[dict]:
    """The embeds posted to one webhook, once the relay is idle."""
    relay.wait_idle()
    return [
        request.get_json()["embeds"][0] for request, _ in httpserver.log if request.path == path
    ]
