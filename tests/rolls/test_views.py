"""The shared roll over HTTP and the socket: permissions, bad input, secrets."""

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from rolls import outcome as flow_outcome
from rolls.models import ActionRoll
from sessions.models import Membership
from tests.factories import MembershipFactory, TableFactory
from tests.helpers import connect, drain, drain_greeting, folds, frames_until, with_folds

HTMX = {"HTTP_HX_REQUEST": "true"}


def login(client, user):
    client.force_login(user)
    return client


def propose(client, table, goal="Slip past the guard"):
    return client.post(
        reverse("flow_start", args=[table.pk]),
        {"start-goal": goal, "start-action": "prowl"},
        **HTMX,
    )


def step(client, roll, name, **data):
    return client.post(reverse("flow_step", args=[roll.table_id, roll.pk, name]), data, **HTMX)


def test_table_page_shows_the_flow_to_everyone(client, table, gm, player, ada):
    page = login(client, player).get(reverse("table_detail", args=[table.pk]))
    assert page.status_code == 200
    assert b'id="flow-panel"' in page.content and b"Propose the roll" in page.content
    page = login(client, gm).get(reverse("table_detail", args=[table.pk]))
    assert b"Roll fortune" in page.content and b"Propose the roll" not in page.content


def test_a_player_proposes_and_bad_input_is_kept(client, table, player, ada):
    login(client, player)
    response = client.post(
        reverse("flow_start", args=[table.pk]),
        {"start-goal": "", "start-action": "prowl", "start-flashback": "on"},
        **HTMX,
    )
    assert response.status_code == 422
    assert b"This field is required" in response.content
    assert b'name="start-flashback" id="id_start-flashback" checked' in response.content
    # Refused, the form stays open; proposed, it folds away above the roll (issue 40).
    assert b'<details id="flow-new" class="flow-new" open>' in response.content
    assert not ActionRoll.objects.exists()
    response = propose(client, table)
    assert response.status_code == 200
    assert b'<details id="flow-new" class="flow-new"><summary autofocus>' in response.content
    assert b'value="Slip past the guard"' not in response.content
    roll = ActionRoll.objects.get()
    assert roll.character == ada and roll.goal == "Slip past the guard"


def test_step_permissions_over_http(client, table, gm, player, other_player, ada, bo):
    login(client, player)
    propose(client, table)
    roll = ActionRoll.objects.get()
    assert step(client, roll, "terms", position="desperate", effect="3").status_code == 403
    assert step(client, roll, "assist").status_code == 403
    login(client, other_player)
    assert step(client, roll, "roll").status_code == 403
    assert step(client, roll, "assist").status_code == 200
    login(client, gm)
    response = step(client, roll, "terms", position="desperate", effect="3")
    assert response.status_code == 200 and b"Desperate" in response.content
    roll.refresh_from_db()
    assert (roll.position, roll.effect, roll.assister) == ("desperate", 3, bo)


def test_a_rule_refusal_is_shown_in_the_roll(client, table, player, other_player, ada, bo):
    login(client, player)
    propose(client, table)
    roll = ActionRoll.objects.get()
    login(client, other_player)
    step(client, roll, "assist")
    response = step(client, roll, "assist")
    assert response.status_code == 422 and b"only one can" in response.content


def test_nobody_reaches_a_roll_at_another_table(client, table, player, outsider, ada):
    login(client, player)
    propose(client, table)
    roll = ActionRoll.objects.get()
    elsewhere = TableFactory()
    login(client, elsewhere.gm)
    assert step(client, roll, "terms", position="risky", effect="2").status_code == 404
    url = reverse("flow_step", args=[elsewhere.pk, roll.pk, "terms"])
    assert client.post(url, {"position": "risky", "effect": "2"}).status_code == 404
    login(client, outsider)
    assert client.get(reverse("flow_panel", args=[table.pk])).status_code == 404


def test_a_secret_fortune_roll_never_reaches_a_player_page(client, table, gm, player, ada):
    gm_m = Membership.objects.get(table=table, user=gm)
    flow_outcome.fortune_roll(by=gm_m, table=table, goal="Lampblack ambush", trait=2, secret=True)
    flow_outcome.fortune_roll(by=gm_m, table=table, goal="Open weather", trait=1)
    login(client, player)
    for url in (reverse("table_detail", args=[table.pk]), reverse("flow_panel", args=[table.pk])):
        content = client.get(url).content
        assert b"Lampblack" not in content and b"Open weather" in content
    secret = ActionRoll.objects.get(secret=True)
    assert step(client, secret, "finish").status_code == 404
    login(client, gm)
    assert b"Lampblack" in client.get(reverse("flow_panel", args=[table.pk])).content


