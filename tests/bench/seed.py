"""The load benchmarks' tables, players and signed-in sessions, written into the app's
database (run by tests/bench/loadtest.py and tests/bench/evening.py in a child process
with Django set up).

    python -m tests.bench.seed TABLES PLAYERS            # prints {"tables": [{table, sessions}]}
    python -m tests.bench.seed TABLES PLAYERS --evening  # and a cast to play an evening with

Sessions are written directly: 1,000 password hashes would measure the hasher.
"""

import json
import secrets
import sys


def signed_in(user) -> str:
    """A session key for `user`, as a login would have written it."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def seed(tables: int, players: int, evening: bool = False) -> dict:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from sessions.models import Membership, Table

    User = get_user_model()
    password = make_password(secrets.token_urlsafe(16))
    users = User.objects.bulk_create(
        [User(username=f"load{n}", password=password) for n in range(tables * (players + 1))]
    )
    out = []
    for t in range(tables):
        gm, *seated = users[t * (players + 1) : (t + 1) * (players + 1)]
        table = Table.objects.create(name=f"Load table {t}", gm=gm)
        Membership.objects.bulk_create(
            [Membership(table=table, user=gm, role="gm")]
            + [Membership(table=table, user=u, role="player") for u in seated]
        )
        out.append({"table": table.pk, "sessions": [signed_in(user) for user in seated]})
        if evening:
            out[-1].update(cast(table, gm, seated))
    return {"tables": out}


def cast(table, gm, seated) -> dict:
    """What an evening is played with (tests/bench/evening.py): a scoundrel for each
    player, the crew, a faction to score against, a clock the GM ticks, the GM signed in."""
    from crews import actions as crew_actions
    from tests.factories import CharacterFactory, ClockFactory

    characters = [
        CharacterFactory(table=table, owner=user, name=f"Scoundrel {n}", prowl=2, coin=4)
        for n, user in enumerate(seated)
    ]
    crew_actions.create_crew(table=table, crew_type="shadows", name=f"Crew {table.pk}")
    faction = crew_actions.create_faction(
        table=table, name="Bluecoats", tier=2, hold="weak", status=0
    )
    clock = ClockFactory(table=table, name="Alarm", segments=12, visibility="everyone")
    return {
        "gm_session": signed_in(gm),
        "characters": [c.pk for c in characters],
        "faction": faction.pk,
        "clock": clock.pk,
    }


if __name__ == "__main__":
    tables, players = (int(n) for n in sys.argv[1:3])
    print(json.dumps(seed(tables, players, evening="--evening" in sys.argv[3:])))
