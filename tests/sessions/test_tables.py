import pytest
from django.urls import reverse

from sessions import actions
from sessions.models import Membership, Table


def test_create_table_makes_the_creator_its_gm(client, outsider):
    client.force_login(outsider)
    response = client.post(reverse("table_list"), {"name": "The Red Sashes"})
    table = Table.objects.get()
    assert response.url == reverse("table_detail", args=[table.pk])
    assert table.gm == outsider
    assert Membership.objects.get(table=table, user=outsider).role == "gm"


def test_create_table_refuses_empty_name_with_message(client, outsider):
    client.force_login(outsider)
    response = client.post(reverse("table_list"), {"name": ""})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert not Table.objects.exists()


def test_my_tables_lists_only_mine(client, table, player, outsider):
    other = actions.create_table(gm=outsider, name="Not yours")
    client.force_login(player)
    page = client.get(reverse("table_list")).content.decode()
    assert table.name in page
    assert other.name not in page


def test_join_by_invite_link(client, table, outsider):
    client.force_login(outsider)
    url = reverse("join", args=[table.invite_token])
    assert table.name in client.get(url).content.decode()
    response = client.post(url)
    assert response.url == reverse("table_detail", args=[table.pk])
    assert Membership.objects.get(table=table, user=outsider).role == "player"


def test_join_when_logged_out_names_the_table_then_goes_to_login_and_back(client, table):
    url = reverse("join", args=[table.invite_token])
    page = client.get(url).content.decode()
    assert table.name in page and table.gm.username in page
    assert f'href="{reverse("login")}?next={url}"' in page
    assert client.post(url).url == f"{reverse('login')}?next={url}"
    assert not Membership.objects.filter(table=table).exclude(user=table.gm).exists()


def test_a_revoked_link_says_so_before_asking_to_log_in(client, table):
    actions.revoke_invite(table=table)
    response = client.get(reverse("join", args=[table.invite_token]))
    page = response.content.decode()
    assert response.status_code == 404
    assert "revoked" in page and table.name not in page and "Log in to join" not in page


def test_signup_with_next_joins_the_flow(client, table):
    url = reverse("join", args=[table.invite_token])
    response = client.post(
        reverse("signup"),
        {
            "username": "newcomer",
            "password1": "a-fine-passphrase-9",
            "password2": "a-fine-passphrase-9",
            "next": url,
        },
    )
    assert response.url == url


def test_signup_refuses_weak_password_and_keeps_username(client, db):
    response = client.post(
        reverse("signup"), {"username": "weakling", "password1": "123", "password2": "123"}
    )
    page = response.content.decode()
    assert "This password is too short" in page
    assert 'value="weakling"' in page


def test_revoked_link_is_refused(client, table, outsider):
    old_token = table.invite_token
    actions.revoke_invite(table=table)
    client.force_login(outsider)
    url = reverse("join", args=[old_token])
    assert client.get(url).status_code == 404
    assert client.post(url).status_code == 404
    assert not Membership.objects.filter(user=outsider).exists()


def test_regenerated_link_replaces_the_old_one(client, gm, table, outsider):
    old_token = table.invite_token
    client.force_login(gm)
    client.post(reverse("invite_regenerate", args=[table.pk]))
    table.refresh_from_db()
    assert table.invite_token != old_token
    assert len(table.invite_token) >= 32
    client.force_login(outsider)
    assert client.post(reverse("join", args=[old_token])).status_code == 404
    client.post(reverse("join", args=[table.invite_token]))
    assert Membership.objects.filter(table=table, user=outsider).exists()


def test_only_the_gm_manages_invites(client, table, player):
    client.force_login(player)
    assert client.post(reverse("invite_revoke", args=[table.pk])).status_code == 403
    table.refresh_from_db()
    assert table.invite_active


def test_gm_removes_a_player(client, gm, table, player):
    client.force_login(gm)
    client.post(reverse("member_remove", args=[table.pk, player.pk]))
    assert not Membership.objects.filter(table=table, user=player).exists()
    client.force_login(player)
    assert client.get(reverse("table_detail", args=[table.pk])).status_code == 404


def test_player_cannot_remove_anyone(client, table, player, other_player):
    client.force_login(player)
    response = client.post(reverse("member_remove", args=[table.pk, other_player.pk]))
    assert response.status_code == 403
    assert Membership.objects.filter(table=table, user=other_player).exists()


def test_user_can_sit_at_several_tables(client, table, player, outsider):
    second = actions.create_table(gm=outsider, name="Second crew")
    actions.join_table(user=player, token=second.invite_token)
    client.force_login(player)
    page = client.get(reverse("table_list")).content.decode()
    assert table.name in page and second.name in page


@pytest.mark.parametrize(
    "name",
    ["table_detail", "roll_create", "clock_create", "invite_regenerate", "invite_revoke"],
)
def test_non_member_gets_404_everywhere(client, table, outsider, name):
    client.force_login(outsider)
    url = reverse(name, args=[table.pk])
    response = client.get(url) if name == "table_detail" else client.post(url)
    assert response.status_code == 404


def test_anonymous_is_sent_to_login(client, table):
    response = client.get(reverse("table_detail", args=[table.pk]))
    assert response.url.startswith(reverse("login"))
