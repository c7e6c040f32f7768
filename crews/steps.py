"""The steps of the crew sheet, the faction ladder and the shared screen's link: one form
each, whose `execute()` calls the one action that takes it (sessions/steps.py).

`who` is the question of crews/access.py the step is allowed by: the view asks it before
anything is parsed, and the page asks the same one to draw the step's control. `page`
and `part` say what the answer redraws; a refusal is drawn beside `control` in the form
kept under `form_key` (what was typed survives), or above the part when the step is a
tap with no form.
"""

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from blades.rules import crew as rules
from blades.rules.errors import RuleError
from sessions import steps

from . import access, actions
from .forms import (
    BooksForm,
    ClaimForm,
    CohortForm,
    FactionForm,
    GoalClockForm,
    SettingsForm,
    SheetForm,
)
from .models import Claim, Cohort, Faction

AMOUNT_LIMIT = max(rules.VAULT_LIMITS)  # the longest track: coin with a full vault


def yes_no() -> forms.TypedChoiceField:
    """A hidden "1" or "0" (a checkbox would read "0" as checked); left out is no."""
    return forms.TypedChoiceField(
        choices=[("1", _("yes")), ("0", _("no"))],
        coerce=lambda value: value == "1",
        required=False,
        empty_value=False,
    )


class CrewPagesStep(steps.Step):
    """A step on one of this app's pages (the crew sheet, the faction ladder, the shared
    screen's link), taken at a table by one of its members."""

    page = "crew"
    part = ""
    who: access.Question
    form_key = ""
    crew = None

    def allowed(self) -> bool:
        return self.who(self.by.is_gm, self.crew)

    @property
    def forbidden(self) -> str:
        return access.REFUSALS[self.who]

    def redraw(self, error: RuleError) -> dict:
        """What the page is drawn with after `error`: the bound form (what was typed)
        with the fields' own errors, or with a refusal of the rules beside `control`;
        else the message above the part."""
        if self.form_key and (isinstance(error, steps.InputError) or self.control):
            self.is_valid()
            if not isinstance(error, steps.InputError):
                field = None if self.control == NON_FIELD_ERRORS else self.control
                self.add_error(field, str(error))
            return {self.form_key: self.shown()}
        return {"error": str(error)}

    def shown(self):
        return self


class CrewStep(CrewPagesStep):
    """A step on the table's crew sheet (404 while the table has none)."""

    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.crew = access.table_crew(self.table)

    def claim(self) -> Claim:
        return get_object_or_404(Claim, pk=self.claim_id, crew=self.crew)

    def cohort(self) -> Cohort:
        return get_object_or_404(Cohort, pk=self.cohort_id, crew=self.crew)


class BookStep(CrewStep):
    """A tap on one of the books' tracks: the amount it changes by."""

    part = "books"
    who = staticmethod(access.can_keep_books)
    amount = steps.whole(low=-AMOUNT_LIMIT, high=AMOUNT_LIMIT)

    def clean_amount(self) -> int:
        if self.cleaned_data["amount"] == 0:
            message = gettext("give a number from −{limit} to {limit}.")
            raise forms.ValidationError(message.format(limit=AMOUNT_LIMIT))
        return self.cleaned_data["amount"]


class RepStep(BookStep):
    def execute(self):
        return actions.add_rep(crew=self.crew, amount=self.cleaned_data["amount"])


class HeatStep(BookStep):
    def execute(self):
        return actions.add_heat(crew=self.crew, amount=self.cleaned_data["amount"])


class CoinStep(BookStep):
    def execute(self):
        return actions.add_coin(crew=self.crew, amount=self.cleaned_data["amount"])


class XpStep(BookStep):
    def execute(self):
        return actions.mark_xp(crew=self.crew, amount=self.cleaned_data["amount"])


class DevelopStep(CrewStep):
    part = "books"
    who = staticmethod(access.can_keep_books)

    def execute(self):
        return actions.develop(crew=self.crew)


class AdvanceStep(CrewStep):
    part = "books"
    who = staticmethod(access.can_edit_sheet)

    def execute(self):
        return actions.spend_advance_on_upgrades(crew=self.crew)


class CorrectBooksStep(CrewStep, BooksForm):
    part = "books"
    who = staticmethod(access.can_correct_books)
    form_key = "books_form"  # the wanted level's taps post it too: refusals go above

    def execute(self):
        return actions.correct_books(crew=self.crew, **self.cleaned_data)


class AbilityStep(CrewStep):
    part = "abilities"
    who = staticmethod(access.can_edit_sheet)
    key = steps.text(60)

    def execute(self):
        return actions.take_ability(crew=self.crew, key=self.cleaned_data["key"])


class DropAbilityStep(AbilityStep):
    who = staticmethod(access.can_refund_ability)

    def execute(self):
        return actions.drop_ability(crew=self.crew, key=self.cleaned_data["key"])


class UpgradeStep(CrewStep):
    part = "upgrades"
    who = staticmethod(access.can_edit_sheet)
    key = steps.text(60)
    amount = forms.TypedChoiceField(
        choices=[("1", _("mark")), ("-1", _("clear"))], coerce=int, required=False, empty_value=1
    )

    def execute(self):
        data = self.cleaned_data
        return actions.mark_upgrade(crew=self.crew, key=data["key"], by=data["amount"])


class SheetStep(CrewStep, SheetForm):
    part = "sheet"
    who = staticmethod(access.can_edit_sheet)
    form_key = "sheet_form"

    def execute(self):
        return actions.update_sheet(crew=self.crew, **self.cleaned_data)


