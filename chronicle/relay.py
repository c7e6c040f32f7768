"""The Discord relay hears the table through signals, without the other apps knowing.

Rolls (every roll is a line of the table's roll log, the shared action roll's dice and
its resistance rolls too) and the phase are heard through Django's `post_save`; clocks
move in an UPDATE that sends none, so sessions sends `clock_moved` for them. Each
receiver only schedules a job for after the commit: the job itself (chronicle.posts)
runs in the relay's worker and reads the committed rows, so a roll made secret later in
the same transaction goes out as secret, and a rolled-back change goes nowhere.
"""

from functools import partial

from django.apps import apps
from django.db import transaction
from django.db.models.signals import post_save

from sessions.signals import clock_moved

from . import discord, posts


def connect() -> None:
    Roll = apps.get_model("table_sessions", "Roll")
    Clock = apps.get_model("table_sessions", "Clock")
    Phase = apps.get_model("play", "Phase")
    post_save.connect(roll_saved, sender=Roll, dispatch_uid="chronicle.roll")
    post_save.connect(phase_saved, sender=Phase, dispatch_uid="chronicle.phase")
    clock_moved.connect(clock_changed, sender=Clock, dispatch_uid="chronicle.clock")


def _after_commit(job: discord.Job) -> None:
    transaction.on_commit(lambda: discord.enqueue(job))


def roll_saved(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    # `raw`: a table being restored from a backup, not a roll being made.
    if created and not raw:
        _after_commit(partial(posts.roll_posts, instance.table_id, instance.pk))


def phase_saved(sender, instance, created: bool, raw: bool = False, update_fields=None, **kwargs):
    if raw or created or (update_fields is not None and "step" not in update_fields):
        return
    label = instance.get_step_display()
    _after_commit(partial(posts.phase_posts, instance.table_id, label))


def clock_changed(sender, clock, before: int, **kwargs) -> None:
    if clock.full and before < clock.segments:
        _after_commit(partial(posts.clock_posts, clock.table_id, clock.pk))
