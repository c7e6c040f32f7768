"""Clocks that behave as their kind says (issue 15): linked clocks open the next when
full, tug-of-war clocks fill and empty, racing clocks name their rival, and players tick
the clocks the GM lets them tick."""

import pytest
from django.urls import reverse

from blades.rules.errors import RuleError
from sessions import actions
from sessions.access import Audience
from sessions.models import Clock
from tests.concurrency import post_at_once
from tests.factories import ClockFactory, MembershipFactory, TableFactory
from tests.helpers import frames, listen

HX = {"HX-Request": "true"}


def clock_url(name, clock):
    return reverse(name, args=[clock.table_id, clock.pk])


def edit(client, clock, **fields):
    prefix = f"clock-{clock.pk}"
    data = {"name": clock.name, "segments": clock.segments, "kind": clock.kind,
            "visibility": clock.visibility, **fields}  # fmt: skip
    data = {f"{prefix}-{key}": value for key, value in data.items() if value is not None}
    return client.post(clock_url("clock_update", clock), data, headers=HX)


def tick(client, clock, by=1):
    return client.post(clock_url("clock_tick", clock), {"ticks": str(by)}, headers=HX)


def state(clock) -> tuple[int, int | None, bool]:
    row = Clock.objects.get(pk=clock.pk)
    return row.filled, row.unlocks_id, row.players_tick


# --- Linked clocks -----------------------------------------------------------------


def test_gm_links_a_clock_to_the_one_it_unlocks(client, table, gm):
    vulnerable = ClockFactory(table=table, name="Vulnerable")
    client.force_login(gm)
    client.post(
        reverse("clock_create", args=[table.pk]),
        {"new-clock-name": "Defense", "new-clock-segments": 4, "new-clock-kind": "linked",
         "new-clock-visibility": "everyone", "new-clock-unlocks": vulnerable.pk},
    )  # fmt: skip
    defense = Clock.objects.get(name="Defense")
    assert defense.unlocks == vulnerable
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "Unlocks: Vulnerable" in page
    assert "Locked until Defense fills" in page


def test_a_clock_links_only_to_its_own_tables_clocks(client, table, gm):
    defense = ClockFactory(table=table)
    foreign = ClockFactory()
    client.force_login(gm)
    response = edit(client, defense, unlocks=foreign.pk)
    assert response.status_code == 422
    assert state(defense) == (0, None, False)
    with pytest.raises(RuleError, match="its own table"):
        actions.update_clock(clock=defense, name="D", segments=4, kind="linked",
                             visibility="everyone", unlocks=foreign)  # fmt: skip


def test_a_chain_of_clocks_cannot_come_back_on_itself(client, table, gm):
    first = ClockFactory(table=table)
    second = ClockFactory(table=table, unlocks=first)
    client.force_login(gm)
    response = edit(client, first, unlocks=second.pk)
    assert response.status_code == 422
    assert "cannot unlock itself" in response.content.decode()
    assert state(first) == (0, None, False)


def test_ticking_a_locked_clock_is_refused_beside_the_clock(client, table, gm):
    vulnerable = ClockFactory(table=table, name="Vulnerable")
    ClockFactory(table=table, name="Defense", unlocks=vulnerable, filled=3)
    client.force_login(gm)
    response = tick(client, vulnerable)
    assert response.status_code == 422
    page = response.content.decode()
    assert f'id="clock-{vulnerable.pk}"' in page
    assert "This clock is locked until “Defense” fills." in page
    assert state(vulnerable)[0] == 0
    # Other doors (a roll's complication) are refused alike.
    with pytest.raises(RuleError, match="locked"):
        actions.tick_clock(clock=vulnerable, by=2)


@pytest.mark.django_db(transaction=True)
def test_filling_a_clock_opens_the_next_live_and_emptying_locks_it_again(table, gm):
    vulnerable = ClockFactory(table=table, name="Vulnerable")
    defense = ClockFactory(table=table, name="Defense", unlocks=vulnerable, filled=3)
    players = listen(table.pk, False)
    actions.tick_clock(clock=defense, by=1)
    sent = frames(players)
    opened = [f for f in sent if f'id="clock-{vulnerable.pk}"' in f]
    assert opened and "Locked until" not in opened[-1]
    actions.tick_clock(clock=vulnerable, by=2)
    # Un-filling the first locks the next again; it keeps its ticks for when it reopens.
    # (A new channel: on Redis a channel is drained from one event loop only.)
    players = listen(table.pk, False)
    actions.tick_clock(clock=defense, by=-1)
    relocked = [f for f in frames(players) if f'id="clock-{vulnerable.pk}"' in f]
    assert "Locked until Defense fills" in relocked[-1]
    assert state(vulnerable)[0] == 2
    with pytest.raises(RuleError, match="locked"):
        actions.tick_clock(clock=vulnerable, by=1)
    actions.tick_clock(clock=defense, by=1)
    assert actions.tick_clock(clock=vulnerable, by=1).filled == 3


