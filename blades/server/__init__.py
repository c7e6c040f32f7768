"""The few places where the app leans on Django's and Channels' internals.

Each of these replaces or relies on upstream code that is not a public, documented API;
a Django, Channels or asgiref upgrade may change that code without notice. The pin tests
(tests/server/) hold each replaced method's signature and a digest of its source, plus
behavioural checks of what the overrides rely on, so an upgrade fails there, naming the
override to re-check, rather than subtly in production.

`handler.OneHopASGIHandler` (served as `blades.asgi.django_http_app`)
    Replaces `django.core.handlers.asgi.ASGIHandler.__init__`, `__call__` and
    `run_get_response`, and relies on `handle` calling `run_get_response`. Django runs the
    middleware chain on the event loop and crosses to a thread and back for every sync
    piece of it (some twenty crossings a request, each queued behind the frames the loop is
    sending) and starts a thread per request. Here the chain loads synchronously and the
    request crosses once, to the one thread that does all the process's database work.

`hashing`
    Relies on asgiref's `sync_to_async(..., executor=...)` to serve posts to views that
    check passwords in one thread of their own, and tidies that thread's database
    connections itself (Django does that only around the shared thread's requests). A
    PBKDF2 check takes hundreds of milliseconds; in the shared thread every table on the
    process would wait it out.

`channel_layer.InMemoryChannelLayer`
    Replaces `channels.layers.InMemoryChannelLayer._clean_expired` (private), which the
    stock layer calls on every `receive` and `group_send`: a walk over every queue and
    group membership per frame. Ours sweeps at most once a second; messages expire after
    a minute and memberships after a day, so the guarantees stay the same.

`consumer.FramesSkipTheDatabase` (mixed into `sessions.consumers.TableConsumer`)
    Replaces `channels.consumer.AsyncConsumer.dispatch`, which closes stale database
    connections before every message (a crossing to the shared thread for every frame to
    every socket). Frames never touch the database; the handlers that do go through
    `channels.db.database_sync_to_async`, which closes stale connections itself.

`origin.SameOriginValidator` (wraps the socket routes in `blades.asgi`)
    Stands in for `channels.security.websocket.AllowedHostsOriginValidator`, which checks
    only the Origin's host: any scheme and port passed. Ours holds a socket's Origin to
    the scheme, host and port it was opened to, as Django's CSRF check does for a form;
    it leans on Django's `split_domain_port` and `validate_host`. A socket refused here
    or on an unknown path is answered by `origin.refuse`, plain ASGI, so it takes no
    channel on the layer.

`channel_layer.RedisChannelLayer`
    Wraps channels-redis's public `receive` (no private API) in `ends_when_cancelled`: it
    runs as a task of its own and a cancellation is passed on to it until it ends.
    redis-py sends through `asyncio.wait_for`, which on Python 3.11 loses a cancellation
    that lands as the send finishes, and the receive then went on blocking in Redis for
    good (tests/sessions/test_refused_sockets.py). sessions.layer's watch sends its
    commands the same way, or a closing event loop waited for it forever. It saves no
    time; it ends a socket.

Two more set how the server process runs, leaning on no private API (no pin needed):
`checkpoint` (SQLite's log checkpointed by a thread of its own, never inside a request)
and `collector` (the garbage collector's thresholds, and what start-up made frozen).
Both are done by `start()`, which only the served application calls (blades/serve.py).

docs/performance.md gives what each saves, measured with and without it in one session.
"""

from . import checkpoint, collector


def start() -> None:
    """The server process's one start-up step, once the application is loaded and before
    it serves anything (blades/serve.py): not done on import, so tests that import the
    application leave their process's collector and database connections as they are."""
    checkpoint.checkpoint_apart()
    collector.settle()