class SettingsStep(CrewStep, SettingsForm):
    part = "settings"
    who = staticmethod(access.can_settle_keepers)
    form_key = "settings_form"
    control = "xp_track"

    def execute(self):
        return actions.update_settings(crew=self.crew, **self.cleaned_data)


class ClaimStep(CrewStep):
    """Seize or lose a claim; `override` counts only for whom the map's paths do not bind."""

    part = "claims"
    who = staticmethod(access.can_keep_books)
    held = yes_no()
    override = yes_no()

    def overrides(self) -> bool:
        return access.can_override_map(self.by.is_gm, self.crew)

    def redraw(self, error):
        # The one override the GM may use: for the claim just refused, not one per claim.
        override = self.claim() if error.field == "override" and self.overrides() else None
        return {**super().redraw(error), "override": override}

    def execute(self):
        data = self.cleaned_data
        override = data["override"] and self.overrides()
        return actions.set_claim(claim=self.claim(), held=data["held"], override=override)


class RemoveClaimStep(CrewStep):
    part = "claims"
    who = staticmethod(access.can_keep_books)

    def execute(self):
        return actions.remove_claim(claim=self.claim())


class AddClaimStep(CrewStep, ClaimForm):
    part = "claims"
    who = staticmethod(access.can_keep_books)
    form_key = "claim_form"

    def execute(self):
        return actions.add_claim(crew=self.crew, **self.cleaned_data)


class RecruitStep(CrewStep, CohortForm):
    part = "cohorts"
    who = staticmethod(access.can_edit_sheet)
    form_key = "cohort_form"
    control = NON_FIELD_ERRORS

    def __init__(self, data, **context):
        super().__init__(data, **context)
        if not access.can_grant_cohort(self.by.is_gm, self.crew):
            del self.fields["gained_in_play"]

    def execute(self):
        data = self.cleaned_data
        return actions.recruit_cohort(
            crew=self.crew,
            name=data["name"],
            kind=data["kind"],
            types=data["type_list"],
            edges=data["edges"],
            flaws=data["flaws"],
            gained_in_play=data.get("gained_in_play", False),
        )


class CohortHarmStep(CrewStep):
    part = "cohorts"
    who = staticmethod(access.can_edit_sheet)
    harm = steps.number()

    def execute(self):
        return actions.set_cohort_harm(cohort=self.cohort(), harm=self.cleaned_data["harm"])


class DismissStep(CrewStep):
    part = "cohorts"
    who = staticmethod(access.can_edit_sheet)

    def execute(self):
        return actions.dismiss_cohort(cohort=self.cohort())


class FactionStep(CrewPagesStep):
    """A step on the faction ladder: the GM's alone."""

    page = "factions"
    who = staticmethod(access.can_keep_factions)
    form_prefix = ""  # the ladder draws this step's form once per faction

    def __init__(self, data, **context):
        super().__init__(data, **context)
        if self.form_prefix:
            self.prefix = f"{self.form_prefix}-{self.faction_id}"

    def faction(self) -> Faction:
        return get_object_or_404(Faction, pk=self.faction_id, table=self.table)

    def shown(self):
        return {self.faction_id: self}


class NewFactionStep(CrewPagesStep, FactionForm):
    page = "faction-form"
    who = staticmethod(access.can_keep_factions)
    form_key = "faction_form"
    control = NON_FIELD_ERRORS

    def execute(self):
        return actions.create_faction(table=self.table, **self.cleaned_data)


class EditFactionStep(FactionStep, FactionForm):
    form_key = "edit_forms"
    form_prefix = "faction"

    def execute(self):
        return actions.update_faction(faction=self.faction(), **self.cleaned_data)


class StatusStep(FactionStep):
    """The GM's tap on a step of the faction's status track."""

    status = forms.TypedChoiceField(
        choices=[(str(s), str(s)) for s in range(rules.STATUS_MIN, rules.STATUS_MAX + 1)],
        coerce=int,
    )

    def execute(self):
        return actions.set_status(faction=self.faction(), status=self.cleaned_data["status"])


class DeleteFactionStep(FactionStep):
    def execute(self):
        return actions.delete_faction(faction=self.faction())


class GoalClockStep(FactionStep, GoalClockForm):
    form_key = "goal_forms"
    form_prefix = "goal"

    def execute(self):
        return actions.add_goal_clock(faction=self.faction(), **self.cleaned_data)


class ScreenLinkStep(CrewPagesStep):
    """A new link for the shared screen, or the link revoked."""

    page = "screen"
    who = staticmethod(access.can_share_screen)
    revoke = steps.flag()

    def execute(self):
        if self.cleaned_data["revoke"]:
            return actions.revoke_screen_link(table=self.table)
        return actions.new_screen_link(table=self.table)


STEPS: dict[str, type[steps.Step]] = {
    "rep": RepStep,
    "heat": HeatStep,
    "coin": CoinStep,
    "xp": XpStep,
    "develop": DevelopStep,
    "advance": AdvanceStep,
    "books": CorrectBooksStep,
    "ability": AbilityStep,
    "drop-ability": DropAbilityStep,
    "upgrade": UpgradeStep,
    "sheet": SheetStep,
    "settings": SettingsStep,
    "claim": ClaimStep,
    "claim-remove": RemoveClaimStep,
    "claim-add": AddClaimStep,
    "cohort-add": RecruitStep,
    "cohort-harm": CohortHarmStep,
    "cohort-dismiss": DismissStep,
    "faction-add": NewFactionStep,
    "faction-edit": EditFactionStep,
    "faction-status": StatusStep,
    "faction-delete": DeleteFactionStep,
    "faction-clock": GoalClockStep,
    "screen-link": ScreenLinkStep,
}