@pytest.mark.django_db(transaction=True)
def test_deleting_the_first_clock_opens_the_next(table):
    vulnerable = ClockFactory(table=table, name="Vulnerable")
    defense = ClockFactory(table=table, name="Defense", unlocks=vulnerable)
    players = listen(table.pk, False)
    actions.delete_clock(clock=defense)
    drawn = [f for f in frames(players) if f'id="clock-{vulnerable.pk}"' in f]
    assert drawn and "Locked until" not in drawn[-1]
    assert actions.tick_clock(clock=vulnerable, by=1).filled == 1


def test_a_hidden_clock_is_named_as_hidden_to_players(client, table, player):
    plot = ClockFactory(table=table, name="ZQHIDDEN secret plot", visibility="gm")
    alarm = ClockFactory(table=table, name="Alarm", unlocks=plot)
    trap = ClockFactory(table=table, name="Trap")
    ClockFactory(table=table, name="ZQHIDDEN key", visibility="gm", unlocks=trap)
    client.force_login(player)
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "Unlocks: a hidden clock" in page
    assert "Locked until a hidden clock fills" in page
    # A marker no CSRF token or CSP nonce can spell by chance (two letters once did).
    assert "ZQHIDDEN" not in page
    trap_tick = tick(client, trap)  # not allowed for players anyway: nothing leaks
    assert "ZQHIDDEN" not in trap_tick.content.decode()
    alarm.players_tick = True
    alarm.save()
    trap.players_tick = True
    trap.save()
    refused = tick(client, trap)
    assert refused.status_code == 422
    assert "locked until “a hidden clock” fills" in refused.content.decode()


# --- Tug-of-war and racing ---------------------------------------------------------


def test_a_tug_of_war_clock_fills_and_empties_for_players(client, table, player):
    revolution = ClockFactory(table=table, kind="tug", players_tick=True, segments=4, filled=3)
    client.force_login(player)
    assert tick(client, revolution).status_code == 200
    assert state(revolution)[0] == 4
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert f'aria-label="Untick {revolution.name}"' in page
    assert tick(client, revolution, by=-1).status_code == 200
    assert state(revolution)[0] == 3


def test_only_the_gm_ticks_down_a_clock_that_is_not_tug_of_war(client, table, gm, player):
    alarm = ClockFactory(table=table, kind="danger", players_tick=True, filled=2)
    client.force_login(player)
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert f'aria-label="Untick {alarm.name}"' not in page
    response = tick(client, alarm, by=-1)
    assert response.status_code == 422
    assert "Only a tug-of-war clock can be ticked down" in response.content.decode()
    assert state(alarm)[0] == 2
    client.force_login(gm)
    assert tick(client, alarm, by=-1).status_code == 200
    assert state(alarm)[0] == 1


def test_racing_clocks_name_each_other(client, table, gm, player):
    escape = ClockFactory(table=table, name="Escape", kind="racing")
    cornered = ClockFactory(table=table, name="Cornered", kind="racing", segments=4, filled=4)
    client.force_login(gm)
    assert edit(client, escape, rival=cornered.pk).status_code == 200
    escape.refresh_from_db()
    cornered.refresh_from_db()
    assert (escape.rival, cornered.rival) == (cornered, escape)
    client.force_login(player)
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "Races: Cornered (full)" in page and "Races: Escape" in page
    # A third clock taking one side leaves the other side free.
    sunk = ClockFactory(table=table, name="Sunk", kind="racing")
    actions.update_clock(clock=sunk, name="Sunk", segments=4, kind="racing",
                         visibility="everyone", rival=escape)  # fmt: skip
    cornered.refresh_from_db()
    escape.refresh_from_db()
    assert (escape.rival, cornered.rival) == (sunk, None)


