from datetime import timedelta

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import throttle
from accounts.models import LoginFailure
from tests.factories import LoginFailureFactory

PASSWORD = "a-long-test-password"


def attempt(client, username, password, ip="10.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def make_user(name="cobbler"):
    return get_user_model().objects.create_user(username=name, password=PASSWORD)


def test_five_wrong_passwords_lock_the_username_with_a_clear_message(db, client):
    make_user()
    for _ in range(throttle.PER_ADDRESS):
        assert attempt(client, "cobbler", "wrong").status_code == 200
    response = attempt(client, "cobbler", PASSWORD)
    assert response.status_code == 200
    assert b"Too many failed sign-ins" in response.content
    assert b"Try again in 15 minutes" in response.content
    assert "_auth_user_id" not in client.session


def test_a_guesser_gains_nothing_by_changing_case(db, client):
    make_user()
    for name in ("cobbler", "Cobbler", "COBBLER", "cObbler", "cobbleR"):
        attempt(client, name, "wrong")
    assert b"Too many failed" in attempt(client, "cobbler", PASSWORD).content


def test_other_addresses_still_get_in_until_the_username_limit(db):
    make_user()
    for _ in range(throttle.PER_ADDRESS):
        attempt(Client(), "cobbler", "wrong", ip="10.0.0.1")
    assert attempt(Client(), "cobbler", PASSWORD, ip="10.0.0.2").status_code == 302
    # Spread over many addresses, the username locks for everyone.
    for n in range(throttle.PER_USERNAME):
        attempt(Client(), "cobbler", "wrong", ip=f"10.1.0.{n}")
    assert b"Too many failed" in attempt(Client(), "cobbler", PASSWORD, ip="10.0.0.3").content


def test_the_lock_lifts_after_the_window(db, client):
    make_user()
    for _ in range(throttle.PER_ADDRESS):
        attempt(client, "cobbler", "wrong")
    LoginFailure.objects.update(at=LoginFailure.objects.first().at - throttle.WINDOW)
    assert attempt(client, "cobbler", PASSWORD).status_code == 302


def test_a_success_forgives_earlier_typos(db, client):
    make_user()
    for _ in range(throttle.PER_ADDRESS - 1):
        attempt(client, "cobbler", "wrong")
    assert attempt(client, "cobbler", PASSWORD).status_code == 302
    assert not LoginFailure.objects.exists()


def test_old_failures_are_swept(db, client):
    make_user()
    LoginFailureFactory(username="cobbler", ip="10.0.0.1", at=timezone.now() - timedelta(days=1))
    attempt(client, "cobbler", "wrong")
    assert LoginFailure.objects.count() == 1
