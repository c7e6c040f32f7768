from django import forms

from blades.rules import clocks as clock_rules
from blades.rules.dice import MAX_POOL
from blades.rules.rolls import RollKind

from .models import Clock

# The quick-roll box is for what is not an action roll: a plain pool of dice (the GM's
# fortune roll, a gather information). An action roll is the table's shared roll (rolls/),
# where the GM sets position and effect; resistance and vice are rolled from the sheet and
# downtime, engagement and entanglement from the phase, each with what it changes.
QUICK_ROLL_KINDS = [RollKind.FORTUNE, RollKind.INFORMATION]


class TableForm(forms.Form):
    name = forms.CharField(label="Table name", max_length=80)


class RollForm(forms.Form):
    kind = forms.ChoiceField(
        label="Roll type", choices=[(k.value, k.label) for k in QUICK_ROLL_KINDS], initial="fortune"
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
