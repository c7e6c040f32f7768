"""What a JSON field of the table holds, said once, where the field is declared.

A JSON column takes any value, and the pages read each one as play writes it. So each
such field of a table's rows is a `ShapedJSONField` with its `Shape`: every write checks
its value against it before it reaches the database (a writer that starts writing a new
key fails its own tests until the shape says so), and a restore (backup/restore.py)
checks a file's values against the same shape, and moves the row ids inside them (`Ref`)
to the new table's ids. Nothing else knows what the fields hold, so the two cannot drift.

A refusal is `ShapeError`, whose words are read in the reader's language."""

from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.expressions import BaseExpression

from blades.rules import dice as dice_rules
from blades.rules.errors import RuleError
from blades.rules.words import Plural, Words, _, ngettext

# A moved reference that stays behind: its key leaves the record (see `OwnRef`).
DROP = object()

# new_id(label, old id) → the new table's id, or raises LookupError when the file has
# no such row.
NewId = Callable[[str, int], int]


class ShapeError(ValueError):
    """A value no game writes; `words` say what, in the reader's language."""

    def __init__(self, message: str | Plural, **params) -> None:
        self.words = Words(message, **params)
        super().__init__(message)

    def __str__(self) -> str:
        return str(self.words)


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Shape:
    """Checks a value (`check`) and gives it with the table's row ids moved (`moved`)."""

    def check(self, value) -> None:
        raise NotImplementedError

    def moved(self, value, new_id: NewId):
        return value

    def key(self, value: str) -> None:
        """As the key of a mapping: JSON keys are always text."""
        raise ShapeError(_("a key that is not text"))

    def moved_key(self, value: str, new_id: NewId) -> str:
        return value


class Anything(Shape):
    """Plain JSON, read by name where it is used (the journal's data, a wizard's answers)."""

    def check(self, value) -> None:
        # A loop, not recursion: a file may nest as deep as JSON lets it.
        pending = [value]
        while pending:
            item = pending.pop()
            if isinstance(item, dict):
                pending += item.values()
            elif isinstance(item, list):
                pending += item
            elif item is not None and not isinstance(item, str | int | float | bool):
                raise ShapeError(_("a value that is not JSON"))


class Text(Shape):
    def check(self, value) -> None:
        if not isinstance(value, str):
            raise ShapeError(_("“%(value)s” is not text"), value=str(value)[:40])

    def key(self, value) -> None:
        pass


class Flag(Shape):
    def check(self, value) -> None:
        if not isinstance(value, bool):
            raise ShapeError(_("“%(value)s” is not true or false"), value=str(value)[:40])


class Whole(Shape):
    def __init__(self, low: int | None = None, high: int | None = None) -> None:
        self.low, self.high = low, high

    def check(self, value) -> None:
        fits = _whole(value) and (self.low is None or value >= self.low)
        if not (fits and (self.high is None or value <= self.high)):
            raise ShapeError(_("“%(value)s” is not a count it can hold"), value=str(value)[:40])

    def key(self, value) -> None:
        if not value.lstrip("-").isdigit():
            raise ShapeError(_("“%(value)s” is not a number"), value=value[:40])
        self.check(int(value))


class Maybe(Shape):
    """`shape`, or nothing yet (null)."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape

    def check(self, value) -> None:
        if value is not None:
            self.shape.check(value)

    def moved(self, value, new_id: NewId):
        return None if value is None else self.shape.moved(value, new_id)


class ListOf(Shape):
    def __init__(self, item: Shape) -> None:
        self.item = item

    def check(self, value) -> None:
        if not isinstance(value, list):
            raise ShapeError(_("not a list"))
        for item in value:
            self.item.check(item)

    def moved(self, value, new_id: NewId):
        return [self.item.moved(item, new_id) for item in value]


class Pair(Shape):
    """A list of exactly these, in this order ([name, coin])."""

    def __init__(self, *items: Shape) -> None:
        self.items = items

    def check(self, value) -> None:
        if not (isinstance(value, list) and len(value) == len(self.items)):
            raise ShapeError(_("not a list of %(count)s"), count=len(self.items))
        for shape, item in zip(self.items, value, strict=True):
            shape.check(item)


class MapOf(Shape):
    def __init__(self, key: Shape, value: Shape) -> None:
        self.key_shape, self.value = key, value

    def check(self, value) -> None:
        if not isinstance(value, dict):
            raise ShapeError(_("not a mapping"))
        for key, item in value.items():
            # A writer's number key is text once stored (JSON keys are).
            if not isinstance(key, str | int) or isinstance(key, bool):
                raise ShapeError(_("a key that is not text"))
            self.key_shape.key(str(key))
            self.value.check(item)

    def moved(self, value, new_id: NewId):
        return {
            self.key_shape.moved_key(key, new_id): self.value.moved(item, new_id)
            for key, item in value.items()
        }


class Record(Shape):
    """A mapping of these keys, each optional; any other key is refused, unless
    `others` says what the others hold."""

    def __init__(self, others: Shape | None = None, **keys: Shape) -> None:
        self.keys, self.others = keys, others

    def check(self, value) -> None:
        if not isinstance(value, dict):
            raise ShapeError(_("not a mapping"))
        for key, item in value.items():
            shape = self.keys.get(key, self.others)
            if shape is None:
                raise ShapeError(_("an entry “%(key)s” no game writes"), key=str(key)[:40])
            try:
                shape.check(item)
            except ShapeError as error:
                raise ShapeError(
                    _("its %(key)s: %(problem)s"), key=key, problem=error.words
                ) from None

    def moved(self, value, new_id: NewId):
        moved = {}
        for key, item in value.items():
            shape = self.keys.get(key, self.others)
            item = shape.moved(item, new_id)
            if item is not DROP:
                moved[key] = item
        return moved


class Ref(Shape):
    """The id of one of the table's rows of `label`: a number, or its digits as a key."""

    def __init__(self, label: str) -> None:
        self.label = label

    def check(self, value) -> None:
        if not (_whole(value) and value > 0):
            raise ShapeError(_("“%(value)s” names no row"), value=str(value)[:40])

    def key(self, value) -> None:
        if not value.isdigit():
            raise ShapeError(_("“%(value)s” names no row"), value=value[:40])

    def moved(self, value, new_id: NewId):
        return new_id(self.label, value)

    def moved_key(self, value: str, new_id: NewId) -> str:
        return str(new_id(self.label, int(value)))


