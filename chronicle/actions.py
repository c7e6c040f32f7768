"""The session journal's changes: the GM starts and ends a session and keeps its title
and notes; anyone at the table adds a line of what we learned."""

from functools import partial

from django.apps import apps
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from blades.rules.character import RuleError

from . import discord, posts
from .models import DiscordHook, Learned, PlaySession


def open_session(table_id: int) -> PlaySession | None:
    return PlaySession.objects.filter(table_id=table_id, ended=None).first()


def start_session(*, table, title: str = "") -> PlaySession:
    """Play begins now; the journal's first heading is the step the loop stands at."""
    Phase = apps.get_model("play", "Phase")
    step = Phase.objects.filter(table=table).values_list("step", flat=True).first()
    try:
        with transaction.atomic():
            return PlaySession.objects.create(
                table=table, title=title, start_step=step or Phase.Step.FREE_PLAY
            )
    except IntegrityError:
        # Two clicks at once: the unique condition lets one session be open per table.
        raise RuleError(gettext_noop("A session is already under way; end it first.")) from None


def end_session(*, session: PlaySession) -> PlaySession:
    ended = timezone.now()
    if not PlaySession.objects.filter(pk=session.pk, ended=None).update(ended=ended):
        raise RuleError(gettext_noop("This session has already ended."))
    session.ended = ended
    return session


def edit_session(*, session: PlaySession, title: str, gm_notes: str) -> PlaySession:
    session.title, session.gm_notes = title, gm_notes
    session.save(update_fields=["title", "gm_notes"])
    return session


def add_learned(*, session: PlaySession, author, text: str) -> Learned:
    if not text.strip():
        raise RuleError(gettext_noop("Write what you learned first."))
    return Learned.objects.create(session=session, author=author, text=text.strip())


def set_webhooks(*, table, players_url: str, gm_url: str) -> DiscordHook:
    """The table's webhooks, checked by the form; new ones start without the old ones'
    warning."""
    hook, _ = DiscordHook.objects.update_or_create(
        table=table,
        defaults={
            "players_url": players_url,
            "gm_url": gm_url,
            "last_error": "",
            "last_error_at": None,
        },
    )
    return hook


def send_trial_post(*, table) -> None:
    """A test post to each of the table's webhooks, through the relay like every post."""
    hooks = posts.webhooks(table.pk)
    if hooks is None:
        raise RuleError(gettext_noop("Save a webhook first: there is nowhere to send a test post."))
    discord.enqueue(partial(posts.trial_posts, table.pk, None, hooks=hooks))
