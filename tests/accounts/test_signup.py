"""Sign-up, open to anyone by default; closed to strangers with SIGNUP_OPEN=0, when only
an invite link's own sign-up makes an account (docs/deployment.md)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.urls import reverse

from sessions import actions

PASSPHRASE = "a-fine-passphrase-9"
NEW = {"username": "newcomer", "password1": PASSPHRASE, "password2": PASSPHRASE}
closed = override_settings(SIGNUP_OPEN=False)


def accounts(username="newcomer"):
    return get_user_model().objects.filter(username=username).count()


@closed
def test_closed_sign_up_says_so_and_makes_no_account(client, db):
    response = client.get(reverse("signup"))
    assert response.status_code == 403
    assert "Sign-up is closed" in response.content.decode()
    assert client.post(reverse("signup"), NEW).status_code == 403
    assert accounts() == 0


@closed
def test_closed_sign_up_is_offered_nowhere_but_on_an_invite(client, table):
    for name in ("login", "signup"):
        assert f'href="{reverse("signup")}' not in client.get(reverse(name)).content.decode()
    invite = client.get(reverse("join", args=[table.invite_token])).content.decode()
    assert f'href="{reverse("join_signup", args=[table.invite_token])}"' in invite


@pytest.mark.parametrize("open_", [True, False], ids=["open", "closed"])
def test_an_invite_makes_the_account_and_comes_back_to_join(client, table, open_):
    join = reverse("join", args=[table.invite_token])
    with override_settings(SIGNUP_OPEN=open_):
        page = client.get(reverse("join_signup", args=[table.invite_token])).content.decode()
        assert 'name="password1"' in page
        response = client.post(reverse("join_signup", args=[table.invite_token]), NEW)
    assert response.url == join
    assert accounts() == 1
    assert client.post(join).url == reverse("table_detail", args=[table.pk])


@closed
def test_a_revoked_or_wrong_invite_makes_no_account(client, table):
    revoked = table.invite_token
    actions.revoke_invite(table=table)
    for token in (revoked, "no-such-invite"):
        response = client.post(reverse("join_signup", args=[token]), NEW)
        assert response.status_code == 404
    assert accounts() == 0


def test_open_sign_up_is_offered_in_the_header(client, db):
    assert f'href="{reverse("signup")}"' in client.get(reverse("login")).content.decode()


@closed
def test_closed_sign_up_reads_in_spanish(client, db):
    page = client.get(reverse("signup"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "El registro está cerrado" in page and "enlace de invitación" in page
