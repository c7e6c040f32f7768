"""Clocks the players make and tick, and the GM's clocks whose progress players do not see.

Who sees, sees the ticks of, ticks and edits which clock is answered in sessions.access,
once for a clock in hand and once as a filter: here both are held equal over every kind
of clock, and the page, the guard and the pushes are checked to follow them."""

import itertools
import re

import pytest
from django.urls import reverse

from sessions import access, live, queries
from sessions.models import Clock
from tests.factories import ClockFactory, MembershipFactory
from tests.helpers import frames, frames_with, listen

HX = {"HX-Request": "true"}
# A "known, progress hidden" clock's ticks, drawn in any of the ways the page counts them.
SEVEN_OF_TEN = re.compile(r"\b7 ?(?:/|of) ?10\b")


@pytest.fixture
def other(table):
    return MembershipFactory(table=table).user


def new_clock(client, table, **fields):
    data = {f"new-clock-{key}": value for key, value in fields.items()}
    return client.post(reverse("clock_create", args=[table.pk]), data, headers=HX)


def tick(client, clock, by=1):
    url = reverse("clock_tick", args=[clock.table_id, clock.pk])
    return client.post(url, {"ticks": str(by)}, headers=HX)


def page(client, table) -> str:
    return client.get(reverse("table_detail", args=[table.pk])).content.decode()


def own_socket(table_id: int, user_id: int) -> str:
    """A player's page socket: in the players' group and in their own."""
    return listen(table_id, is_gm=False, user_id=user_id)


def every_kind_of_clock(table, owner) -> list[Clock]:
    """A clock of each visibility, kind and players' ticking, the GM's and `owner`'s."""
    return [
        ClockFactory(
            table=table, visibility=visibility, owner=whose, players_tick=tick, kind=kind
        )  # fmt: skip
        for visibility, whose, tick, kind in itertools.product(
            Clock.Visibility.values, (None, owner), (False, True), ("danger", "faction")
        )
    ]


def test_each_question_has_one_answer_for_a_clock_and_for_a_list(table, gm, player, other):
    """The predicate for one clock and the filter for many agree on every kind of clock,
    for the GM, the owner, another player, the players at large and the screen."""
    clocks = every_kind_of_clock(table, player)
    viewers = [access.GM, access.PUBLIC, access.SCREEN, *(m for m in table.memberships.all())]
    for viewer in viewers:
        seen = set(Clock.objects.filter(access.clocks_seen(viewer)).values_list("pk", flat=True))
        tickable = set(
            Clock.objects.filter(access.clocks_tickable(viewer)).values_list("pk", flat=True)
        )
        for clock in clocks:
            assert access.can_see_clock(viewer, clock) == (clock.pk in seen), (viewer, clock)
            assert access.can_tick_clock(viewer, clock) == (clock.pk in tickable), (
                viewer, clock.visibility, clock.owner_id, clock.players_tick, clock.kind,
            )  # fmt: skip


def test_a_player_who_owns_no_clock_sees_the_clocks_as_the_players_at_large(table, player, other):
    """What lets a table's players share one reconnect snapshot (sessions.live.Snapshot):
    only the clocks a player owns make their list differ from the others'."""
    every_kind_of_clock(table, player)
    assert queries.clock_owners(table.pk) == {player.pk}
    shared = live.clock_list(table.pk, access.PUBLIC)
    assert live.own_clocks(table.pk, other.pk, "en") == shared
    assert live.own_clocks(table.pk, player.pk, "en") != shared


def test_a_player_makes_a_clock_and_ticks_it_and_no_other(client, table, player, other):
    client.force_login(player)
    response = new_clock(client, table, name="Learn the old tongue", segments=8,
                         kind="project", visibility="everyone")  # fmt: skip
    assert response.status_code == 200
    mine = Clock.objects.get(name="Learn the old tongue")
    assert (mine.owner, mine.players_tick) == (player, False)
    assert tick(client, mine).status_code == 200
    assert 'aria-label="Tick Learn the old tongue"' in page(client, table)
    client.force_login(other)
    # Another player sees it and who may tick it: no button on it for them.
    assert 'aria-label="Tick Learn the old tongue"' not in page(client, table)
    assert tick(client, mine).status_code == 403
    assert Clock.objects.get(pk=mine.pk).filled == 1


