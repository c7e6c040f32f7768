"""Posting to Discord webhooks, off the request path.

A change at the table schedules a job after its transaction commits (`enqueue`); one
worker thread per process takes the jobs in order, reads what it needs from the
committed database and posts. A request never waits for Discord: a slow, refusing or
unreachable webhook costs the worker time, never the table. Each post gets a short
timeout and a few attempts, waiting as long as Discord asks on a 429 (`retry_after`)
and backing off on a 5xx or a timeout. A post that fails for good is logged and left on
the table's `DiscordHook` as a small warning for the GM.

Jobs go out one after another, so a channel reads the rolls in the order they were made;
the price is that a webhook stuck in its retries delays the posts queued behind it.
"""

import http.client
import json
import logging
import queue
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import connections
from django.utils import timezone, translation
from django.utils.translation import gettext

logger = logging.getLogger(__name__)

# Discord's own form of a webhook after its origin: the API's path, unversioned or of any
# version (`/api/v10/webhooks/`), the webhook's id and token, and at most the forum
# thread to post into. Nothing else: no other query, no fragment, no userinfo or port
# (the origin must be followed by this path at once).
WEBHOOK_PATH = re.compile(
    r"/api/(?:v\d{1,2}/)?webhooks/\d{1,25}/[A-Za-z0-9_-]{1,100}(?:\?thread_id=\d{1,25})?"
)
# Discord refuses requests from urllib's default agent.
USER_AGENT = "DiscordBot (https://github.com/blades-table, 1.0)"
# However long a 429 asks for, a post that has to wait longer is given up.
MAX_RETRY_AFTER = 60.0
# Jobs waiting for the worker. Past this the relay is hopelessly behind (Discord down
# for a long time): new posts are dropped, with a log line, rather than held in memory.
BACKLOG = 1000


def valid_webhook(url: str) -> bool:
    """A Discord webhook URL, and nothing else the server could be made to post to."""
    return any(
        url.startswith(origin) and WEBHOOK_PATH.fullmatch(url[len(origin) :])
        for origin in settings.DISCORD_WEBHOOK_ORIGINS
    )


@dataclass(frozen=True)
class Post:
    hook_id: int
    url: str
    which: str  # "players' webhook" or "GM-only webhook", for the warning
    payload: dict
    language: str  # the table's: the GM's warning is written in it
    # The hook showed a warning when the job ran: a success clears it.
    clears_warning: bool = False


Job = Callable[[], list[Post]]

_jobs: "queue.Queue[Job]" = queue.Queue(maxsize=BACKLOG)
_worker: threading.Thread | None = None
_worker_lock = threading.Lock()


def enqueue(job: Job) -> None:
    """Hand a job to the worker. Called after commit, from the request's thread."""
    _start_worker()
    try:
        _jobs.put_nowait(job)
    except queue.Full:
        logger.warning("The Discord relay is %d jobs behind: a post was dropped.", BACKLOG)


def wait_idle() -> None:
    """Until every job handed over so far is done (tests, and a clean shutdown)."""
    _jobs.join()


def _start_worker() -> None:
    global _worker
    with _worker_lock:
        if _worker is None or not _worker.is_alive():
            _worker = threading.Thread(target=_work, name="discord-relay", daemon=True)
            _worker.start()


def _work() -> None:
    while True:
        job = _jobs.get()
        try:
            for post in job():
                deliver(post)
        except Exception:
            logger.exception("The Discord relay failed on a job.")
        finally:
            # The worker's own connection: not held between jobs, which may be hours apart.
            connections.close_all()
            _jobs.task_done()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    # A webhook answers itself; a redirect would post the table's news somewhere else.
    def redirect_request(self, *args, **kwargs):
        return None


_opener = urllib.request.build_opener(_NoRedirect)


def deliver(post: Post) -> bool:
    """Post once, retrying as Discord allows. True if it went through."""
    with translation.override(post.language):
        return _deliver(post)


def _deliver(post: Post) -> bool:
    body = json.dumps(post.payload).encode()
    attempts = settings.DISCORD_ATTEMPTS
    error = ""
    for attempt in range(attempts):
        wait = settings.DISCORD_BACKOFF * 2**attempt
        request = urllib.request.Request(
            post.url,
            data=body,
            method="POST",
            headers={"Content-Type": "application/json", "User-Agent": USER_AGENT},
        )
        try:
            with _opener.open(request, timeout=settings.DISCORD_TIMEOUT) as response:
                response.read()
        except urllib.error.HTTPError as refusal:
            error = gettext("Discord answered HTTP %(code)s") % {"code": refusal.code}
            if refusal.code == 429:
                wait = _retry_after(refusal, default=wait)
                if wait > MAX_RETRY_AFTER:
                    break
            elif refusal.code < 500:
                # A deleted webhook or a bad post: trying again changes nothing.
                break
        except (TimeoutError, urllib.error.URLError, OSError, http.client.HTTPException) as failure:
            reason = getattr(failure, "reason", failure)
            error = (
                gettext("Discord did not answer in time")
                if isinstance(reason, TimeoutError)
                else gettext("Discord could not be reached")
            )
        else:
            if post.clears_warning:
                _set_warning(post.hook_id, "")
            return True
        if attempt + 1 < attempts:
            time.sleep(wait)
    logger.warning("A Discord post to the %s failed: %s.", post.which, error)
    warning = gettext("A post to the %(which)s failed: %(error)s.")
    _set_warning(post.hook_id, warning % {"which": post.which, "error": error})
    return False


def _retry_after(refusal: urllib.error.HTTPError, *, default: float) -> float:
    """Discord says how long to wait in the body (`retry_after`, seconds) and in the
    Retry-After header; either will do."""
    try:
        return float(json.loads(refusal.read() or b"{}")["retry_after"])
    except (ValueError, KeyError, TypeError):
        pass
    try:
        return float(refusal.headers.get("Retry-After", default))
    except (TypeError, ValueError):
        return default


def _set_warning(hook_id: int, text: str) -> None:
    from .models import DiscordHook

    DiscordHook.objects.filter(pk=hook_id).update(
        last_error=text[:200], last_error_at=timezone.now() if text else None
    )
