"""One table to one JSON document and back.

`PARTS` lists every model that belongs to a table, in an order where each row's
references come before it, with how to find the table's rows. A new app adds its
models here (or to `NOT_EXPORTED`, with the reason) and the export, the restore
(backup/restore.py), the download and the round-trip test all follow;
tests/backup/test_parts.py fails until it does.

Users are never written: each field that names one names a seat of the file instead
("seat 2: the player of Nyx"), the same seat for the same person throughout, and the
restore hands each seat to a person who joins the new table. Standard content
(playbooks, their abilities, heritages and the like) comes
from data migrations and is written by its key, not its row id; a table's own custom
playbooks are part of the export.
"""

import json
from collections.abc import Callable
from datetime import datetime

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.db import models
from django.utils.translation import gettext, gettext_noop

FORMAT = "blades-table-export"
VERSION = 1

# (model label, the table's rows of it). Order matters on import.
PARTS: list[tuple[str, Callable[[int], dict]]] = [
    ("table_sessions.Table", lambda t: {"pk": t}),
    ("table_sessions.Membership", lambda t: {"table_id": t}),
    ("characters.Playbook", lambda t: {"table_id": t}),
    ("characters.SpecialAbility", lambda t: {"playbook__table_id": t}),
    ("characters.PlaybookFriend", lambda t: {"playbook__table_id": t}),
    ("characters.Item", lambda t: {"playbook__table_id": t}),
    ("characters.Character", lambda t: {"table_id": t}),
    ("characters.CharacterAbility", lambda t: {"character__table_id": t}),
    ("characters.Contact", lambda t: {"character__table_id": t}),
    ("characters.CharacterItem", lambda t: {"character__table_id": t}),
    ("characters.GmNote", lambda t: {"character__table_id": t}),
    ("characters.Draft", lambda t: {"table_id": t}),
    ("table_sessions.Clock", lambda t: {"table_id": t}),
    ("table_sessions.Roll", lambda t: {"table_id": t}),
    ("crews.Crew", lambda t: {"table_id": t}),
    ("crews.Claim", lambda t: {"crew__table_id": t}),
    ("crews.Cohort", lambda t: {"crew__table_id": t}),
    ("crews.Faction", lambda t: {"table_id": t}),
    ("crews.FactionClock", lambda t: {"faction__table_id": t}),
    ("play.Score", lambda t: {"table_id": t}),
    ("play.Flashback", lambda t: {"score__table_id": t}),
    ("play.DowntimeActivity", lambda t: {"score__table_id": t}),
    ("play.Phase", lambda t: {"table_id": t}),
    ("rolls.ActionRoll", lambda t: {"table_id": t}),
    ("rolls.Consequence", lambda t: {"roll__table_id": t}),
    ("rolls.RollEvent", lambda t: {"roll__table_id": t}),
    ("chronicle.PlaySession", lambda t: {"table_id": t}),
    ("chronicle.Learned", lambda t: {"session__table_id": t}),
    ("chronicle.Happening", lambda t: {"table_id": t}),
]

# What a refusal calls each kind of row, in the reader's language (Django's own names
# of models are not marked for translation).
KINDS: dict[str, str] = {
    "table_sessions.Table": gettext_noop("table"),
    "table_sessions.Membership": gettext_noop("membership"),
    "characters.Playbook": gettext_noop("playbook"),
    "characters.SpecialAbility": gettext_noop("special ability"),
    "characters.PlaybookFriend": gettext_noop("playbook friend"),
    "characters.Item": gettext_noop("item"),
    "characters.Character": gettext_noop("character"),
    "characters.CharacterAbility": gettext_noop("character ability"),
    "characters.Contact": gettext_noop("contact"),
    "characters.CharacterItem": gettext_noop("character item"),
    "characters.GmNote": gettext_noop("gm note"),
    "characters.Draft": gettext_noop("draft"),
    "table_sessions.Clock": gettext_noop("clock"),
    "table_sessions.Roll": gettext_noop("roll"),
    "crews.Crew": gettext_noop("crew"),
    "crews.Claim": gettext_noop("claim"),
    "crews.Cohort": gettext_noop("cohort"),
    "crews.Faction": gettext_noop("faction"),
    "crews.FactionClock": gettext_noop("faction clock"),
    "play.Score": gettext_noop("score"),
    "play.Flashback": gettext_noop("flashback"),
    "play.DowntimeActivity": gettext_noop("downtime activity"),
    "play.Phase": gettext_noop("phase"),
    "rolls.ActionRoll": gettext_noop("action roll"),
    "rolls.Consequence": gettext_noop("consequence"),
    "rolls.RollEvent": gettext_noop("roll event"),
    "chronicle.PlaySession": gettext_noop("play session"),
    "chronicle.Learned": gettext_noop("learned"),
    "chronicle.Happening": gettext_noop("happening"),
}


def kind_of(model: type[models.Model]) -> str:
    """The kind of row, as a refusal names it to its reader."""
    return gettext(KINDS.get(model._meta.label, model._meta.verbose_name))