def edit(client, clock, **fields):
    data = {f"clock-{clock.pk}-{key}": value for key, value in fields.items()}
    return client.post(reverse("clock_update", args=[clock.table_id, clock.pk]), data, headers=HX)


def delete(client, clock):
    return client.post(reverse("clock_delete", args=[clock.table_id, clock.pk]), headers=HX)


def test_the_owner_unticks_renames_and_deletes_her_clock_and_no_other_player(
    client, table, player, other
):
    mine = ClockFactory(table=table, owner=player, name="Learn the old tongue", segments=8,
                        filled=3, kind="project")  # fmt: skip
    controls = ("Untick Learn the old tongue", "Delete Learn the old tongue", "Save clock")
    client.force_login(other)
    seen = page(client, table)
    assert not any(control in seen for control in controls)
    assert tick(client, mine, -1).status_code == 403
    assert edit(client, mine, name="Stolen", segments=8, visibility="everyone").status_code == 403
    assert delete(client, mine).status_code == 403
    assert Clock.objects.get(pk=mine.pk).filled == 3
    client.force_login(player)
    seen = page(client, table)
    assert all(control in seen for control in controls)
    assert tick(client, mine, -1).status_code == 200
    assert Clock.objects.get(pk=mine.pk).filled == 2
    response = edit(client, mine, name="Learn the new tongue", segments=6, kind="project",
                    visibility="owner")  # fmt: skip
    assert response.status_code == 200
    renamed = Clock.objects.get(pk=mine.pk)
    assert (renamed.name, renamed.segments, renamed.visibility) == (
        "Learn the new tongue",
        6,
        "owner",
    )
    assert delete(client, mine).status_code == 200
    assert not Clock.objects.filter(pk=mine.pk).exists()


def test_the_owners_edit_keeps_what_the_gm_set(client, table, player):
    """Her form holds what she made the clock with: the links and the players' ticks the
    GM gave it, and a kind players do not choose, stay as they were."""
    target = ClockFactory(table=table)
    mine = ClockFactory(table=table, owner=player, kind="tug", players_tick=True, unlocks=target)
    client.force_login(player)
    assert f'name="clock-{mine.pk}-unlocks"' not in page(client, table)
    response = edit(client, mine, name="Renamed", segments=4, kind="danger", players_tick="",
                    unlocks="", visibility="everyone")  # fmt: skip
    assert response.status_code == 200
    kept = Clock.objects.get(pk=mine.pk)
    assert (kept.name, kept.kind, kept.players_tick, kept.unlocks) == (
        "Renamed",
        "tug",
        True,
        target,
    )


def test_the_gm_takes_a_clock_out_of_its_owners_hands(client, table, gm, player):
    """Hidden from her, or its progress hidden, her own clock is no longer hers to change."""
    for visibility in ("known", "gm"):
        mine = ClockFactory(table=table, owner=player, visibility=visibility, filled=2)
        client.force_login(player)
        assert delete(client, mine).status_code in (403, 404)
        assert Clock.objects.filter(pk=mine.pk).exists()


def test_a_player_cannot_give_their_clock_links_or_other_players_ticks(client, table, player):
    target = ClockFactory(table=table)
    client.force_login(player)
    new_clock(client, table, name="Mine", segments=4, kind="project", visibility="everyone",
              players_tick="on", unlocks=target.pk)  # fmt: skip
    mine = Clock.objects.get(name="Mine")
    assert (mine.players_tick, mine.unlocks) == (False, None)
    response = new_clock(client, table, name="Theirs", segments=4, kind="faction",
                         visibility="gm")  # fmt: skip
    assert response.status_code == 422
    assert not Clock.objects.filter(name="Theirs").exists()


