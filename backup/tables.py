"""One table to one JSON document and back.

`PARTS` lists every model that belongs to a table, in an order where each row's
references come before it, with how to find the table's rows. A new app adds its
models here (or to `NOT_EXPORTED`, with the reason) and the export, import, download
and round-trip test all follow; tests/backup/test_parts.py fails until it does.

Users are written by username (Django's natural key), so an export moves between
databases. Standard content (playbooks, their abilities, heritages and the like) comes
from data migrations and is written by its key, not its row id; a table's own custom
playbooks are part of the export.
"""

import json
from collections.abc import Callable
from datetime import datetime

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.db import connection, models, transaction

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

# Models that belong to a table but stay out of an export, and why. A model reaching
# sessions.Table through its foreign keys must be in PARTS or here (a test checks).
NOT_EXPORTED: dict[str, str] = {
    "table_sessions.Presence": "an open websocket of a running server, gone on restore",
    "crews.Screen": "a live hand-out link: a leaked export must not open the table's shared "
    "screen, so the GM hands out a new link after a restore",
    "chronicle.DiscordHook": "the webhook URLs are secrets (anyone holding one posts to the "
    "channel): the GM pastes them again after a restore",
}

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


class ImportRefused(Exception):
    pass


def _content_keys() -> dict[type[models.Model], dict[int, list[str]]]:
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


def _content_fields(model: type[models.Model], content: dict) -> list[models.Field]:
    return [f for f in model._meta.fields if f.is_relation and f.related_model in content]


def _rows(table_id: int) -> list[tuple[type[models.Model], models.QuerySet]]:
    parts = []
    for label, where in PARTS:
        model = apps.get_model(label)
        parts.append((model, model._default_manager.filter(**where(table_id)).order_by("pk")))
    return parts


def export_table(table_id: int) -> dict:
    content = _content_keys()
    users: set[str] = set()
    objects = []
    for model, rows in _rows(table_id):
        keyed = _content_fields(model, content)
        for item in serializers.serialize("python", rows, use_natural_foreign_keys=True):
            fields = item["fields"]
            for field in keyed:
                if fields[field.name] in content[field.related_model]:
                    fields[field.name] = {
                        "content": content[field.related_model][fields[field.name]]
                    }
            for field in model._meta.fields:
                is_user = field.is_relation and field.related_model is get_user_model()
                if is_user and fields[field.name]:
                    users.add(fields[field.name][0])
            objects.append(item)
    return {
        "format": FORMAT,
        "version": VERSION,
        "table": table_id,
        "users": sorted(users),
        "objects": objects,
    }


def dumps(document: dict) -> str:
    return json.dumps(document, indent=1, sort_keys=True, default=_json_default)


def _json_default(value):
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


def import_table(document: dict) -> int:
    """Restore a table into this database with its row ids; returns the table's id.

    Members missing here are created by username with unusable passwords (they set one
    through a password reset or the host). Refused if the table's id is taken."""
    if document.get("format") != FORMAT or document.get("version") != VERSION:
        raise ImportRefused("This is not a Blades Table export this version can read.")
    Table = apps.get_model("table_sessions", "Table")
    if Table.objects.filter(pk=document["table"]).exists():
        raise ImportRefused(f"Table {document['table']} already exists in this database.")
    lookups = {
        model: {tuple(key): pk for pk, key in keys.items()}
        for model, keys in _content_keys().items()
    }
    User = get_user_model()
    with transaction.atomic():
        for username in document["users"]:
            if not User.objects.filter(username=username).exists():
                user = User(username=username)
                user.set_unusable_password()
                user.save()
        touched = set()
        for item in document["objects"]:
            label = MOVED.get(item["model"].lower(), item["model"])
            model = apps.get_model(label)
            fields = dict(item["fields"])
            for field in _content_fields(model, lookups):
                value = fields[field.name]
                if isinstance(value, dict):
                    key = tuple(value["content"])
                    if key not in lookups[field.related_model]:
                        raise ImportRefused(f"This database has no {field.name} “{'/'.join(key)}”.")
                    fields[field.name] = lookups[field.related_model][key]
            for obj in serializers.deserialize(
                "python", [{**item, "model": label, "fields": fields}]
            ):
                obj.save()
            touched.add(model)
        # Rows came with their ids; PostgreSQL's sequences must move past them.
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), list(touched)):
                cursor.execute(sql)
    return document["table"]
