"""The forms of the shared roll's panel: the proposal that opens a roll and the GM's fortune roll.

A fortune roll's advantages and disadvantages are bounded by the largest pool the dice
roll (blades.rules.dice), since more of either cannot change what is rolled.
"""

from django import forms

from blades.rules import character as char_rules
from blades.rules import flow as flow_rules
from blades.rules.dice import MAX_POOL


class StartRollForm(forms.Form):
    goal = forms.CharField(label="Goal", max_length=200)
    action = forms.ChoiceField(
        label="Action", choices=[(a, a.capitalize()) for a in char_rules.ACTIONS]
    )
    group = forms.BooleanField(label="Group action (I lead)", required=False)
    gather_information = forms.BooleanField(label="Gather information", required=False)
    flashback = forms.BooleanField(label="Flashback", required=False)
    setup_for = forms.TypedChoiceField(
        label="Set up a teammate", coerce=int, required=False, empty_value=None
    )
    setup_benefit = forms.ChoiceField(
        label="Set-up benefit",
        choices=[("", "—"), *flow_rules.SETUP_BENEFITS.items()],
        required=False,
    )

    def __init__(self, *args, teammates=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["setup_for"].choices = [("", "Nobody")] + [(c.pk, c.name) for c in teammates]

    def clean(self):
        data = super().clean()
        if data.get("setup_for") and not data.get("setup_benefit"):
            benefits = " or ".join(b.lower() for b in flow_rules.SETUP_BENEFITS.values())
            self.add_error("setup_benefit", f"Choose {benefits}.")
        return data


class FortuneForm(forms.Form):
    goal = forms.CharField(label="What is at stake", max_length=200)
    trait = forms.IntegerField(label="Trait dice", min_value=0, max_value=MAX_POOL, initial=2)
    advantages = forms.IntegerField(label="Advantages", min_value=0, max_value=MAX_POOL, initial=0)
    disadvantages = forms.IntegerField(
        label="Disadvantages", min_value=0, max_value=MAX_POOL, initial=0
    )
    gather_information = forms.BooleanField(label="Gather information", required=False)
    secret = forms.BooleanField(label="Secret (GM only)", required=False)
