import copy

from django import forms
from django.utils.translation import gettext_lazy as _

from blades.rules import clocks as clock_rules
from blades.rules.dice import MAX_POOL
from blades.rules.rolls import RollKind

from . import audience
from .models import Clock

# The quick-roll box is for what is not an action roll: a plain pool of dice (the GM's
# fortune roll, a gather information). An action roll is the table's shared roll (rolls/),
# where the GM sets position and effect; resistance and vice are rolled from the sheet and
# downtime, engagement and entanglement from the phase, each with what it changes.
QUICK_ROLL_KINDS = [RollKind.FORTUNE, RollKind.INFORMATION]


# Every clock has its own edit form on the page; prefixes keep their ids apart.
NEW_CLOCK = "new-clock"


class TableForm(forms.Form):
    name = forms.CharField(label=_("Table name"), max_length=80)


class RollFields(forms.Form):
    """The quick roll's box (sessions.table_steps.QuickRoll)."""

    kind = forms.ChoiceField(
        label=_("Roll type"),
        choices=[(k.value, _(k.label)) for k in QUICK_ROLL_KINDS],
        initial="fortune",
    )
    pool = forms.IntegerField(label=_("Dice"), min_value=0, max_value=MAX_POOL, initial=2)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)
    secret = forms.BooleanField(label=_("Secret (GM only)"), required=False)


class ClockFields(forms.Form):
    """The GM's clock: its fields, and the links it may make (`offer`)."""

    name = forms.CharField(label=_("Clock name"), max_length=80)
    segments = forms.IntegerField(
        label=_("Segments"),
        min_value=clock_rules.CLOCK_MIN,
        max_value=clock_rules.CLOCK_MAX,
        initial=4,
        help_text=_("4 complex, 6 more complicated, 8 daunting"),
    )
    kind = forms.ChoiceField(label=_("Kind"), choices=Clock.Kind.choices, initial="danger")
    visibility = forms.ChoiceField(
        label=_("Visible to"),
        choices=[c for c in Clock.Visibility.choices if c[0] != Clock.Visibility.OWNER],
        initial="everyone",
    )
    players_tick = forms.BooleanField(label=_("Players may tick"), required=False)
    unlocks = forms.TypedChoiceField(
        label=_("Unlocks (once full)"), coerce=int, empty_value=None, required=False
    )
    rival = forms.TypedChoiceField(
        label=_("Races against"), coerce=int, empty_value=None, required=False
    )

    def offer(self, clocks, clock: Clock | None = None) -> None:
        """`clocks`: the table's clocks the GM may link this one to (the page's own list,
        so the many edit forms on the page ask the database nothing more): the choices
        are the ownership check."""
        self.others = {c.pk: c for c in clocks if clock is None or c.pk != clock.pk}
        if clock is not None and clock.owner_id is not None:
            # A player's clock may stay private to them; no other clock has an owner to keep it.
            self.fields["visibility"].choices = Clock.Visibility.choices
        choices = [("", "—"), *((c.pk, audience.menu_label(c)) for c in self.others.values())]
        self.fields["unlocks"].choices = choices
        self.fields["rival"].choices = choices

    def clean_unlocks(self) -> Clock | None:
        return self.others.get(self.cleaned_data["unlocks"])

    def clean_rival(self) -> Clock | None:
        return self.others.get(self.cleaned_data["rival"])


class ClockForm(ClockFields):
    """The GM's clock as the page draws it, new or to edit."""

    def __init__(self, *args, clocks=(), clock: Clock | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.offer(clocks, clock)


class PlayerClockFields(forms.Form):
    """A player's own clock: a project, a goal, a countdown they keep and tick."""

    name = forms.CharField(label=_("Clock name"), max_length=80)
    segments = ClockForm.base_fields["segments"]
    kind = forms.ChoiceField(
        label=_("Kind"),
        choices=[
            (k.value, k.label) for k in (Clock.Kind.PROJECT, Clock.Kind.DANGER, Clock.Kind.MISSION)
        ],
        initial=Clock.Kind.PROJECT,
    )
    visibility = forms.ChoiceField(
        label=_("Visible to"),
        choices=[
            (Clock.Visibility.EVERYONE, _("Everyone")),
            (Clock.Visibility.OWNER, _("Only me and the GM")),
        ],
        initial=Clock.Visibility.EVERYONE,
    )


def own_clock_fields(clock: Clock) -> dict[str, forms.Field]:
    """A player's own clock as she edits it: the fields she made it with. Its links and
    who else ticks it stay the GM's, and so does a kind the GM gave it that players do
    not choose."""
    fields = copy.deepcopy(PlayerClockFields.base_fields)
    if clock.kind not in dict(fields["kind"].choices):
        del fields["kind"]
    return fields


class OwnClockForm(forms.Form):
    """A player's own clock as her page draws it to edit."""

    def __init__(self, *, clock: Clock):
        initial = {"name": clock.name, "segments": clock.segments, "kind": clock.kind,
                   "visibility": clock.visibility}  # fmt: skip
        super().__init__(prefix=f"clock-{clock.pk}", initial=initial)
        self.fields = own_clock_fields(clock)
