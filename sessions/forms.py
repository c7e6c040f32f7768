from django import forms

from blades.rules import clocks as clock_rules
from blades.rules.dice import MAX_POOL
from blades.rules.rolls import RollKind

from .models import Clock

# The kinds a member can roll from the quick-roll box; the others need game state
# (crew heat, participants) and are rolled by their own flows.
QUICK_ROLL_KINDS = [
    RollKind.ACTION,
    RollKind.RESISTANCE,
    RollKind.FORTUNE,
    RollKind.ENGAGEMENT,
    RollKind.INFORMATION,
    RollKind.VICE,
    RollKind.DOWNTIME,
]


class TableForm(forms.Form):
    name = forms.CharField(label="Table name", max_length=80)


class RollForm(forms.Form):
    kind = forms.ChoiceField(
        label="Roll type", choices=[(k.value, k.label) for k in QUICK_ROLL_KINDS], initial="action"
    )
    pool = forms.IntegerField(label="Dice", min_value=0, max_value=MAX_POOL, initial=2)
    note = forms.CharField(label="Note", max_length=200, required=False)
    secret = forms.BooleanField(label="Secret (GM only)", required=False)


class ClockForm(forms.Form):
    name = forms.CharField(label="Clock name", max_length=80)
    segments = forms.IntegerField(
        label="Segments",
        min_value=clock_rules.CLOCK_MIN,
        max_value=clock_rules.CLOCK_MAX,
        initial=4,
        help_text="4 complex, 6 more complicated, 8 daunting",
    )
    kind = forms.ChoiceField(label="Kind", choices=Clock.Kind.choices, initial="danger")
    visibility = forms.ChoiceField(
        label="Visible to", choices=Clock.Visibility.choices, initial="everyone"
    )
