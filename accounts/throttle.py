"""Login lockout: too many wrong passwords for a username lock it for a while.

Two limits, both over a sliding window: a few failures from one address (a person who
forgot their password, or one guesser), and more from anywhere (a guesser spreading
over many addresses). While locked, even the right password is refused, so guessing
gains nothing; the page says how long to wait.
"""

import math
from datetime import timedelta

from django.utils import timezone

from .models import LoginFailure

WINDOW = timedelta(minutes=15)
PER_ADDRESS = 5
PER_USERNAME = 20


def normalise(username: str) -> str:
    # Usernames are case-sensitive, but a guesser must not get fresh tries by changing case.
    # A NUL byte is no part of a name (and PostgreSQL cannot store or compare one).
    return username.replace("\x00", "").strip().lower()[:150]


def client_ip(request) -> str | None:
    # Only the peer address: a header would let a guesser pick a new address per try.
    # Behind nginx, daphne's --proxy-headers puts the real client here (the README,
    # "Deploying"; docs/deployment.md, "nginx").
    return request.META.get("REMOTE_ADDR") or None


def minutes_locked(username: str, ip: str | None) -> int:
    """0 when sign-in may be tried; otherwise the minutes until it may be tried again."""
    now = timezone.now()
    recent = LoginFailure.objects.filter(username=normalise(username), at__gt=now - WINDOW)
    times = sorted(recent.values_list("at", flat=True), reverse=True)
    from_here = sorted(recent.filter(ip=ip).values_list("at", flat=True), reverse=True)
    waits = []
    if len(from_here) >= PER_ADDRESS:
        waits.append(from_here[PER_ADDRESS - 1] + WINDOW - now)
    if len(times) >= PER_USERNAME:
        waits.append(times[PER_USERNAME - 1] + WINDOW - now)
    if not waits:
        return 0
    return max(1, math.ceil(max(waits).total_seconds() / 60))


def record_failure(username: str, ip: str | None) -> None:
    now = timezone.now()
    name = normalise(username)
    LoginFailure.objects.filter(username=name, at__lte=now - WINDOW).delete()
    LoginFailure.objects.create(username=name, ip=ip, at=now)


def clear(username: str, ip: str | None) -> None:
    """A successful sign-in forgives this address's earlier typos."""
    LoginFailure.objects.filter(username=normalise(username), ip=ip).delete()