@pytest.mark.django_db(transaction=True)
def test_a_private_clock_reaches_its_owner_and_the_gm_and_no_other_player(
    client, table, gm, player, other
):
    gm_channel = listen(table.pk, True)
    others = own_socket(table.pk, other.pk)
    owners = own_socket(table.pk, player.pk)
    client.force_login(player)
    new_clock(client, table, name="Zq-private-debt", segments=6, kind="danger",
              visibility="owner")  # fmt: skip
    debt = Clock.objects.get(name="Zq-private-debt")
    assert tick(client, debt).status_code == 200
    assert "Zq-private-debt" in "".join(frames(owners))
    assert "Zq-private-debt" in "".join(frames(gm_channel))
    assert "Zq-private-debt" not in "".join(frames(others))
    assert "Zq-private-debt" in page(client, table)
    client.force_login(other)
    assert "Zq-private-debt" not in page(client, table)
    assert tick(client, debt).status_code == 404
    # The GM hides it from its owner too, then deletes it: both pages follow.
    # Fresh sockets for the second half: on Redis a channel drained once is bound to
    # that drain's event loop, and each drain runs in a loop of its own.
    owners, others = own_socket(table.pk, player.pk), own_socket(table.pk, other.pk)
    client.force_login(gm)
    prefix = f"clock-{debt.pk}"
    fields = {"name": debt.name, "segments": 6, "kind": "danger", "visibility": "gm"}
    data = {f"{prefix}-{key}": value for key, value in fields.items()}
    client.post(reverse("clock_update", args=[table.pk, debt.pk]), data, headers=HX)
    assert "Zq-private-debt" not in "".join(frames(owners))
    assert "Zq-private-debt" not in "".join(frames(others))
    client.force_login(player)
    assert "Zq-private-debt" not in page(client, table)


def test_the_gm_may_not_make_a_clock_private_to_no_one(client, table, gm):
    client.force_login(gm)
    response = new_clock(client, table, name="Nobody's", segments=4, kind="danger",
                         visibility="owner")  # fmt: skip
    assert response.status_code == 422
    assert not Clock.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_known_progress_hidden_shows_name_and_size_never_the_ticks(client, table, gm, player):
    secret_pace = ClockFactory(table=table, name="The Inspectors close in", segments=10,
                               filled=6, visibility="known", kind="danger")  # fmt: skip
    players = listen(table.pk, False)
    client.force_login(gm)
    assert tick(client, secret_pace).status_code == 200
    assert SEVEN_OF_TEN.search(page(client, table))
    # Nothing players see of it changed, so nothing is sent: not even the ticks' count.
    assert frames(players) == []
    client.force_login(player)
    seen = page(client, table)
    assert "The Inspectors close in" in seen and "10 segments, progress hidden" in seen
    assert not SEVEN_OF_TEN.search(seen)
    # Every segment drawn alike: the count cannot be read off the wedges either.
    face = seen[seen.index(f'id="clock-{secret_pace.pk}"') :].split("</svg>")[0]
    assert 'class="on"' not in face and 'class="off"' not in face
    assert tick(client, secret_pace).status_code == 403
    assert Clock.objects.get(pk=secret_pace.pk).filled == 7


@pytest.mark.django_db(transaction=True)
def test_the_new_clock_menus_follow_a_clock_made_elsewhere(client, table, gm):
    """A second tab of the GM's: the clock made in the first is offered in its menus."""
    gm_channel = listen(table.pk, True)
    client.force_login(gm)
    new_clock(client, table, name="Made in the other tab", segments=4, kind="racing",
              visibility="everyone")  # fmt: skip
    made = Clock.objects.get(name="Made in the other tab")
    sent = frames_with(gm_channel, 'id="id_new-clock-unlocks"', 'id="id_new-clock-rival"')
    for menu in ("unlocks", "rival"):
        swapped = re.search(rf'<select[^>]*id="id_new-clock-{menu}"[^>]*>.*?</select>', sent, re.S)
        assert swapped and 'hx-swap-oob="morph"' in swapped.group(0)
        assert f'value="{made.pk}">Made in the other tab<' in swapped.group(0)
