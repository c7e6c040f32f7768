"""Restore an export as a new table, and only that.

The file is whatever someone sends: a GM's own export, edited by hand or not. So the
restore writes nothing the file names except rows of a table's own kinds (`PARTS`),
each made anew with a new id; every reference among them is translated to the new ids,
and a reference to anything outside the file (another table's character, a user's
row, a session) is refused. Users are never written: the person restoring becomes the
GM, and the other members are invited again: each is a seat (backup.models.Seat) that
lists the rows that named them, and the GM hands each seat to a person who joined; or,
when the host asks for it (`match_members`), members of an older file, which named
users by username, are seated by username if this server has that user. A file written
now names seats ("seat 2: the player of Nyx"), which no username can be. Anything the
restore cannot read is refused with one message and nothing is written (one
transaction).

The command (`manage.py import_table`) and the web page (backup/views.py) both call
`read_document` and `restore_table`; the web preview is the same restore, rolled back.
"""

import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import DatabaseError, models, transaction
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, gettext_noop

from blades.rules import clocks as clock_rules
from blades.rules.errors import RuleError
from sessions.files import unstorable_text
from sessions.shapes import ShapedJSONField, ShapeError

from .models import Seat
from .tables import FORMAT, LEFT_OUT, MOVED, PARTS, VERSION, content_keys, kind_of

# Well past a long campaign's export (a few hundred KB): the web form and the command
# refuse more before reading it.
MAX_BYTES = 8 * 1024 * 1024
# An export nests five deep (objects, a row, its fields, a roll's changes, a value); a
# sheet's value kept in a roll's changes adds a few more.
MAX_DEPTH = 32


# What each kind of field holds in an export (JSON fields hold anything).
PLAIN_TYPES = [
    (models.BooleanField, bool),
    (models.IntegerField, int),
    (models.CharField, str),
    (models.TextField, str),
    (models.DateTimeField, str),
]
TYPE_NAMES = {
    bool: gettext_noop("true or false"),
    int: gettext_noop("a whole number"),
    str: gettext_noop("text"),
}


class ImportRefused(Exception):
    pass


@dataclass
class Restored:
    """What a restore made: the table, and what the preview tells the GM."""

    table: models.Model
    counts: dict[str, int] = field(default_factory=dict)  # kind → rows
    names: dict[str, list[str]] = field(default_factory=dict)  # characters, clocks, factions
    seated: list[str] = field(default_factory=list)  # members matched by username
    invited: list[str] = field(default_factory=list)  # members to invite again


class _Preview(Exception):
    """Raised inside the transaction to roll a preview back."""