class OwnRef(Ref):
    """A posted answer that may name one of the table's own rows (a wizard's chosen
    playbook, as text): the wizard checks it again when it reads it, so any text is
    kept; moved to the new id when the file has that row, else it stays behind (a
    standard row has another id on another server, and is picked again)."""

    def check(self, value) -> None:
        if not isinstance(value, str):
            super().check(value)

    def moved(self, value, new_id: NewId):
        try:
            return str(new_id(self.label, int(value)))
        except (LookupError, ValueError):
            return DROP


class Faces(Shape):
    """Dice as they fell, each 1 to 6."""

    def check(self, value) -> None:
        if not (
            isinstance(value, list) and all(_whole(d) and d in dice_rules.FACES for d in value)
        ):
            raise ShapeError(_("not dice from 1 to 6"))


class PoolAndDice(Shape):
    """A roll kept whole: [pool, *dice]. A pool of 0 or less rolls two dice."""

    def check(self, value) -> None:
        if not (isinstance(value, list) and value and _whole(value[0])):
            raise ShapeError(_("not a pool and its dice"))
        pool, *faces = value
        Faces().check(faces)
        if not -dice_rules.MAX_POOL <= pool <= dice_rules.MAX_POOL:
            raise ShapeError(
                ngettext("a pool of %(pool)s die", "a pool of %(pool)s dice", pool), pool=pool
            )
        if len(faces) != dice_rules.dice_count(pool):
            raise ShapeError(
                ngettext(
                    "a pool of %(pool)s rolls %(count)s die, not %(given)s",
                    "a pool of %(pool)s rolls %(count)s dice, not %(given)s",
                    dice_rules.dice_count(pool),
                ),
                pool=pool,
                count=dice_rules.dice_count(pool),
                given=len(faces),
            )


def dice_fit_pool(pool, dice) -> None:
    """A roll row's `clean()`: the dice kept beside their pool are what it rolls."""
    if dice is None:
        return
    try:
        PoolAndDice().check([pool, *dice])
    except ShapeError as error:
        raise ValidationError({"dice": str(error)}) from None


class Checked(Shape):
    """`shape`, then a rule of the game on the whole value (raising `RuleError`)."""

    def __init__(self, shape: Shape, rule: Callable) -> None:
        self.shape, self.rule = shape, rule

    def check(self, value) -> None:
        self.shape.check(value)
        try:
            self.rule(value)
        except RuleError as error:
            raise ShapeError(error.message, **error.params) from None

    def moved(self, value, new_id: NewId):
        return self.shape.moved(value, new_id)


class ShapedJSONField(models.JSONField):
    """A JSON column that holds only its `shape` (the shape is no part of the schema,
    so it is left out of migrations). `label` names it to the reader, marked with `_`."""

    def __init__(self, *args, shape: Shape, label: str, **kwargs) -> None:
        self.shape, self.label = shape, label
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        return name, "django.db.models.JSONField", args, kwargs

    def clone(self):
        name, path, args, kwargs = self.deconstruct()
        return self.__class__(*args, shape=self.shape, label=self.label, **kwargs)

    def validate(self, value, model_instance) -> None:
        super().validate(value, model_instance)
        self.shape_check(value)

    def shape_check(self, value) -> None:
        if value is None and self.null:
            return
        self.shape.check(value)

    def get_db_prep_save(self, value, connection):
        # Every write: save(), update(), bulk_create; an expression is the database's.
        if not isinstance(value, BaseExpression):
            self.shape_check(value)
        return super().get_db_prep_save(value, connection)
