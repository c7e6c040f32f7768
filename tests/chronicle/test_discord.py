"""The Discord relay against a real local HTTP server standing in for Discord.

Transactional: posts leave after commit, from the relay's own thread and connection."""

import re
import threading
import time
from datetime import UTC

import pytest
from werkzeug import Response

from blades.rules.rolls import RollKind
from chronicle import discord as relay
from rolls import actions as roll_actions
from rolls import outcome as roll_outcome
from sessions import actions
from sessions.models import Clock, Membership
from tests.factories import CharacterFactory, ClockFactory, DiscordHookFactory
from tests.helpers import call

from .conftest import GM_PATH, PLAYERS_PATH, posts

pytestmark = pytest.mark.django_db(transaction=True)


class Dice:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def test_a_roll_posts_its_dice_result_and_roller(table, player, hook, discord):
    discord.expect_request(PLAYERS_PATH, method="POST").respond_with_data(status=204)
    actions.quick_roll(
        table=table,
        roller=player,
        kind=RollKind.ACTION,
        pool=3,
        note="over the wall",
        rng=Dice(2, 6, 4),
    )
    [embed] = posts(discord, PLAYERS_PATH)
    assert embed["title"] == f"{player.username}: Action"
    assert "over the wall" in embed["description"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields == {"Dice": "2, 6, 4 (3d)", "Result": "Full success"}
    assert embed["footer"]["text"] == table.name
    assert posts(discord, GM_PATH) == []


def test_a_secret_roll_goes_only_to_the_gm_webhook(table, gm, hook, discord):
    discord.expect_request(GM_PATH, method="POST").respond_with_data(status=204)
    actions.quick_roll(
        table=table,
        roller=gm,
        kind=RollKind.FORTUNE,
        pool=1,
        note="the Lampblacks",
        secret=True,
        rng=Dice(3),
    )
    [embed] = posts(discord, GM_PATH)
    assert embed["title"].startswith("[GM only]")
    assert "the Lampblacks" in embed["description"]
    assert posts(discord, PLAYERS_PATH) == []


def test_without_a_gm_webhook_secrets_go_nowhere(table, gm, discord):
    DiscordHookFactory(table=table, players_url=discord.url_for(PLAYERS_PATH))
    actions.quick_roll(
        table=table, roller=gm, kind=RollKind.FORTUNE, pool=1, secret=True, rng=Dice(3)
    )
    relay.wait_idle()
    assert discord.log == []


def test_a_filled_clock_posts_once_and_a_hidden_one_only_to_the_gm(table, hook, discord):
    discord.expect_request(PLAYERS_PATH, method="POST").respond_with_data(status=204)
    discord.expect_request(GM_PATH, method="POST").respond_with_data(status=204)
    watch = ClockFactory(table=table, name="The watch closes in", segments=4, filled=2)
    plot = ClockFactory(
        table=table,
        name="The Dimmer Sisters' plot",
        segments=4,
        filled=3,
        visibility=Clock.Visibility.GM,
    )
    actions.tick_clock(clock=watch, by=1)
    assert posts(discord, PLAYERS_PATH) == []  # not full yet: no news
    actions.tick_clock(clock=watch, by=1)
    actions.tick_clock(clock=watch, by=1)  # already full: not news again
    actions.tick_clock(clock=plot, by=1)

    [public] = posts(discord, PLAYERS_PATH)
    assert public["title"] == "Clock filled: The watch closes in"
    [secret] = posts(discord, GM_PATH)
    assert "Dimmer Sisters" in secret["title"]
    assert all("Dimmer" not in str(embed) for embed in posts(discord, PLAYERS_PATH))


@pytest.mark.parametrize("visibility", [Clock.Visibility.KNOWN, Clock.Visibility.OWNER])
def test_a_filled_clock_whose_progress_players_do_not_see_goes_only_to_the_gm(
    table, player, hook, discord, visibility
):
    """A known clock's name is the players', its count is not ("full" is a count); a
    player's private clock is theirs and the GM's."""
    discord.expect_request(GM_PATH, method="POST").respond_with_data(status=204)
    owner = player if visibility == Clock.Visibility.OWNER else None
    clock = ClockFactory(table=table, name="Zq-veiled", segments=4, filled=3,
                         visibility=visibility, owner=owner)  # fmt: skip
    actions.tick_clock(clock=clock, by=1)
    [secret] = posts(discord, GM_PATH)
    assert secret["description"].endswith("4/4")
    assert posts(discord, PLAYERS_PATH) == []


def test_a_phase_change_posts_the_step_only(table, gm, hook, discord):
    from play.phases import start_score
    from tests.factories import CrewFactory

    CrewFactory(table=table)
    discord.expect_request(PLAYERS_PATH, method="POST").respond_with_data(status=204)
    start_score(
        table=table,
        plan="stealth",
        detail="the roof",
        target_name="Secret patron",
        target_tier=2,
        target_faction=None,
    )
    [embed] = posts(discord, PLAYERS_PATH)
    assert embed["title"] == "Now: The score"
    assert "Secret patron" not in str(embed)


def test_an_action_roll_posts_its_terms_when_the_dice_fall(table, player, gm, hook, discord):
    discord.expect_request(PLAYERS_PATH, method="POST").respond_with_data(status=204)
    ada = CharacterFactory(table=table, owner=player, name="Ada", prowl=2)
    ada_m = Membership.objects.get(table=table, user=player)
    gm_m = Membership.objects.get(table=table, user=gm)
    roll = roll_actions.start_roll(
        by=ada_m, character=ada, goal="slip past the guard", action="prowl"
    )
    roll_actions.set_terms(by=gm_m, roll=roll, position="desperate", effect=2)
    assert posts(discord, PLAYERS_PATH) == []  # setting up is not news
    roll_actions.roll_dice(by=ada_m, roll=roll, rng=Dice(5, 1))
    # The worker reads the line when it runs: let it run before the GM closes the roll,
    # as it does at a real table, or the post may already carry the closing note.
    relay.wait_idle()
    roll_outcome.finish(by=gm_m, roll=roll)

    # The roll's line in the log is the post (closing it later is no news to Discord).
    [embed] = posts(discord, PLAYERS_PATH)
    assert embed["title"] == f"Ada ({player.username}): Action"
    assert (
        embed["description"] == "Prowl · Desperate / Standard: Partial success\nslip past the guard"
    )
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Dice"] == "5, 1 (2d)"
    assert fields["Result"] == "Partial success"


def test_a_429_is_retried_after_discords_retry_after(table, player, hook, discord):
    discord.expect_ordered_request(PLAYERS_PATH, method="POST").respond_with_json(
        {"message": "You are being rate limited.", "retry_after": 0.4, "global": False},
        status=429,
    )
    discord.expect_ordered_request(PLAYERS_PATH, method="POST").respond_with_data(status=204)
    actions.quick_roll(table=table, roller=player, kind=RollKind.ACTION, pool=1, rng=Dice(6))
    relay.wait_idle()
    discord.check_assertions()
    first, second = (request for request, _ in discord.log)
    assert first.get_json() == second.get_json()
    hook.refresh_from_db()
    assert hook.last_error == ""


def test_a_429_waits_as_long_as_discord_asks(table, player, hook, discord, settings):
    arrivals = []

    def limited(request):
        arrivals.append(time.monotonic())
        if len(arrivals) == 1:
            return Response('{"retry_after": 0.5}', status=429, content_type="application/json")
        return Response(status=204)

    discord.expect_request(PLAYERS_PATH, method="POST").respond_with_handler(limited)
    actions.quick_roll(table=table, roller=player, kind=RollKind.ACTION, pool=1, rng=Dice(6))
    relay.wait_idle()
    assert len(arrivals) == 2
    assert arrivals[1] - arrivals[0] >= 0.5


def test_a_failing_webhook_becomes_a_warning_for_the_gm(table, player, gm, hook, discord, client):
    discord.expect_request(PLAYERS_PATH, method="POST").respond_with_data(status=502)
    actions.quick_roll(table=table, roller=player, kind=RollKind.ACTION, pool=1, rng=Dice(6))
    relay.wait_idle()
    assert len(discord.log) == 4  # DISCORD_ATTEMPTS tries, backing off
    hook.refresh_from_db()
    assert hook.last_error == "A post to the players' webhook failed: Discord answered HTTP 502."

    client.force_login(gm)
    page = client.get(f"/tables/{table.pk}/discord/").content.decode()
    assert "Discord answered HTTP 502" in page
    # When, for the GM's own clock: the instant for local-time.js, UTC said without it.
    moment = re.search(r'<time datetime="([^"]+)" data-local="datetime">([^<]+)</time>', page)
    assert moment and moment[1] == hook.last_error_at.astimezone(UTC).isoformat()
    assert moment[2].endswith(" UTC") and "js/local-time.js" in page

    # The next post that goes through clears it.
    discord.clear()
    discord.expect_request(PLAYERS_PATH, method="POST").respond_with_data(status=204)
    actions.quick_roll(table=table, roller=player, kind=RollKind.ACTION, pool=1, rng=Dice(6))
    relay.wait_idle()
    hook.refresh_from_db()
    assert hook.last_error == ""


def test_a_refused_webhook_is_not_retried(table, player, hook, discord):
    discord.expect_request(PLAYERS_PATH, method="POST").respond_with_json(
        {"message": "Unknown Webhook"}, status=404
    )
    actions.quick_roll(table=table, roller=player, kind=RollKind.ACTION, pool=1, rng=Dice(6))
    relay.wait_idle()
    assert len(discord.log) == 1
    hook.refresh_from_db()
    assert "HTTP 404" in hook.last_error


def test_the_table_keeps_rolling_while_the_webhook_hangs(table, player, hook, discord, client):
    """Discord hangs until the test lets it go: the roll answers before then, so the
    post cannot be on the request's path."""
    entered, release = threading.Event(), threading.Event()

    def hang(request):
        entered.set()
        release.wait(10)
        return Response(status=204)

    discord.expect_request(PLAYERS_PATH, method="POST").respond_with_handler(hang)
    client.force_login(player)
    try:
        for _ in range(2):
            started = time.monotonic()
            response = client.post(
                f"/tables/{table.pk}/rolls/", {"kind": "fortune", "pool": 2, "note": ""}
            )
            assert response.status_code in (200, 302)
            assert time.monotonic() - started < 2  # DISCORD_TIMEOUT
        assert entered.wait(5)  # the first post is out, and still hanging
        assert not release.is_set()
    finally:
        release.set()
    relay.wait_idle()
    assert table.rolls.count() == 2


def test_a_timeout_is_a_warning_not_an_error(table, player, hook, discord, settings):
    settings.DISCORD_TIMEOUT = 0.3
    settings.DISCORD_ATTEMPTS = 2
    release = threading.Event()

    def hang(request):
        release.wait(5)
        return Response(status=204)

    discord.expect_request(PLAYERS_PATH, method="POST").respond_with_handler(hang)
    try:
        actions.quick_roll(table=table, roller=player, kind=RollKind.ACTION, pool=1, rng=Dice(6))
        relay.wait_idle()
    finally:
        release.set()
    hook.refresh_from_db()
    assert (
        hook.last_error == "A post to the players' webhook failed: Discord did not answer in time."
    )


def test_restoring_a_backup_posts_nothing(table, player, hook, discord):
    from backup.restore import read_document, restore_table
    from backup.tables import dumps, export_table

    actions.quick_roll(table=table, roller=player, kind=RollKind.ACTION, pool=1, rng=Dice(6))
    relay.wait_idle()
    document = read_document(dumps(export_table(table.pk)))
    discord.clear()
    table.delete()
    restore_table(document, gm=table.gm)
    relay.wait_idle()
    assert discord.log == []


def test_each_participant_of_a_group_action_posts_their_own_dice(
    table, player, other_player, hook, discord
):
    from rolls import group as roll_group

    discord.expect_request(PLAYERS_PATH, method="POST").respond_with_data(status=204)
    ada = CharacterFactory(table=table, owner=player, name="Ada", prowl=2)
    CharacterFactory(table=table, owner=other_player, name="Bo", prowl=1)
    ada_m = Membership.objects.get(table=table, user=player)
    bo_m = Membership.objects.get(table=table, user=other_player)
    roll = roll_actions.start_roll(
        by=ada_m, character=ada, goal="all in", action="prowl", group=True
    )
    roll_group.join_group(by=bo_m, roll=roll)
    call(roll)
    roll_group.roll_dice(by=ada_m, roll=roll, rng=Dice(5, 1))
    roll_group.roll_dice(by=bo_m, roll=roll, rng=Dice(6))
    ada_post, bo_post = posts(discord, PLAYERS_PATH)
    assert ada_post["title"] == f"Ada ({player.username}): Group action"
    assert bo_post["title"] == f"Bo ({other_player.username}): Group action"
    fields = {f["name"]: f["value"] for f in bo_post["fields"]}
    assert fields["Dice"] == "6 (1d)"
    assert fields["Result"] == "Full success"


def test_a_table_without_discord_posts_nothing(table, player, discord):
    actions.quick_roll(table=table, roller=player, kind=RollKind.ACTION, pool=1, rng=Dice(6))
    relay.wait_idle()
    assert discord.log == []


def test_a_resistance_roll_posts_its_dice_and_cost(table, player, gm, hook, discord):
    discord.expect_request(PLAYERS_PATH, method="POST").respond_with_data(status=204)
    ada = CharacterFactory(table=table, owner=player, name="Ada", prowl=2, finesse=1, skirmish=1)
    ada_m = Membership.objects.get(table=table, user=player)
    gm_m = Membership.objects.get(table=table, user=gm)
    roll = call(roll_actions.start_roll(by=ada_m, character=ada, goal="slip past", action="prowl"))
    roll = roll_actions.roll_dice(by=ada_m, roll=roll, rng=Dice(2, 3))
    consequence = roll_outcome.add_consequence(
        by=gm_m, roll=roll, kind="harm", level=2, description="Stabbed", attribute="prowess"
    )
    roll_outcome.resist(by=ada_m, consequence=consequence, rng=Dice(4, 1, 2))
    action, resistance = posts(discord, PLAYERS_PATH)
    assert action["title"].endswith("Action")
    assert resistance["title"] == f"Ada ({player.username}): Resistance"
    assert resistance["description"] == "Take 2 stress\nProwess against Harm"
    fields = {f["name"]: f["value"] for f in resistance["fields"]}
    assert fields == {"Dice": "4, 1, 2 (3d)", "Result": "Partial success"}


def test_an_unreachable_discord_is_a_warning(table, player, discord, settings):
    # Port 9 (discard) is closed on a test machine: the connection is refused.
    closed = "http://127.0.0.1:9"
    settings.DISCORD_WEBHOOK_ORIGINS = (*settings.DISCORD_WEBHOOK_ORIGINS, closed)
    settings.DISCORD_ATTEMPTS = 2
    hook = DiscordHookFactory(table=table, players_url=closed + "/api/webhooks/1/token")
    actions.quick_roll(table=table, roller=player, kind=RollKind.ACTION, pool=1, rng=Dice(6))
    relay.wait_idle()
    hook.refresh_from_db()
    assert hook.last_error == "A post to the players' webhook failed: Discord could not be reached."


def test_a_forum_threads_webhook_is_saved_and_posts_into_the_thread(
    table, gm, player, discord, client
):
    thread = discord.url_for(PLAYERS_PATH) + "?thread_id=1234567890"
    client.force_login(gm)
    response = client.post(f"/tables/{table.pk}/discord/", {"players_url": thread, "gm_url": ""})
    assert response.status_code == 302
    discord.expect_request(
        PLAYERS_PATH, method="POST", query_string="thread_id=1234567890"
    ).respond_with_data(status=204)
    actions.quick_roll(table=table, roller=player, kind=RollKind.FORTUNE, pool=1, rng=Dice(6))
    relay.wait_idle()
    [(request, _)] = discord.log
    assert request.args.to_dict() == {"thread_id": "1234567890"}


def test_a_post_goes_to_the_webhook_set_when_its_roll_was_made(
    table, gm, player, hook, discord, client
):
    discord.expect_request(PLAYERS_PATH, method="POST").respond_with_data(status=204)
    moved = "/api/webhooks/333/new-channel-token"
    discord.expect_request(moved, method="POST").respond_with_data(status=204)
    # The worker busy with a job before the roll's, until the GM has moved the webhook.
    moved_on = threading.Event()

    def busy() -> list:
        moved_on.wait(10)
        return []

    relay.enqueue(busy)
    actions.quick_roll(table=table, roller=player, kind=RollKind.FORTUNE, pool=1, rng=Dice(6))
    client.force_login(gm)
    url = f"/tables/{table.pk}/discord/"
    assert client.post(url, {"players_url": discord.url_for(moved)}).status_code == 302
    moved_on.set()
    assert len(posts(discord, PLAYERS_PATH)) == 1
    assert posts(discord, moved) == []
    # What happens from now on goes to the new one.
    actions.quick_roll(table=table, roller=player, kind=RollKind.FORTUNE, pool=1, rng=Dice(2))
    assert len(posts(discord, moved)) == 1


def test_the_gms_test_post_reaches_both_webhooks(table, gm, hook, discord, client):
    discord.expect_request(PLAYERS_PATH, method="POST").respond_with_data(status=204)
    discord.expect_request(GM_PATH, method="POST").respond_with_data(status=204)
    client.force_login(gm)
    response = client.post(f"/tables/{table.pk}/discord/test/", follow=True)
    assert "A test post is on its way" in response.content.decode()
    [to_players] = posts(discord, PLAYERS_PATH)
    [to_gm] = posts(discord, GM_PATH)
    assert to_players["title"] == "Test post from Blades Table"
    assert to_gm["title"] == "[GM only] Test post from Blades Table"