def read_document(raw: bytes | str) -> dict:
    """The file as a document, or a refusal saying why it is not one."""
    if len(raw) > MAX_BYTES:
        raise ImportRefused(
            gettext("The file is larger than %(mb)s MB.") % {"mb": MAX_BYTES // (1024 * 1024)}
        )
    too_deep = False
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        document = json.loads(text, parse_constant=_no_constant)
        too_deep = _deeper_than(document, MAX_DEPTH)
    except UnicodeDecodeError:
        raise ImportRefused(gettext("The file is not text (UTF-8): not a table export.")) from None
    except ValueError as error:
        raise ImportRefused(
            gettext("The file is not JSON (%(error)s): not a table export.") % {"error": error}
        ) from None
    except RecursionError:
        too_deep = True
    if too_deep:
        # Python's own limit falls wherever the stack happens to be; every later walk of
        # the document (the checks, the database's JSON) would meet it at another depth.
        raise ImportRefused(gettext("The file nests too deep: not a table export."))
    # NUL and lone surrogates parse from JSON but no page or database takes them: refused,
    # named by where they are, by the one check of text that comes from a file.
    problems = unstorable_text(document)
    if problems:
        raise ImportRefused(" ".join(problems))
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused(gettext("This is not a Blades Table export."))
    if document.get("version") != VERSION:
        raise ImportRefused(
            gettext("This export was written by a version this server cannot read.")
        )
    return document


def _deeper_than(document, limit: int) -> bool:
    pending = [(document, 0)]
    while pending:
        value, depth = pending.pop()
        if depth > limit:
            return True
        if isinstance(value, dict):
            pending += [(item, depth + 1) for item in value.values()]
        elif isinstance(value, list):
            pending += [(item, depth + 1) for item in value]
    return False


def _no_constant(name: str):
    raise ValueError(gettext("%(name)s is not a number JSON allows") % {"name": name})


def restore_table(
    document: dict, *, gm, match_members: bool = False, preview: bool = False
) -> Restored:
    """Make a new table from an export read by `read_document`, with `gm` as its GM.

    With `preview`, everything is written and checked as for real, then rolled back:
    the preview tells exactly what the restore would make, or why it is refused."""
    try:
        with transaction.atomic():
            restored = _Restore(document, gm=gm, match_members=match_members).run()
            if preview:
                raise _Preview
    except _Preview:
        pass
    return restored


def _is_id(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**63


def _anchor(where: Callable[[int], dict]) -> str:
    """The field that ties a part's row to the table ("table", "playbook", ...)."""
    (lookup,) = where(0)
    return lookup.split("__")[0].removesuffix("_id")


class _Restore:
    def __init__(self, document: dict, *, gm, match_members: bool):
        self.document = document
        self.gm = gm
        self.match_members = match_members
        self.User = get_user_model()
        self.models = {apps.get_model(label): _anchor(where) for label, where in PARTS}
        self.content = {
            model: {tuple(key): pk for pk, key in keys.items()}
            for model, keys in content_keys().items()
        }
        self.new_ids: dict[type[models.Model], dict[int, int]] = defaultdict(dict)
        self.users: dict[str, int | None] = {}  # username → this server's user id
        self.file_gm = ""
        self.later: list[tuple[type[models.Model], int, str, type[models.Model], int]] = []
        # username → [model label, new row id, field]: the rows that wait for a seat.
        self.seats: dict[str, list[list]] = defaultdict(list)

    # --- Reading the rows -------------------------------------------------------------

    def rows(self) -> dict[type[models.Model], list[tuple[str, int, dict]]]:
        """The file's rows by model, in the order of PARTS; refused if any row is not
        of a table's own kinds, or is not shaped as an export writes it."""
        objects = self.document.get("objects")
        if not isinstance(objects, list):
            raise ImportRefused(gettext("The file has no list of objects: not a table export."))
        labels = {label.lower(): apps.get_model(label) for label, _ in PARTS}
        by_model: dict[type[models.Model], list] = {model: [] for model in self.models}
        seen = defaultdict(set)
        for number, item in enumerate(objects, start=1):
            if not isinstance(item, dict) or not isinstance(item.get("model"), str):
                raise ImportRefused(
                    gettext("Object %(number)s is not a row of a table export.")
                    % {"number": number}
                )
            name = item["model"]
            model = labels.get(MOVED.get(name.lower(), name.lower()))
            if model is None:
                raise ImportRefused(
                    gettext(
                        "Object %(number)s is a “%(kind)s” row. A restore makes a new table "
                        "from its own kinds of rows only (characters, clocks, rolls, the crew "
                        "and the like): never users, sessions, permissions or other data."
                    )
                    % {"number": number, "kind": name[:60]}
                )
            where = gettext("Object %(number)s (%(kind)s)") % {
                "number": number,
                "kind": kind_of(model),
            }
            if not _is_id(item.get("pk")) or item["pk"] in seen[model]:
                raise ImportRefused(gettext("%(where)s has no id of its own.") % {"where": where})
            if not isinstance(item.get("fields"), dict):
                raise ImportRefused(gettext("%(where)s has no fields.") % {"where": where})
            seen[model].add(item["pk"])
            by_model[model].append((where, item["pk"], item["fields"]))
        self.in_file = seen
        return by_model

    def run(self) -> Restored:
        by_model = self.rows()
        tables = by_model[apps.get_model("table_sessions", "Table")]
        if len(tables) != 1 or tables[0][1] != self.document.get("table"):
            raise ImportRefused(gettext("The file must hold exactly the one table it exports."))
        for model, rows in by_model.items():
            for where, pk, fields in rows:
                self.write(model, where, pk, fields)
        for model, pk, name, target, old in self.later:
            model._default_manager.filter(pk=pk).update(**{name: self.new_ids[target][old]})
        table = self.table_model.objects.get(pk=self.new_ids[self.table_model][tables[0][1]])
        Clock = apps.get_model("table_sessions", "Clock")
        try:
            clock_rules.check_links(
                dict(Clock.objects.filter(table=table).values_list("pk", "unlocks_id"))
            )
        except RuleError as error:
            raise ImportRefused(
                gettext("The file's clocks: %(error)s") % {"error": error}
            ) from None
        Membership = apps.get_model("table_sessions", "Membership")
        Membership.objects.get_or_create(table=table, user=self.gm, defaults={"role": "gm"})
        Seat.objects.bulk_create(
            Seat(table=table, name=username, rows=rows) for username, rows in self.seats.items()
        )
        table.refresh_from_db()
        return self.summary(table)

    def summary(self, table) -> Restored:
        restored = Restored(table=table)
        for model in self.models:
            count = len(self.new_ids[model])
            if count and model is not self.table_model:
                # The singular: Django's plurals of "special ability" and the like are wrong.
                restored.counts[str(model._meta.verbose_name)] = count
        for label in ("characters.Character", "table_sessions.Clock", "crews.Faction"):
            model = apps.get_model(label)
            restored.names[str(model._meta.verbose_name_plural)] = list(
                model.objects.filter(table=table).order_by("pk").values_list("name", flat=True)
            )
        for username, user in sorted(self.users.items()):
            if username != self.file_gm:
                (restored.seated if user else restored.invited).append(username)
        return restored

    # --- Writing one row --------------------------------------------------------------

    def write(self, model: type[models.Model], where: str, pk: int, fields: dict) -> None:
        label = model._meta.label
        if label == "table_sessions.Roll" and "character" in fields:
            fields = self.character_named(where, fields)
        known = {f.name: f for f in model._meta.fields if not f.primary_key}
        values: dict = {}
        deferred: list[tuple[str, type[models.Model], int]] = []
        unseated: list[tuple[str, str]] = []  # (field, the file's username)
        for name, value in fields.items():
            if name in LEFT_OUT.get(label, ()):
                continue  # an older export's secret: the new table makes its own
            if name not in known:
                raise ImportRefused(
                    gettext("%(where)s has a field “%(name)s” it does not have.")
                    % {"where": where, "name": str(name)[:40]}
                )
            target = known[name].related_model
            if target is None:
                values[name] = self.plain(where, known[name], value)
            elif target is self.User:
                values[name] = self.user(where, name, value)
                if values[name] is None and value is not None:
                    unseated.append((name, value[0]))
            elif isinstance(value, dict) and target in self.content:
                values[name] = self.content_id(where, name, target, value)
            elif value is None:
                values[name] = None
            elif target in self.models and _is_id(value) and value in self.in_file[target]:
                if value in self.new_ids[target]:
                    values[name] = self.new_ids[target][value]
                elif known[name].null:
                    values[name], deferred = None, [*deferred, (name, target, value)]
                else:
                    raise ImportRefused(
                        gettext("%(where)s comes before the row its %(name)s names.")
                        % {"where": where, "name": name}
                    )
            else:
                raise ImportRefused(
                    gettext("%(where)s: its %(name)s names a %(kind)s that is not in the file.")
                    % {"where": where, "name": name, "kind": kind_of(target)}
                )
        if values.get(self.models[model]) is None and model is not self.table_model:
            raise ImportRefused(
                gettext("%(where)s belongs to no row of the table.") % {"where": where}
            )
        if not self.keep(model, where, values):
            return
        for shaped in _shaped(model):
            if values.get(shaped.name) is not None:
                values[shaped.name] = self.shaped(where, shaped, values[shaped.name])
        obj = self.save(model, where, values)
        self.new_ids[model][pk] = obj.pk
        self.later += [(model, obj.pk, name, target, old) for name, target, old in deferred]
        for name, username in unseated:
            self.seats[username].append([label, obj.pk, name])

    def shaped(self, where: str, field: ShapedJSONField, value):
        """A JSON field's value checked against the shape its writers keep to
        (sessions/shapes.py), with the table's ids inside it moved to the new ones."""
        try:
            field.shape.check(value)
        except ShapeError as error:
            raise ImportRefused(
                gettext("%(where)s, its %(field)s: %(problem)s")
                % {"where": where, "field": gettext(field.label), "problem": error}
            ) from None

        def new_id(label: str, old: int) -> int:
            target = apps.get_model(label)
            if old not in self.new_ids[target]:
                raise LookupError(label)
            return self.new_ids[target][old]

        try:
            return field.shape.moved(value, new_id)
        except LookupError as missing:
            kind = kind_of(apps.get_model(missing.args[0]))
            raise ImportRefused(
                gettext("%(where)s, its %(field)s: names a %(kind)s that is not in the file.")
                % {"where": where, "field": gettext(field.label), "kind": kind}
            ) from None

    def character_named(self, where: str, fields: dict) -> dict:
        """A roll from a file written while a roll pointed at its character's row: it
        keeps that character's name now, read from the row the file restored."""
        fields = dict(fields)
        old = fields.pop("character")
        if old is not None and "character_name" not in fields:
            pk = self.reference(where, "characters.Character", old)
            Character = apps.get_model("characters", "Character")
            fields["character_name"] = Character.objects.get(pk=pk).name
        return fields

    @property
    def table_model(self) -> type[models.Model]:
        return apps.get_model("table_sessions", "Table")

    def keep(self, model: type[models.Model], where: str, values: dict) -> bool:
        """Rows tied to a member who is not here stay behind; only the GM is GM."""
        label = model._meta.label
        if label == "table_sessions.Table":
            values["gm"] = self.gm.pk
            self.file_gm = next((u for u, pk in self.users.items() if pk == self.gm.pk), "")
        if label == "table_sessions.Membership":
            if values.get("role") == "gm" and values.get("user") != self.gm.pk:
                raise ImportRefused(
                    gettext("%(where)s makes someone other than the table's GM its GM.")
                    % {"where": where}
                )
            if values.get("user") == self.gm.pk:
                values["role"] = "gm"
            return values.get("user") is not None
        if label == "characters.Draft":
            return values.get("user") is not None
        return True

    def user(self, where: str, name: str, value) -> int | None:
        """A member, by username: the file's GM is the person restoring; others only
        when the host asked to match them, and only users this server already has."""
        if value is None:
            return None
        if not (isinstance(value, list) and len(value) == 1 and isinstance(value[0], str)):
            raise ImportRefused(
                gettext("%(where)s: its %(name)s is not a username.")
                % {"where": where, "name": name}
            )
        username = value[0]
        if username not in self.users:
            is_gm = not self.users and name == "gm"  # the table's row comes first
            found = None
            if is_gm:
                found = self.gm.pk
            elif self.match_members and username != self.gm.get_username():
                found = self.User.objects.filter(username=username).values_list("pk", flat=True)
                found = found.first()
            self.users[username] = found
        return self.users[username]

    def plain(self, where: str, field: models.Field, value):
        """A value of the type the export writes: Django would turn a list into its text
        for a name, and "3" into a number, where the file is simply wrong."""
        if value is None:
            return None
        wanted = next((t for f, t in PLAIN_TYPES if isinstance(field, f)), None)
        # A JSON field takes any JSON value here: SHAPES checks what it holds. True is an
        # int to Python, not a number to the file.
        fits = wanted is None or (
            isinstance(value, wanted) and (wanted is bool or type(value) is not bool)
        )
        if not fits:
            raise ImportRefused(
                gettext("%(where)s: its %(name)s is not %(kind)s.")
                % {"where": where, "name": field.name, "kind": gettext(TYPE_NAMES[wanted])}
            )
        # A time without its zone would be read as the server's, with a warning.
        if isinstance(field, models.DateTimeField):
            moment = parse_datetime(value)
            if moment is None or moment.tzinfo is None:
                raise ImportRefused(
                    gettext("%(where)s: its %(name)s is not a time with its zone.")
                    % {"where": where, "name": field.name}
                )
        return value

    def content_id(self, where: str, name: str, target: type[models.Model], value: dict) -> int:
        key = value.get("content")
        if not (isinstance(key, list) and key and all(isinstance(k, str) for k in key)):
            raise ImportRefused(
                gettext("%(where)s: its %(name)s is not standard content.")
                % {"where": where, "name": name}
            )
        if tuple(key) not in self.content[target]:
            raise ImportRefused(
                gettext("This server has no %(name)s “%(key)s”.")
                % {"name": name, "key": "/".join(key)[:80]}
            )
        return self.content[target][tuple(key)]

    def reference(self, where: str, label: str, old) -> int:
        """The new id of a row the file names inside a JSON field."""
        target = apps.get_model(label)
        old = int(old) if isinstance(old, str) and old.isdigit() else old
        if not _is_id(old) or old not in self.new_ids[target]:
            raise ImportRefused(
                gettext("%(where)s names a %(kind)s that is not in the file.")
                % {"where": where, "kind": kind_of(target)}
            )
        return self.new_ids[target][old]

    def save(self, model: type[models.Model], where: str, values: dict) -> models.Model:
        try:
            (obj,) = serializers.deserialize(
                "python", [{"model": model._meta.label_lower, "pk": None, "fields": values}]
            )
            # Lengths, choices and ranges, as a form would check them; not "required",
            # which the app's own rows do not always meet (an empty list of traumas).
            unchecked = [
                f.name
                for f in model._meta.fields
                if f.is_relation or getattr(obj.object, f.attname) in f.empty_values
            ]
            obj.object.clean_fields(exclude=unchecked)
            obj.object.clean()  # what fields say together: a roll's dice and its pool
            obj.object.validate_constraints()
            obj.save()
        except ValidationError as error:
            raise ImportRefused(
                gettext("%(where)s: %(problem)s") % {"where": where, "problem": _said(error)}
            ) from None
        except (serializers.base.DeserializationError, FieldDoesNotExist) as error:
            raise ImportRefused(
                gettext("%(where)s: %(problem)s") % {"where": where, "problem": _first_line(error)}
            ) from None
        except (DatabaseError, ValueError, TypeError, OverflowError) as error:
            raise ImportRefused(
                gettext("%(where)s cannot be stored: %(problem)s")
                % {"where": where, "problem": _first_line(error)}
            ) from None
        return obj.object


def _said(error: ValidationError) -> str:
    if hasattr(error, "error_dict"):
        return "; ".join(f"{name}: {' '.join(msgs)}" for name, msgs in error.message_dict.items())
    return " ".join(error.messages)


def _first_line(error: Exception) -> str:
    return str(error).splitlines()[0][:200] if str(error) else type(error).__name__


def _shaped(model: type[models.Model]) -> list[ShapedJSONField]:
    return [f for f in model._meta.fields if isinstance(f, ShapedJSONField)]
