"""No live secret leaves with an export: whoever holds the file must not be able to
join the table, open its screen, post to its Discord or sign in as anyone."""

import re

from django.apps import apps
from django.db import models
from django.utils import timezone

from backup.tables import dumps, export_table
from tests.backup.full_table import full_table
from tests.factories import DiscordHookFactory

# A field is taken for a secret when its name says so, when it is a UUID, or when its
# default is made by a function (a random token is; a list, a dict, "" or the time is not).
SECRET_NAME = re.compile(r"token|secret|key|webhook|password|hash|url", re.IGNORECASE)
PLAIN_DEFAULTS = (list, dict, str, timezone.now)

# Fields the rule above takes for secrets, and why each is not one.
NOT_SECRET = {
    "characters.Playbook.key": "names standard content (the lurk): public, in every copy",
    "characters.SpecialAbility.key": "names standard content (an ability): public",
    "characters.Option.key": "names standard content (a heritage, a vice): public",
    "table_sessions.Roll.secret": "a yes or no: whether players see the roll",
    "rolls.ActionRoll.secret": "a yes or no: whether players see the roll",
}


def secret_fields() -> list[models.Field]:
    found = []
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            default = field.default if field.has_default() else None
            if (
                SECRET_NAME.search(field.name)
                or isinstance(field, models.UUIDField)
                or (callable(default) and default not in PLAIN_DEFAULTS)
            ) and f"{model._meta.label}.{field.name}" not in NOT_SECRET:
                found.append(field)
    return found


def test_the_export_carries_no_value_of_any_secret_field(client, db):
    table = full_table()
    DiscordHookFactory(
        table=table,
        players_url="https://discord.com/api/webhooks/1/players-secret",
        gm_url="https://discord.com/api/webhooks/2/gm-secret",
    )
    client.force_login(table.gm)  # a session row, its key a secret
    text = dumps(export_table(table.pk))

    fields = secret_fields()
    assert {f"{f.model._meta.label}.{f.name}" for f in fields} >= {
        "table_sessions.Table.invite_token",
        "crews.Screen.token",
        "chronicle.DiscordHook.gm_url",
        "auth.User.password",
        "sessions.Session.session_key",
    }
    for field in fields:
        values = [
            str(value)
            for value in field.model._default_manager.values_list(field.name, flat=True)
            if value not in (None, "")
        ]
        # Each secret field is checked against a real value: a new model with a secret
        # needs a row here.
        assert values, f"no {field.model._meta.label}.{field.name} to check"
        for value in values:
            assert value not in text, f"the export carries {field.model._meta.label}.{field.name}"