def test_only_a_racing_clock_has_a_rival(client, table, gm):
    alarm = ClockFactory(table=table, kind="danger")
    escape = ClockFactory(table=table, kind="racing")
    client.force_login(gm)
    response = edit(client, alarm, rival=escape.pk)
    assert response.status_code == 422
    assert "Only a racing clock races a rival" in response.content.decode()
    response = edit(client, escape, rival=alarm.pk)
    assert response.status_code == 422
    assert "is not a racing clock" in response.content.decode()
    assert Clock.objects.filter(rival__isnull=False).count() == 0


# --- Players ticking -------------------------------------------------------------


def test_a_player_ticks_only_where_the_gm_lets_them(client, table, gm, player):
    allowed = ClockFactory(table=table, name="Escape")
    other = ClockFactory(table=table, name="Alarm", players_tick=False)
    client.force_login(gm)
    assert edit(client, allowed, players_tick="on").status_code == 200
    assert state(allowed)[2] is True
    client.force_login(player)
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert 'aria-label="Tick Escape"' in page
    assert 'aria-label="Tick Alarm"' not in page
    assert tick(client, allowed).status_code == 200
    assert tick(client, other).status_code == 403
    assert (state(allowed)[0], state(other)[0]) == (1, 0)


def test_a_hidden_clock_is_never_tickable_by_players(client, table, gm, player):
    hidden = ClockFactory(table=table, visibility="gm")
    client.force_login(gm)
    response = edit(client, hidden, players_tick="on")
    assert response.status_code == 422
    assert "cannot tick a clock they cannot see" in response.content.decode()
    # Even a row that says otherwise (set behind the forms' back) stays out of reach.
    Clock.objects.filter(pk=hidden.pk).update(players_tick=True)
    client.force_login(player)
    assert tick(client, hidden).status_code == 404
    with pytest.raises(RuleError):
        actions.tick_clock(clock=hidden, by=1, player=Audience(is_gm=False, user_id=player.pk))
    assert state(hidden)[0] == 0


def test_a_faction_clock_is_never_tickable_by_players(client, table, player):
    goal = ClockFactory(table=table, kind="faction", players_tick=True)
    client.force_login(player)
    assert tick(client, goal).status_code == 403
    assert state(goal)[0] == 0


@pytest.mark.django_db(transaction=True)
def test_players_tapping_at_once_lose_nothing_and_never_overfill():
    table = TableFactory()
    players = [MembershipFactory(table=table).user for _ in range(3)]
    clock = ClockFactory(table=table, segments=8, players_tick=True)
    taps = [(players[i % 3], clock_url("clock_tick", clock), {"ticks": "1"}) for i in range(12)]
    statuses = post_at_once(taps)
    clock.refresh_from_db()
    assert statuses == [302] * 12
    assert clock.filled == 8


@pytest.mark.django_db(transaction=True)
def test_tug_of_war_taps_at_once_count_exactly():
    table = TableFactory()
    players = [MembershipFactory(table=table).user for _ in range(2)]
    clock = ClockFactory(table=table, kind="tug", segments=12, filled=6, players_tick=True)
    url = clock_url("clock_tick", clock)
    taps = [(players[0], url, {"ticks": "1"})] * 5 + [(players[1], url, {"ticks": "-1"})] * 3
    post_at_once(taps)
    clock.refresh_from_db()
    # Nothing reaches either edge, so every tap counts whatever the order.
    assert clock.filled == 6 + 5 - 3


@pytest.mark.django_db(transaction=True)
def test_every_clock_the_gm_can_edit_offers_a_new_clock_at_once():
    table = TableFactory()
    alarm = ClockFactory(table=table, name="Alarm")
    gm = listen(table.pk, True)
    players = listen(table.pk, False)
    actions.create_clock(table=table, name="Trapped", segments=4, kind="linked",
                         visibility="everyone")  # fmt: skip
    trapped = Clock.objects.get(name="Trapped")
    (drawn,) = frames(gm)
    # Alarm's edit form, drawn again with the rest of the list, can now unlock Trapped.
    assert 'id="clock-list"' in drawn
    assert f'id="id_clock-{alarm.pk}-unlocks"' in drawn
    assert f'<option value="{trapped.pk}">Trapped</option>' in drawn
    (shown,) = frames(players)
    assert "Trapped" in shown and "Alarm" not in shown
