"""The Discord relay hears the table through signals, without the other apps knowing.

Rolls (every roll is a line of the table's roll log, the shared action roll's dice and
its resistance rolls too) are heard through Django's `post_save`, as they are made; the
phase through play's `phase_moved`; clocks move in an UPDATE that sends none, so
sessions sends `clock_moved` for them. Each
receiver only schedules a job for after the commit: the job itself (chronicle.posts)
runs in the relay's worker and reads the committed rows, so a roll made secret later in
the same transaction goes out as secret, and a rolled-back change goes nowhere. The
webhooks it posts to are read with the change, in its transaction: a delivery goes to
the webhook that was set when the change was made, not to one the GM set since.

Most tables have no webhook, and rolls are the busiest write at a table: for a table
without one, nothing is scheduled at all (`has_hook`).
"""

from collections.abc import Callable
from functools import partial
from time import monotonic

from django.apps import apps
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from play.signals import phase_moved
from sessions.signals import clock_moved

from . import discord, posts
from .models import DiscordHook

# How long a process trusts its list of the tables that have a webhook. A hook saved or
# deleted in this process is heard at once; one saved by another process (several daphne
# on one PostgreSQL, with REDIS_URL) is heard by this one within this bound: a roll made
# here in that second after the GM saved it may go unposted. The list costs one query a
# second at most, however many rolls the process serves.
HOOKS_FRESH_FOR = 1.0  # seconds

# (monotonic time until which it holds, ids of the tables with a webhook URL)
_hooked: tuple[float, frozenset[int]] = (0.0, frozenset())


def has_hook(table_id: int) -> bool:
    """Whether the table has a webhook to post to, as this process last looked."""
    global _hooked
    until, tables = _hooked
    now = monotonic()
    if now >= until:
        tables = frozenset(
            DiscordHook.objects.exclude(players_url="", gm_url="").values_list(
                "table_id", flat=True
            )
        )
        _hooked = (now + HOOKS_FRESH_FOR, tables)
    return table_id in tables


def forget_hooks(**kwargs) -> None:
    """Look again at the next change: a hook was saved or deleted. Again after its commit:
    a process that looked in between (another thread) read the table before the change."""
    global _hooked
    _hooked = (0.0, frozenset())
    if kwargs.get("sender") is not None:
        transaction.on_commit(forget_hooks)


def connect() -> None:
    Roll = apps.get_model("table_sessions", "Roll")
    Clock = apps.get_model("table_sessions", "Clock")
    Phase = apps.get_model("play", "Phase")
    post_save.connect(roll_saved, sender=Roll, dispatch_uid="chronicle.roll")
    phase_moved.connect(phase_changed, sender=Phase, dispatch_uid="chronicle.phase")
    clock_moved.connect(clock_changed, sender=Clock, dispatch_uid="chronicle.clock")
    post_save.connect(forget_hooks, sender=DiscordHook, dispatch_uid="chronicle.hook_saved")
    post_delete.connect(forget_hooks, sender=DiscordHook, dispatch_uid="chronicle.hook_deleted")


def _after_commit(table_id: int, job: Callable[..., list[discord.Post]]) -> None:
    if not has_hook(table_id):
        return
    hooks = posts.webhooks(table_id)
    if hooks is not None:
        transaction.on_commit(lambda: discord.enqueue(partial(job, hooks=hooks)))


def roll_saved(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    # `raw`: a table being restored from a backup, not a roll being made.
    if created and not raw:
        _after_commit(instance.table_id, partial(posts.roll_posts, instance.table_id, instance.pk))


def phase_changed(sender, phase, **kwargs) -> None:
    _after_commit(phase.table_id, partial(posts.phase_posts, phase.table_id, phase.step))


def clock_changed(sender, clock, before: int, **kwargs) -> None:
    if clock.full and before < clock.segments:
        _after_commit(clock.table_id, partial(posts.clock_posts, clock.table_id, clock.pk))
