"""The load benchmark's tables, players and signed-in sessions, written into the app's
database (run by tests/bench/loadtest.py in a child process with Django set up).

    python -m tests.bench.seed TABLES PLAYERS    # prints {"tables": [{table, sessions}]}

Sessions are written directly: 1,000 password hashes would measure the hasher.
"""

import json
import secrets
import sys


def seed(tables: int, players: int) -> dict:
    import django

    django.setup()
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore

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
        sessions = []
        for user in seated:
            store = SessionStore()
            store[SESSION_KEY] = str(user.pk)
            store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            store[HASH_SESSION_KEY] = user.get_session_auth_hash()
            store.create()
            sessions.append(store.session_key)
        out.append({"table": table.pk, "sessions": sessions})
    return {"tables": out}


if __name__ == "__main__":
    tables, players = (int(n) for n in sys.argv[1:3])
    print(json.dumps(seed(tables, players)))
