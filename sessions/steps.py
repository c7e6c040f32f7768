"""One way to write a step of play: a Django form per step, whose `execute()` calls the
one action that takes it.

Each app keeps a table of its steps (`{"stress": StressStep, ...}`) in its `Room`, and
one view serves the steps of every app (sessions/step_view.py): it looks the step up by
the name in the URL, binds the form to the POST with the member taking the step and what
the step is taken on (a sheet, a roll, a crew), asks `allow()`, and calls `take()`. A
field that does not parse (not a number, past its bounds,
too long, NUL, an id that is not among the ones the member may name) is refused before
any action runs, as an `InputError` naming the field; a refusal of the rules comes from
the action as a `RuleError`. Either way `sessions.refusals` answers 422 with the message
beside the control, and nothing has changed.
"""

from collections.abc import Mapping

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied
from django.http import Http404
from django.utils.translation import gettext_lazy, gettext_noop

from blades.rules.errors import RuleError

# The largest key an integer column holds (PostgreSQL's `integer`); any id past it is
# no id at all, and asking the database about it fails on some backends.
ID_MAX = 2**31 - 1
# For a count the rules judge themselves (and say so in their words): bounds only
# against garbage, such as a 30-digit number no column holds.
NUMBER_MAX = 1000


class InputError(RuleError):
    """A value that does not parse; the message names the field."""


def number(*, required: bool = True, initial: int | None = None) -> forms.IntegerField:
    """A whole number for the rules to judge: only garbage is refused here."""
    return whole(low=-NUMBER_MAX, high=NUMBER_MAX, required=required, initial=initial)


def whole(*, low: int, high: int, required: bool = True, initial=None) -> forms.IntegerField:
    return forms.IntegerField(min_value=low, max_value=high, required=required, initial=initial)


def text(max_length: int, *, required: bool = False) -> forms.CharField:
    """Stripped text of at most `max_length` characters (the model's column or less)."""
    return forms.CharField(max_length=max_length, required=required)


def flag() -> forms.BooleanField:
    return forms.BooleanField(required=False)


class OneOf(forms.ModelChoiceField):
    """The object whose id is posted, among a queryset the step sets from what the member
    may name (an access function's answer: never a whole table). An id past what a
    column holds is no id: refused before the database is asked."""

    default_error_messages = {"invalid_choice": gettext_lazy("choose one from the list.")}

    def __init__(self, queryset=None, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(queryset=queryset, **kwargs)

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if not str(value).isdigit() or not 0 < int(value) <= ID_MAX:
            raise forms.ValidationError(self.error_messages["invalid_choice"], "invalid_choice")
        return super().to_python(value)


def _what(form: forms.Form, name: str) -> str:
    field = form.fields.get(name)
    label = field.label if field is not None and field.label else name.replace("_", " ")
    return str(label).capitalize()


class Step(forms.Form):
    """A step of play. `by` is the member taking it; the keyword arguments name what it is
    taken on and are set as attributes (`sheet_step(..., character=c)` gives
    `self.character`). `control` is the control on the page a refusal of the rules is
    shown beside; a field that does not parse is shown beside itself. `allowed()` says
    who may take it (the named predicate the page asks to draw its control); a member who
    may not is told `forbidden`."""

    control = ""
    forbidden = gettext_lazy("That step is not yours to take.")

    def __init__(self, data, *, by, **subject):
        super().__init__(data)
        self.by = by
        for name, value in subject.items():
            setattr(self, name, value)

    def allowed(self) -> bool:
        raise NotImplementedError(f"{type(self).__name__} does not say who may take it")

    def allow(self) -> None:
        """Asked before anything posted is parsed: a refusal is a 403, nothing read."""
        if not self.allowed():
            raise PermissionDenied(self.forbidden)

    def execute(self):
        raise NotImplementedError(f"{type(self).__name__} takes no action")

    def refused_at(self) -> str:
        """Where a refusal of this step is shown: its control, or its first field's."""
        return self.control or next(iter(self.fields), "")

    def take(self):
        """Parse, then act: nothing is called when a field is refused."""
        if not self.is_valid():
            name, messages = next(iter(self.errors.items()))
            if name == NON_FIELD_ERRORS:
                raise InputError(messages[0], field=self.refused_at())
            raise InputError(
                gettext_noop("%(what)s: %(problem)s"),
                field=name,
                what=_what(self, name),
                problem=messages[0],
            )
        return self.execute()


def step_for(steps: Mapping[str, type[Step]], name: str, data, **context) -> Step:
    """The step named in the URL, bound to what was posted; an unknown name is no page."""
    step = steps.get(name)
    if step is None:
        raise Http404
    return step(data, **context)