# Models that belong to a table but stay out of an export, and why. A model reaching
# sessions.Table through its foreign keys must be in PARTS or here (a test checks).
NOT_EXPORTED: dict[str, str] = {
    "backup.Seat": "a restore's list of the file's members not here yet: an export of the "
    "new table holds the rows, and whoever restores it hands their own seats",
    "table_sessions.Presence": "an open websocket of a running server, gone on restore",
    "crews.Screen": "a live hand-out link: a leaked export must not open the table's shared "
    "screen, so the GM hands out a new link after a restore",
    "chronicle.DiscordHook": "the webhook URLs are secrets (anyone holding one posts to the "
    "channel): the GM pastes them again after a restore",
}

# Fields an export leaves out: live secrets. Whoever holds the file must not be able to
# use them (the invite link would seat them at the table); a restore makes new ones.
LEFT_OUT: dict[str, set[str]] = {"table_sessions.Table": {"invite_token"}}

# Models that moved to another app after exports were written: the label an older file
# names them by (lower case, as exports write labels) → the label they have now.
MOVED: dict[str, str] = {
    **{
        f"crews.{name}": f"play.{name}"
        for name in ("score", "flashback", "downtimeactivity", "phase")
    },
    **{
        f"table_sessions.{name}": f"rolls.{name}"
        for name in ("actionroll", "consequence", "rollevent")
    },
}


def content_keys() -> dict[type[models.Model], dict[int, list[str]]]:
    """Row id → stable key of every piece of standard content."""
    Option = apps.get_model("characters", "Option")
    Playbook = apps.get_model("characters", "Playbook")
    SpecialAbility = apps.get_model("characters", "SpecialAbility")
    return {
        Option: {o.pk: [o.kind, o.key] for o in Option.objects.all()},
        Playbook: {p.pk: [p.key] for p in Playbook.objects.filter(table=None)},
        SpecialAbility: {
            a.pk: [a.playbook.key, a.key]
            for a in SpecialAbility.objects.filter(playbook__table=None).select_related("playbook")
        },
    }


def content_fields(model: type[models.Model], content: dict) -> list[models.Field]:
    return [f for f in model._meta.fields if f.is_relation and f.related_model in content]


def _rows(table_id: int) -> list[tuple[type[models.Model], models.QuerySet]]:
    parts = []
    for label, where in PARTS:
        model = apps.get_model(label)
        parts.append((model, model._default_manager.filter(**where(table_id)).order_by("pk")))
    return parts


def export_table(table_id: int) -> dict:
    return _export(table_id)[0]


def seats_of(table_id: int) -> dict[str, str]:
    """Username → the seat an export of the table names them by."""
    return _export(table_id)[1]


def _export(table_id: int) -> tuple[dict, dict[str, str]]:
    content = content_keys()
    objects = []
    user_fields: list[tuple[dict, str]] = []  # (a row's fields, a field naming a user)
    for model, rows in _rows(table_id):
        keyed = content_fields(model, content)
        left_out = LEFT_OUT.get(model._meta.label, set())
        users = [
            f.name
            for f in model._meta.fields
            if f.is_relation and f.related_model is get_user_model()
        ]
        for item in serializers.serialize("python", rows, use_natural_foreign_keys=True):
            fields = item["fields"]
            for name in left_out:
                del fields[name]
            for field in keyed:
                if fields[field.name] in content[field.related_model]:
                    fields[field.name] = {
                        "content": content[field.related_model][fields[field.name]]
                    }
            user_fields += [(fields, name) for name in users if fields[name]]
            objects.append(item)
    seats = _seats(objects, user_fields)
    for fields, name in user_fields:
        fields[name] = [seats[fields[name][0]]]
    document = {
        "format": FORMAT,
        "version": VERSION,
        "table": table_id,
        "users": list(seats.values()),
        "objects": objects,
    }
    return document, seats


def _seats(objects: list[dict], user_fields: list[tuple[dict, str]]) -> dict[str, str]:
    """Username → the seat the file names instead: a file never names the users of this
    site, only the places at its table ("seat 2: the player of Nyx"), which a restore
    hands to the people who join (backup.models.Seat). The GM's seat comes first: the
    table's row does."""
    order = list(dict.fromkeys(fields[name][0] for fields, name in user_fields))
    sheets: dict[str, list[str]] = {username: [] for username in order}
    for item in objects:
        if item["model"] == "characters.character" and item["fields"]["owner"]:
            sheets[item["fields"]["owner"][0]].append(item["fields"]["name"])
    seats = {}
    for number, username in enumerate(order, start=1):
        if number == 1:
            seats[username] = "seat 1: the GM"
        elif sheets[username]:
            seats[username] = f"seat {number}: the player of {', '.join(sheets[username])}"
        else:
            seats[username] = f"seat {number}: a member"
    return seats


def dumps(document: dict) -> str:
    return json.dumps(document, indent=1, sort_keys=True, default=_json_default)


def _json_default(value):
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)
