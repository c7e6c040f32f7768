"""Each person reads the app in their own language: their account's choice, else their
browser's Accept-Language; `<html lang>` says which."""

import re

import pytest
from django.urls import reverse

from accounts.models import Profile
from tests.factories import ProfileFactory

SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es-ES,es;q=0.9"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


def page_language(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode()).group(1)


def my_tables(client, **headers):
    response = client.get(reverse("table_list"), **headers)
    assert response.status_code == 200
    return response


def test_the_browsers_language_is_used_when_the_user_chose_none(client, player):
    client.force_login(player)
    spanish = my_tables(client, **SPANISH)
    assert page_language(spanish) == "es" and "Mis mesas" in spanish.content.decode()
    english = my_tables(client, **ENGLISH)
    assert page_language(english) == "en" and "My tables" in english.content.decode()


def test_the_users_choice_beats_the_browsers(client, player):
    client.force_login(player)
    response = client.post(
        reverse("language"), {"language": "es", "next": reverse("table_list")}, **ENGLISH
    )
    assert response.status_code == 302 and response["Location"] == reverse("table_list")
    assert Profile.objects.get(user=player).language == "es"
    page = my_tables(client, **ENGLISH)
    assert page_language(page) == "es" and "Mis mesas" in page.content.decode()
    assert page["Content-Language"] == "es"


def test_the_choice_follows_the_user_to_a_new_login(client, player):
    ProfileFactory(user=player)
    client.force_login(player)
    assert page_language(my_tables(client, **ENGLISH)) == "es"


def test_choosing_the_browsers_language_again_drops_the_choice(client, player):
    ProfileFactory(user=player)
    client.force_login(player)
    client.post(reverse("language"), {"language": ""})
    assert Profile.objects.get(user=player).language == ""
    assert page_language(my_tables(client, **ENGLISH)) == "en"


def test_a_visitor_may_choose_for_their_session(client, db):
    client.post(reverse("language"), {"language": "es"}, **ENGLISH)
    page = client.get(reverse("login"), **ENGLISH)
    assert page_language(page) == "es" and "Crear cuenta" in page.content.decode()


def test_logging_out_forgets_the_session_language(client, player):
    ProfileFactory(user=player)
    client.force_login(player)
    client.post(reverse("logout"))
    assert page_language(client.get(reverse("login"), **ENGLISH)) == "en"


@pytest.mark.parametrize("language", ["fr", "es\x00", "x" * 500])
def test_a_language_not_offered_is_refused(client, player, language):
    client.force_login(player)
    response = client.post(reverse("language"), {"language": language})
    assert response.status_code == 422
    assert not Profile.objects.filter(user=player).exists()


def test_the_way_back_stays_on_this_site(client, player):
    client.force_login(player)
    response = client.post(reverse("language"), {"language": "es", "next": "https://evil.example/"})
    assert response["Location"] == reverse("home")


@pytest.mark.parametrize("back", ["0", "home", "table_list", "javascript:alert(1)"])
def test_a_way_back_that_is_no_path_goes_home(client, player, back):
    """A bare word is no path of this site (found by the random-input sweep: a 500)."""
    client.force_login(player)
    response = client.post(reverse("language"), {"language": "", "next": back})
    assert (response.status_code, response["Location"]) == (302, reverse("home"))


def test_the_way_back_to_a_page_of_this_site_is_kept(client, player):
    client.force_login(player)
    response = client.post(reverse("language"), {"language": "es", "next": "/tables/"})
    assert response["Location"] == "/tables/"
