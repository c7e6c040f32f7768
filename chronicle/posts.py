"""What goes to Discord, built in the relay's worker from the committed database.

Each function here is a job (chronicle.discord): it reads the row the change left,
decides its audience and returns the posts, to the table's webhooks as they were when
the change was made (`Webhooks`, read by the relay). The audience follows the table's own:
what the roll log shows players goes to the players' webhook; a secret roll, a GM-only
clock or a hidden faction's clock goes to the GM-only webhook, or nowhere without one.

A post is the whole table's: each is written in the table's language (`in_table_language`),
whoever made the change, and so is the warning a failed one leaves for the GM.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from django.apps import apps
from django.utils import translation
from django.utils.translation import gettext

from blades.rules.dice import Outcome
from sessions import audience

from .discord import Post
from .models import DiscordHook
from .terms import rules_word

# Discord's limits on an embed's parts.
TITLE_MAX, TEXT_MAX, FIELD_MAX = 256, 4096, 1024

COLOURS = {
    Outcome.CRITICAL: 0xD4A017,
    Outcome.SUCCESS: 0x2E8B57,
    Outcome.PARTIAL: 0xC77D1A,
    Outcome.BAD: 0xA52A2A,
}
CLOCK_COLOUR = 0x4B0082
PHASE_COLOUR = 0x36454F


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _field(name: str, value: str, inline: bool = True) -> dict:
    return {"name": name, "value": _cut(value or "—", FIELD_MAX), "inline": inline}


def _embed(title: str, description: str, colour: int, fields=(), footer: str = "") -> dict:
    embed = {"title": _cut(title, TITLE_MAX), "color": colour}
    if description:
        embed["description"] = _cut(description, TEXT_MAX)
    if fields:
        embed["fields"] = list(fields)
    if footer:
        embed["footer"] = {"text": _cut(footer, TITLE_MAX)}
    return embed


@dataclass(frozen=True)
class Webhooks:
    """A table's webhooks as they were when a change was made. Its posts go there: a GM
    who sets another channel before the worker gets to them (Discord slow, a backlog of
    retries) does not send what happened before to the new one."""

    hook_id: int
    players_url: str
    gm_url: str
    table_name: str
    language: str  # the table's, for every word of its posts


def webhooks(table_id: int) -> Webhooks | None:
    """The table's webhooks now, or None without any."""
    hook = DiscordHook.objects.select_related("table").filter(table_id=table_id).first()
    if hook is None or not (hook.players_url or hook.gm_url):
        return None
    table = hook.table
    return Webhooks(hook.pk, hook.players_url, hook.gm_url, table.name, table.language)


def in_table_language(job: Callable[..., list[Post]]) -> Callable[..., list[Post]]:
    """A job written in the table's language, the one its webhooks were read with: the
    relay's worker has no language of its own, and the change's maker's is not the
    table's."""

    @wraps(job)
    def written(table_id: int, subject, hooks: Webhooks) -> list[Post]:
        with translation.override(hooks.language):
            return job(table_id, subject, hooks)

    return written


def route(hooks: Webhooks, embed: dict, *, secret: bool) -> list[Post]:
    url, which = (
        (hooks.gm_url, gettext("GM-only webhook"))
        if secret
        else (hooks.players_url, gettext("players' webhook"))
    )
    if not url:
        return []
    if secret:
        title = gettext("[GM only] %(title)s") % {"title": embed["title"]}
        embed = {**embed, "title": _cut(title, TITLE_MAX)}
    # The warning as it is now: a post that failed after this change was made left it.
    warned = DiscordHook.objects.filter(pk=hooks.hook_id).exclude(last_error="").exists()
    return [
        Post(
            hook_id=hooks.hook_id,
            url=url,
            which=which,
            language=hooks.language,
            payload={"embeds": [embed], "allowed_mentions": {"parse": []}},
            clears_warning=warned,
        )
    ]


def _dice(dice, pool: int) -> str:
    faces = ", ".join(map(str, dice))
    if pool <= 0:
        return gettext("%(faces)s (%(pool)sd, lowest counts)") % {"faces": faces, "pool": pool}
    return gettext("%(faces)s (%(pool)sd)") % {"faces": faces, "pool": pool}


@in_table_language
def roll_posts(table_id: int, roll_id: int, hooks: Webhooks) -> list[Post]:
    """A line of the table's roll log: every roll of the app, the shared action roll's
    included (its line names the action, position and effect), and each resistance."""
    Roll = apps.get_model("table_sessions", "Roll")
    roll = Roll.objects.select_related("roller", "table").filter(pk=roll_id).first()
    if roll is None:
        return []
    player = roll.roller.username if roll.roller else gettext("Someone")
    who = (
        gettext("%(character)s (%(player)s)") % {"character": roll.character_name, "player": player}
        if roll.character_name
        else player
    )
    # A note may name a clock or a faction the GM keeps hidden (sessions.audience): a
    # secret roll goes to the GM's webhook, any other to the players'.
    note = audience.fill(roll.note, is_gm=roll.secret)
    text = str(roll.summary) + (f"\n{note}" if note else "")
    embed = _embed(
        f"{who}: {rules_word(roll.kind_label)}",
        text,
        COLOURS[Outcome(roll.outcome)],
        [
            _field(gettext("Dice"), _dice(roll.dice, roll.pool)),
            _field(gettext("Result"), rules_word(roll.outcome_label)),
        ],
        footer=roll.table.name,
    )
    return route(hooks, embed, secret=roll.secret)


@in_table_language
def clock_posts(table_id: int, clock_id: int, hooks: Webhooks) -> list[Post]:
    """A clock that has just filled (and still is, now that the change committed)."""
    Clock = apps.get_model("table_sessions", "Clock")
    clock = (
        Clock.objects.select_related("table", "faction_link__faction").filter(pk=clock_id).first()
    )
    if clock is None or not clock.full:
        return []
    link = getattr(clock, "faction_link", None)
    # A clock whose progress players do not see does not tell them it filled.
    secret = clock.progress_hidden or bool(link and link.faction.hidden)
    embed = _embed(
        gettext("Clock filled: %(name)s") % {"name": clock.name},
        gettext("%(kind)s clock, %(filled)s/%(segments)s")
        % {"kind": clock.get_kind_display(), "filled": clock.filled, "segments": clock.segments},
        CLOCK_COLOUR,
        footer=clock.table.name,
    )
    return route(hooks, embed, secret=secret)


@in_table_language
def phase_posts(table_id: int, step: str, hooks: Webhooks) -> list[Post]:
    """The table moved to another step of the loop. Only the step is named: a score's
    target may be a faction the players do not know."""
    label = apps.get_model("play", "Phase").Step(step).label
    embed = _embed(
        gettext("Now: %(step)s") % {"step": label}, "", PHASE_COLOUR, footer=hooks.table_name
    )
    return route(hooks, embed, secret=False)


@in_table_language
def trial_posts(table_id: int, subject: None, hooks: Webhooks) -> list[Post]:
    """The GM's test post: one line to each webhook that is set, so she sees the posts
    reach the channels she meant (a failure leaves its warning on the Discord page)."""
    embed = _embed(
        gettext("Test post from Blades Table"),
        gettext("Rolls, filled clocks and phase changes at this table are posted here."),
        PHASE_COLOUR,
        footer=hooks.table_name,
    )
    return [*route(hooks, embed, secret=False), *route(hooks, embed, secret=True)]
