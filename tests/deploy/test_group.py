"""`make run-group`: the settings that let friends on the network in (blades/group.py),
PUBLIC_URL's part in the settings, and the demo that leaves their seats to the invite.
Nothing here sends a packet off the machine."""

import ipaddress
import os
import subprocess
import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import override_settings

from blades import group
from sessions.management.commands import demo
from sessions.models import Membership, Table

ROOT = Path(__file__).resolve().parents[2]


def test_the_machines_addresses_are_its_own_and_none_is_loopback():
    for address in group.machine_addresses():
        assert not ipaddress.ip_address(address).is_loopback


def test_friends_reach_the_first_address_and_every_one_is_allowed():
    env = group.environment(8000, ["192.0.2.7", "2001:db8::7", "den", "den.local"], {})
    assert env["PUBLIC_URL"] == "http://192.0.2.7:8000"
    assert env["ALLOWED_HOSTS"].split(",") == [
        "127.0.0.1", "localhost", "[::1]", "192.0.2.7", "[2001:db8::7]", "den", "den.local",
    ]  # fmt: skip


def test_a_tunnels_address_and_hosts_already_set_are_kept():
    before = {"PUBLIC_URL": "https://crows.example.org", "ALLOWED_HOSTS": "127.0.0.1"}
    env = group.environment(8000, ["192.0.2.7", "127.0.0.1"], before)
    assert env["PUBLIC_URL"] == "https://crows.example.org"
    assert env["ALLOWED_HOSTS"] == "127.0.0.1,192.0.2.7"


def test_one_address_chosen_is_the_one_served_and_the_shell_takes_it_as_make_does():
    script = 'eval "$($0 -m blades.group 192.0.2.7 8000)" && echo "$ALLOWED_HOSTS $PUBLIC_URL"'
    printed = subprocess.run(
        ["bash", "-c", script, sys.executable],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k not in {"PUBLIC_URL", "ALLOWED_HOSTS"}},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert printed == "127.0.0.1,localhost,[::1],192.0.2.7 http://192.0.2.7:8000\n"


def settings_with(public_url: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"ALLOWED_HOSTS", "DATABASE_URL"}}
    env.update(PUBLIC_URL=public_url, SECRET_KEY="x", CSRF_TRUSTED_ORIGINS="")
    show = "from django.conf import settings as s; print(s.ALLOWED_HOSTS, s.CSRF_TRUSTED_ORIGINS)"
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {show}"],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "blades.settings"},
        capture_output=True,
        text=True,
    )


def test_the_public_urls_host_and_origin_are_the_sites_own():
    """A tunnel's https reaches a plain-http daphne: its origin must pass the CSRF and
    socket checks, its host the host check."""
    shown = settings_with("https://Crows.example.org/").stdout.strip()
    assert shown == (
        "['127.0.0.1', 'localhost', '[::1]', 'crows.example.org'] ['https://Crows.example.org']"
    )


def test_a_public_url_with_a_path_is_refused_at_start():
    result = settings_with("http://192.0.2.7:8000/blades")
    assert result.returncode != 0
    assert "PUBLIC_URL is a scheme, a host and maybe a port" in result.stderr


@override_settings(PUBLIC_URL="http://192.0.2.7:8000")
def test_the_group_demo_seats_nobody_and_prints_the_invite(db, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(demo, "LOGINS_FILE", tmp_path / "logins")
    call_command("demo", "--group")
    table = Table.objects.get()
    assert list(Membership.objects.values_list("user__username", flat=True)) == ["gm"]
    assert get_user_model().objects.count() == 1
    printed = capsys.readouterr().out
    link = f"http://192.0.2.7:8000/join/{table.invite_token}/"
    assert f"Friends join The Crows' Nest at {link} (they sign up there)." in printed
    assert "gm / " in printed
