"""Views that check or set a password, served apart from the shared thread.

A request crosses to the one thread all of a process's sync work shares (blades/server/handler.py).
Checking a password costs PBKDF2 hundreds of milliseconds, seconds on a busy machine,
and in that thread every other request and socket of the process would wait it out; the
hash lets go of the GIL, so in a thread of its own it costs the others nothing.

One thread, not a pool: sign-ins still take their turns, as they did in the shared
thread. The lockout checks, hashes, then records a failure, so guesses checked side by
side would all pass the check before any of them counted; and two sign-ups of one name
would both pass the form's uniqueness check.
"""

from concurrent.futures import ThreadPoolExecutor

from django.db import close_old_connections, connections
from django.urls import Resolver404, get_resolver

APART = ThreadPoolExecutor(max_workers=1, thread_name_prefix="passwords")


def hashes_passwords(view):
    view.hashes_passwords = True
    return view


def hashes_passwords_at(path: str) -> bool:
    try:
        return getattr(get_resolver().resolve(path).func, "hashes_passwords", False)
    except Resolver404:
        return False


def served_apart(get_response):
    """`get_response` for this thread: Django tidies connections at the start and end of
    a request in the shared thread only, so this thread does its own."""

    def serve(request):
        close_old_connections()
        try:
            return get_response(request)
        finally:
            # Its few requests need no kept connection (the shared thread keeps SQLite's).
            connections.close_all()

    return serve