def test_a_finished_rolls_story_is_fetched_by_who_may_read_it(client, table, gm, player, ada):
    """Issue 36: a finished roll's story is drawn when its line is opened, by its own
    URL: the GM's secret roll is no roll to a player, an open roll has no story yet, and
    a roll of another table is none of this one's."""
    gm_m = Membership.objects.get(table=table, user=gm)
    flow_outcome.fortune_roll(by=gm_m, table=table, goal="Lampblack ambush", trait=2, secret=True)
    flow_outcome.fortune_roll(by=gm_m, table=table, goal="Open weather", trait=1)
    secret, shown = ActionRoll.objects.order_by("pk")
    propose(login(client, player), table)
    still_open = ActionRoll.objects.get(step="setup")

    def story(roll, table_id=table.pk):
        return client.get(reverse("flow_finished_roll", args=[table_id, roll.pk]), **HTMX)

    assert b"Open weather" in story(shown).content
    assert story(secret).status_code == 404 and story(still_open).status_code == 404
    panel = client.get(reverse("flow_panel", args=[table.pk])).content
    assert list(folds(client, panel)) == [reverse("flow_finished_roll", args=[table.pk, shown.pk])]
    login(client, gm)
    assert b"Lampblack ambush" in story(secret).content
    assert story(shown, TableFactory().pk).status_code == 404


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_secret_fortune_roll_signals_only_the_gm():
    @database_sync_to_async
    def setup():
        table = TableFactory()
        return table, table.gm, MembershipFactory(table=table).user

    table, gm, player = await setup()
    player_socket, _ = await connect(player, table.pk)
    gm_socket, _ = await connect(gm, table.pk)
    await drain_greeting(player_socket)
    await drain_greeting(gm_socket)

    @database_sync_to_async
    def roll(secret):
        gm_m = Membership.objects.get(table=table, user=gm)
        flow_outcome.fortune_roll(by=gm_m, table=table, goal="x", trait=1, secret=secret)

    await roll(True)
    # The line in the roll log and the signal for the flow panel.
    await frames_until(gm_socket, 'id="flow-signal"', "afterbegin:#roll-log")
    # Presence lists may still reach the player as the two arrivals settle; nothing else.
    for frame in await drain(player_socket):
        assert "flow-signal" not in frame and "roll-log" not in frame
    await roll(False)
    await frames_until(player_socket, 'id="flow-signal"', "afterbegin:#roll-log")
    await player_socket.disconnect()
    await gm_socket.disconnect()


def test_the_log_names_every_step_and_change_and_marks_undo(
    client, table, gm, player, other_player, ada, bo
):
    login(client, player)
    propose(client, table)
    roll = ActionRoll.objects.get()
    login(client, other_player)
    step(client, roll, "assist")
    login(client, player)
    step(client, roll, "push", push_dice="1")
    login(client, gm)
    step(client, roll, "as-proposed")
    login(client, player)
    step(client, roll, "roll")
    login(client, gm)
    step(client, roll, "finish")
    panel = with_folds(client, reverse("flow_panel", args=[table.pk]))
    assert "Ada: Stress 0 → 2" in panel and "Bo: Stress 0 → 1" in panel
    assert "Pushes for +1d" in panel and "GM closes the roll" in panel
    response = client.post(reverse("flow_undo", args=[table.pk]), **HTMX)
    assert response.status_code == 200
    opened = folds(client, response.content)
    assert any("Undone" in part.content.decode() for part in opened.values())
    ada.refresh_from_db(), bo.refresh_from_db()
    assert (ada.stress, bo.stress) == (0, 0)


def test_the_senders_panel_is_drawn_once(
    client, table, player, ada, django_capture_on_commit_callbacks
):
    """Issue 13: the sender's panel came back in its response and again when the signal
    made its page fetch the panel. The signal now names the step it announces, and a
    page whose panel shows that step already does not fetch."""
    import re

    from tests.helpers import frames, listen

    login(client, player)
    propose(client, table)
    roll = ActionRoll.objects.get()
    gms = listen(table.pk, is_gm=True)
    login(client, table.gm)
    with django_capture_on_commit_callbacks(execute=True):
        response = step(client, roll, "terms", position="desperate", effect="3")
    shown = re.search(r'data-revision="(\d+)"', response.content.decode())
    (signal,) = [frame for frame in frames(gms) if 'id="flow-signal"' in frame]
    # table.js's htmx:confirm listener skips the fetch when the two revisions match.
    assert shown and 'data-panel="flow-panel"' in signal
    assert f'data-revision="{shown[1]}"' in signal


@pytest.mark.parametrize("rolls", [0, 1])
def test_the_snapshot_of_a_socket_just_opened_names_the_panel_the_page_shows(
    client, table, gm, player, ada, rolls
):
    """Every socket gets the snapshot as it opens: the flow signal in it carries the
    revision, so a page loaded a moment ago (and so current) does not fetch its panel
    again, a redraw racing the first thing the person does; one behind still fetches."""
    import re

    from rolls.live import flow_snapshot

    for _ in range(rolls):
        propose(login(client, player), table)
    for person, is_gm in ((gm, True), (player, False)):
        page = login(client, person).get(reverse("table_detail", args=[table.pk]))
        shown = re.search(r'id="flow-panel"[^>]*data-revision="(\d+)"', page.content.decode())
        signal = flow_snapshot(table.pk, is_gm)
        assert shown and 'data-panel="flow-panel"' in signal
        assert f'data-revision="{shown[1]}"' in signal


def test_a_push_is_a_die_that_posts_every_push_as_the_tap_leaves_them(client, table, player, ada):
    """Issue 40: each push is a die the roller taps, pressed while taken. Its form posts
    the pushes already taken with its own flipped, so a tap takes or gives back one."""
    login(client, player)
    propose(client, table)
    roll = ActionRoll.objects.get()
    page = step(client, roll, "push", push_effect="1").content.decode()
    die = page[
        page.index(f'id="push_dice-{roll.pk}"') - 600 : page.index(f'id="push_dice-{roll.pk}"')
    ]
    assert '<input type="hidden" name="push_dice" value="1">' in die
    assert '<input type="hidden" name="push_effect" value="1">' in die
    assert f'id="push_effect-{roll.pk}" class="die-card as-card" aria-pressed="true"' in page
    assert f'id="push_dice-{roll.pk}" class="die-card" aria-pressed="false"' in page
    assert "Push for +1d (2 stress)" in page
    step(client, roll, "push", push_dice="1")  # the +1d die's own tap, giving back effect
    roll.refresh_from_db()
    assert (roll.push_dice, roll.push_effect) == (True, False)
