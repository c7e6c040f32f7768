"""Players get back what was theirs: a restored file's members are seats, and the GM
hands each seat to a person who joined; every row that named the member follows."""

import pytest
from django.apps import apps
from django.urls import reverse

from backup.models import Seat
from backup.restore import read_document, restore_table
from backup.tables import dumps, export_table, seats_of
from characters.models import Character
from chronicle.models import Learned
from rolls.models import ActionRoll, RollEvent
from sessions.models import Clock, Membership, Roll
from tests.backup.full_table import full_table
from tests.factories import ClockFactory, MembershipFactory, UserFactory


@pytest.fixture
def restored(db):
    """The full table, its player's own clock added, restored by a new GM."""
    table = full_table()
    player = table.characters.get(name="Old Marlane").owner
    ClockFactory(table=table, name="Nyx's vow", owner=player, visibility="owner")
    gm = UserFactory()
    new = restore_table(read_document(dumps(export_table(table.pk))), gm=gm).table
    return table, player, new


def the_players_rows(table, user) -> dict[str, int]:
    return {
        "characters": Character.objects.filter(table=table, owner=user).count(),
        "clocks": Clock.objects.filter(table=table, owner=user).count(),
        "rolls": Roll.objects.filter(table=table, roller=user).count(),
        "started": ActionRoll.objects.filter(table=table, started_by=user).count(),
        "steps": RollEvent.objects.filter(roll__table=table, actor=user).count(),
        "learned": Learned.objects.filter(session__table=table, author=user).count(),
    }


def test_the_gm_hands_a_seat_and_every_row_follows(client, restored):
    table, player, new = restored
    before = the_players_rows(table, player)
    assert all(before.values()), before  # the file names the player in every kind
    newcomer = MembershipFactory(table=new, role="player").user
    seat = Seat.objects.get(table=new, name=seats_of(table.pk)[player.username])
    assert the_players_rows(new, None) != the_players_rows(new, newcomer)
    client.force_login(new.gm)
    page = client.get(reverse("table_settings", args=[new.pk])).content.decode()
    assert seat.name in page and "Give the seat" in page

    done = client.post(
        reverse("seat_hand_over", args=[new.pk]),
        {"seat": seat.pk, "player": newcomer.username},
    )

    assert done.status_code == 302
    assert the_players_rows(new, newcomer) == before
    assert not Seat.objects.filter(pk=seat.pk).exists()
    # The other seats wait for theirs.
    assert Seat.objects.filter(table=new).exists()


def test_only_the_gm_hands_seats_and_only_to_a_player_here(client, restored):
    table, player, new = restored
    seat = Seat.objects.get(table=new, name=seats_of(table.pk)[player.username])
    member = MembershipFactory(table=new, role="player").user
    stranger = UserFactory()
    client.force_login(member)
    url = reverse("seat_hand_over", args=[new.pk])
    assert client.post(url, {"seat": seat.pk, "player": member.username}).status_code == 403
    client.force_login(new.gm)
    refused = client.post(url, {"seat": seat.pk, "player": stranger.username})
    assert refused.status_code == 422
    assert Seat.objects.filter(pk=seat.pk).exists()
    assert not Character.objects.filter(table=new, owner=stranger).exists()
    assert not Membership.objects.filter(table=new, user=stranger).exists()


def test_a_seat_lists_only_rows_of_its_own_table(restored):
    """What a seat hands is what the restore wrote: rows of the new table."""
    _, _, new = restored
    for seat in Seat.objects.filter(table=new):
        for label, pk, _ in seat.rows:
            assert label in {
                "characters.Character",
                "table_sessions.Clock",
                "table_sessions.Roll",
                "rolls.ActionRoll",
                "rolls.RollEvent",
                "chronicle.Learned",
            }, label
            row = apps.get_model(label)._default_manager.get(pk=pk)
            table_id = getattr(row, "table_id", None)
            if table_id is None:
                table_id = (row.roll if label == "rolls.RollEvent" else row.session).table_id
            assert table_id == new.pk
