"""The steps taken on the table page (sessions/table.html), one form each
(sessions/steps.py) whose `execute()` calls the one action that takes it; the one step
view serves them (sessions/step_view.py), through `sessions.views.TablePageRoom`.

Who may take a step is asked of sessions/access.py (`allowed()`), the predicates the page
asks to draw the step's control, so a control the page hides is a step refused with a
403 and nothing changed.
"""

import copy

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy

from blades.rules.rolls import RollKind

from . import actions
from .access import can_edit_clock, can_keep_table, can_tick_clock
from .forms import NEW_CLOCK, ClockFields, PlayerClockFields, RollFields, own_clock_fields
from .models import Clock
from .steps import Step


class TablePageStep(Step):
    """A step of the table page and its settings page (the invite, the players, the
    language, quick rolls, clocks), taken at `table` by `by` (a Membership; `user`, the
    person). `forbidden` is what a
    member who may not take it is told; `back`, the page a browser without htmx is sent
    back to."""

    forbidden = gettext_lazy("Only the GM can do that.")
    back = "table_detail"

    def allowed(self) -> bool:
        return can_keep_table(self.by)


class NewInvite(TablePageStep):
    def execute(self):
        actions.regenerate_invite(table=self.table)


class RevokeInvite(TablePageStep):
    def execute(self):
        actions.revoke_invite(table=self.table)


class SetLanguage(TablePageStep):
    """The language of what the table shares (sessions/language.py), set on the table's
    settings page."""

    back = "table_settings"
    language = forms.ChoiceField(choices=settings.LANGUAGES)

    def execute(self):
        return actions.set_table_language(table=self.table, language=self.cleaned_data["language"])


class RemovePlayer(TablePageStep):
    """`user_id`: the member to remove (from the URL)."""

    def execute(self):
        actions.remove_player(table=self.table, user_id=self.user_id)


class QuickRoll(TablePageStep, RollFields):
    """A plain pool of dice into the log. Only the GM may hide a roll from the table: a
    player is not offered a box that would be ignored."""

    def __init__(self, data, **context):
        super().__init__(data, **context)
        if not self.by.is_gm:
            del self.fields["secret"]

    def allowed(self) -> bool:
        return True

    def execute(self):
        data = self.cleaned_data
        return actions.quick_roll(
            table=self.table,
            roller=self.user,
            kind=RollKind(data["kind"]),
            pool=data["pool"],
            note=data["note"],
            secret=data.get("secret", False),
        )


class NewClock(TablePageStep, ClockFields):
    """The GM's clock, linked only to the table's own clocks (`clocks`: the page's list,
    or the table's); or a player's own, with no links, theirs to tick
    (sessions.access.can_tick_clock)."""

    prefix = NEW_CLOCK

    def __init__(self, data, *, clocks=None, **context):
        super().__init__(data, **context)
        if not self.by.is_gm:
            self.fields = copy.deepcopy(PlayerClockFields.base_fields)
        else:
            self.offer(Clock.objects.filter(table=self.table) if clocks is None else clocks)

    def allowed(self) -> bool:
        return True

    def execute(self):
        owner = None if self.by.is_gm else self.user
        return actions.create_clock(table=self.table, owner=owner, **self.cleaned_data)


class ClockStep(TablePageStep):
    """A step on one `clock` the member can see (looked up in sessions.access.clocks_for):
    the GM's, or the player's whose own clock it is."""

    forbidden = gettext_lazy("Only the GM and the player who made it can change this clock.")

    def allowed(self) -> bool:
        return can_edit_clock(self.by, self.clock)


class EditClock(ClockStep, ClockFields):
    """The GM's edit, links and all; or the owner's, of what she made it with."""

    def __init__(self, data, *, clock: Clock, **context):
        self.prefix = f"clock-{clock.pk}"
        super().__init__(data, clock=clock, **context)
        if self.by.is_gm:
            self.offer(Clock.objects.filter(table=self.table), clock)
        else:
            self.fields = own_clock_fields(clock)

    def execute(self):
        clock = self.clock
        # What the owner's form leaves out stays as the GM set it.
        kept = {} if self.by.is_gm else {
            "kind": clock.kind, "players_tick": clock.players_tick,
            "unlocks": clock.unlocks, "rival": clock.rival,
        }  # fmt: skip
        return actions.update_clock(clock=clock, **{**kept, **self.cleaned_data})


class DeleteClock(ClockStep):
    def execute(self):
        actions.delete_clock(clock=self.clock)


class TickClock(ClockStep):
    """A tick forward, or back (`ticks` -1: the rules say when a player may)."""

    forbidden = gettext_lazy("You may not tick this clock.")
    ticks = forms.TypedChoiceField(
        choices=[("1", "+1"), ("-1", "−1")], coerce=int, required=False, empty_value=1
    )

    def allowed(self) -> bool:
        return can_tick_clock(self.by, self.clock)

    def execute(self):
        player = None if self.by.is_gm else self.by
        return actions.tick_clock(clock=self.clock, by=self.cleaned_data["ticks"], player=player)


STEPS: dict[str, type[TablePageStep]] = {
    "invite-new": NewInvite,
    "invite-revoke": RevokeInvite,
    "table-language": SetLanguage,
    "member-remove": RemovePlayer,
    "roll": QuickRoll,
    "clock-new": NewClock,
    "clock-edit": EditClock,
    "clock-delete": DeleteClock,
    "clock-tick": TickClock,
}
