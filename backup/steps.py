"""The settings page's step: a restored table's waiting character handed to its player
(sessions/steps.py: one form, whose `execute()` calls the one action)."""

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from characters import actions as character_actions
from characters.models import Character
from sessions import steps

from . import access, actions
from .models import Seat


class SettingsStep(steps.Step):
    """A step of the settings page: the GM's, as the page is."""

    forbidden = access.KEEPER_ONLY

    def allowed(self) -> bool:
        return access.can_keep_table(self.by.is_gm)


class HandOverStep(SettingsStep):
    """Also the page's form: its characters are the ones waiting for a player."""

    character = steps.OneOf(label=_("Character"), required=True)
    player = forms.ModelChoiceField(
        queryset=get_user_model().objects.none(), label=_("Player"), to_field_name="username"
    )

    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.fields["character"].queryset = Character.objects.filter(
            table=self.table, owner=None
        ).select_related("playbook")
        self.fields["player"].queryset = players(self.table)
        self.fields["player"].label_from_instance = lambda user: user.username

    def execute(self):
        data = self.cleaned_data
        return character_actions.hand_over(character=data["character"], player=data["player"])


class HandSeatStep(SettingsStep):
    """A seat of the restored file to a person who joined: every row it named follows."""

    seat = steps.OneOf(label=_("Seat"), required=True)
    player = forms.ModelChoiceField(
        queryset=get_user_model().objects.none(), label=_("Player"), to_field_name="username"
    )

    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.fields["seat"].queryset = Seat.objects.filter(table=self.table)
        self.fields["player"].queryset = players(self.table)
        self.fields["player"].label_from_instance = lambda user: user.username

    def execute(self):
        return actions.hand_seat(seat=self.cleaned_data["seat"], player=self.cleaned_data["player"])


def players(table):
    return (
        get_user_model()
        .objects.filter(memberships__table=table, memberships__role="player")
        .order_by("username")
    )


STEPS: dict[str, type[SettingsStep]] = {"hand-over": HandOverStep, "hand-seat": HandSeatStep}
