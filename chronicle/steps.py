"""The journal's steps of play: one form each, whose `execute()` calls the one action
that takes it (sessions/steps.py), allowed by the question `who` of chronicle/access.py.

A refusal is drawn on the step's page (the journal, or the Discord page): a field that
does not parse in the bound step (`form_key`), a refusal of the rules above the rest.
"""

from django import forms
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _

from blades.rules.errors import RuleError
from sessions import steps

from . import access, actions
from .models import Learned, PlaySession


class JournalStep(steps.Step):
    """`page`: where the step is taken, and drawn again after it or with its refusal;
    `done`, what that page then says (nothing: what changed is there to see)."""

    form_key = ""
    page = "journal"
    done = ""

    def allowed(self) -> bool:
        return self.who(self.by.is_gm)

    @property
    def forbidden(self) -> str:
        return access.REFUSALS[self.who]

    def play_session(self) -> PlaySession:
        return get_object_or_404(PlaySession, pk=self.session_id, table=self.table)

    def redraw(self, error: RuleError) -> dict:
        if self.form_key and isinstance(error, steps.InputError):
            self.is_valid()
            return {self.form_key: self}
        return {"error": str(error)}


class StartStep(JournalStep):
    who = staticmethod(access.can_keep_journal)
    form_key = "start_form"
    title = steps.text(PlaySession._meta.get_field("title").max_length)

    def execute(self):
        return actions.start_session(table=self.table, title=self.cleaned_data["title"])


class EndStep(JournalStep):
    who = staticmethod(access.can_keep_journal)

    def execute(self):
        return actions.end_session(session=self.play_session())


class LearnedStep(JournalStep):
    who = staticmethod(access.can_add_learned)
    form_key = "learned_form"
    text = forms.CharField(
        label=_("What we learned"), max_length=Learned._meta.get_field("text").max_length
    )

    def execute(self):
        text = self.cleaned_data["text"]
        return actions.add_learned(session=self.play_session(), author=self.by.user, text=text)


class TrialPostStep(JournalStep):
    who = staticmethod(access.can_set_webhooks)
    page = "discord_settings"
    done = _("A test post is on its way to your webhooks. If none arrives, this page says why.")

    def execute(self):
        return actions.send_trial_post(table=self.table)


STEPS: dict[str, type[steps.Step]] = {
    "start": StartStep,
    "end": EndStep,
    "learned": LearnedStep,
    "discord-test": TrialPostStep,
}
