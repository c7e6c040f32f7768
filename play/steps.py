"""The phase's steps, one form each (the house pattern: sessions/steps.py).

Each step parses its POST, says who may take it (`allowed`, from play/access.py: the
page asks the same predicate before it draws the control) and calls its one action.
`table` is the member's table; a step taken on a scoundrel, a flashback or an activity
has it as `character`, `flashback` or `activity` (the view looks them up in the table).
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from blades.rules import abilities as ability_rules
from blades.rules import character as character_rules
from blades.rules import crew as crew_rules
from blades.rules import score as score_rules
from blades.rules.clocks import CLOCK_MAX, CLOCK_MIN
from blades.rules.errors import RuleError
from characters.models import Character
from crews import actions as crew_actions
from crews.models import Claim, Cohort, Faction
from sessions import steps
from sessions.access import clocks_for
from sessions.models import Clock

from . import access, downtime, phases
from .models import DowntimeActivity

# Names the rules judge themselves ("stealth", "heavy", "coin"): bounded only against
# garbage, the rules' own message refuses a wrong one.
WORD = 40


def _word():
    return steps.text(WORD)


def _active(table):
    return Character.objects.filter(table=table, state=Character.State.ACTIVE)


class PhaseStep(steps.Step):
    """A step the GM takes; a scoundrel's own step says so by overriding `allowed`."""

    def allowed(self) -> bool:
        return access.runs_phase(self.by)

    def value(self, name: str, default):
        """A field left blank is its default (a number of coin, a count of dice...)."""
        found = self.cleaned_data.get(name)
        return default if found is None else found

    @property
    def roller(self):
        return self.by.user


class ScoundrelStep(PhaseStep):
    """A step taken for one scoundrel: their player's, or the GM's for them."""

    def allowed(self) -> bool:
        return access.acts_for(self.by, self.character)


class StartScore(PhaseStep):
    plan = _word()
    detail = steps.text(200)
    faction = steps.OneOf(label=_("Faction"))
    target_name = steps.text(120)
    target_tier = steps.whole(low=0, high=crew_rules.FACTION_TIER_MAX, required=False)

    def __init__(self, data, **context):
        super().__init__(data, **context)
        # Factions are named by the GM only, who may name every faction of the table.
        self.fields["faction"].queryset = Faction.objects.filter(table=self.table)

    def execute(self):
        data = self.cleaned_data
        return phases.start_score(
            table=self.table, plan=data["plan"], detail=data["detail"],
            target_faction=data["faction"], target_name=data["target_name"],
            target_tier=self.value("target_tier", 0),
        )  # fmt: skip


class ChooseLoad(ScoundrelStep):
    load = _word()

    def execute(self):
        return phases.choose_load(character=self.character, level=self.cleaned_data["load"])


class RollEngagement(PhaseStep):
    def __init__(self, data, **context):
        super().__init__(data, **context)
        for key in score_rules.ENGAGEMENT_CHECKLIST:
            self.fields[key] = _word()

    def execute(self):
        marks = {key: self.cleaned_data[key] for key in score_rules.ENGAGEMENT_CHECKLIST}
        return phases.roll_engagement(table=self.table, roller=self.roller, marks=marks)


class CallFlashback(PhaseStep):
    character = steps.OneOf(label=_("Character"))
    stress = steps.whole(low=0, high=score_rules.FLASHBACK_STRESS_MAX)
    note = steps.text(200)
    downtime = steps.flag()

    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.fields["character"].queryset = _active(self.table)

    def execute(self):
        data = self.cleaned_data
        if data["character"] is None:
            raise steps.InputError(gettext_noop("Choose whose flashback it is."))
        return phases.call_flashback(
            table=self.table, character=data["character"], stress=data["stress"],
            note=data["note"], downtime=data["downtime"],
        )  # fmt: skip


class PayFlashback(ScoundrelStep):
    pay_with = _word()

    def execute(self):
        return phases.pay_flashback(
            flashback=self.flashback, pay_with=self.cleaned_data["pay_with"]
        )


class EndScore(PhaseStep):
    gave_up = steps.flag()

    def execute(self):
        return phases.end_score(table=self.table, gave_up=self.cleaned_data["gave_up"])


class Payoff(PhaseStep):
    size = _word()
    extra = steps.whole(low=0, high=crew_rules.JOB_EXTRA_MAX, required=False)
    quiet = steps.flag()
    tithe = steps.flag()

    def __init__(self, data, **context):
        super().__init__(data, **context)
        # A share for each scoundrel on the crew, as the card offers them.
        self.scoundrels = list(_active(self.table))
        for character in self.scoundrels:
            self.fields[f"share_{character.pk}"] = steps.whole(
                low=0, high=crew_rules.JOB_EXTRA_MAX, required=False
            )

    def execute(self):
        data = self.cleaned_data
        return phases.payoff(
            table=self.table, size=data["size"], extra=self.value("extra", 0),
            quiet=data["quiet"], tithe=data["tithe"],
            shares={c: self.value(f"share_{c.pk}", 0) for c in self.scoundrels},
        )  # fmt: skip


class ShareCoin(PhaseStep):
    """The GM hands coin from the crew's books to one PC (excess past the vault, or coin
    for a PC's extra downtime)."""

    character = steps.OneOf(label=_("Character"))
    amount = steps.whole(low=0, high=crew_rules.JOB_EXTRA_MAX)

    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.fields["character"].queryset = Character.objects.filter(table=self.table)

    def execute(self):
        data = self.cleaned_data
        if data["character"] is None:
            raise RuleError(gettext_noop("Choose the PC who takes the coin."))
        return crew_actions.share_coin(
            crew=phases.table_crew(self.table.pk), character=data["character"],
            amount=data["amount"],
        )  # fmt: skip


class TakeHeat(PhaseStep):
    exposure = _word()
    high_profile = steps.flag()
    hostile_turf = steps.flag()
    killing = steps.flag()

    def execute(self):
        return phases.take_heat(table=self.table, **self.cleaned_data)


class RollEntanglement(PhaseStep):
    def execute(self):
        return phases.roll_entanglement(table=self.table, roller=self.roller)


class GoesToPrison(PhaseStep):
    """Who goes inside and what for: an Arrest's way out, or someone taking the fall."""

    prisoner = steps.text(80)
    prison_claim = _word()
    faction = steps.OneOf(label=_("Faction"))
    character = steps.OneOf(label=_("Character"))

    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.fields["faction"].queryset = Faction.objects.filter(table=self.table)
        self.fields["character"].queryset = Character.objects.filter(table=self.table)


class ResolveEntanglement(GoesToPrison):
    # One menu names the entanglement and its way out together: "Rivals:coin".
    choice = steps.text(120)
    claim = steps.OneOf(label=_("Claim"))
    activity = steps.OneOf(label=_("Activity"))
    dice = steps.whole(low=0, high=score_rules.QUESTIONING_DICE_MAX, required=False)

    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.fields["claim"].queryset = Claim.objects.filter(crew__table=self.table)
        self.fields["activity"].queryset = DowntimeActivity.objects.filter(score__table=self.table)

    def execute(self):
        data = self.cleaned_data
        name, _, choice = data["choice"].rpartition(":")
        return phases.resolve_entanglement(
            table=self.table, roller=self.roller, name=name, choice=choice,
            faction=data["faction"], claim=data["claim"], prisoner=data["prisoner"],
            character=data["character"], prison_claim=data["prison_claim"],
            trouble=data["activity"],
            dice_pool=self.value("dice", score_rules.QUESTIONING_DICE),
        )  # fmt: skip


class Incarcerate(GoesToPrison):
    """The GM sends someone to prison outside an Arrest (someone takes the fall)."""

    def execute(self):
        data = self.cleaned_data
        return phases.incarcerate(
            crew=phases.table_crew(self.table.pk), roller=self.roller,
            prisoner=data["prisoner"], prison_claim=data["prison_claim"],
            faction=data["faction"], character=data["character"],
        )  # fmt: skip


class DowntimeActivityStep(ScoundrelStep):
    """One downtime activity for one PC: the form names the kind and its details (every
    kind's fields are sent; the kind says which count)."""

    kind = _word()
    pay_with = _word()
    helped = steps.flag()
    push = steps.flag()
    push_act = steps.flag()
    push_special = steps.flag()
    analyst = steps.whole(low=0, high=ability_rules.ANALYST_TICKS, required=False)
    detail = steps.text(200)
    restricted = steps.flag()
    action = _word()
    clock = steps.OneOf(label=_("Project clock"))
    clock_name = steps.text(80)
    segments = steps.whole(low=CLOCK_MIN, high=CLOCK_MAX, required=False)
    healer = _word()
    quality = steps.whole(low=0, high=score_rules.HEALER_QUALITY_MAX, required=False)
    healer_character = steps.OneOf(label=_("Healer"))
    track = _word()
    cohort = steps.OneOf(label=_("Cohort"))

    def __init__(self, data, **context):
        super().__init__(data, **context)
        # A player names only the clocks they can see: a GM-only clock is not one.
        clocks = clocks_for(self.by).filter(kind=Clock.Kind.PROJECT)
        self.fields["clock"].queryset = clocks
        self.fields["healer_character"].queryset = _active(self.table)
        self.fields["cohort"].queryset = Cohort.objects.filter(crew__table=self.table)

    def execute(self):
        take = self.KINDS.get(self.cleaned_data["kind"])
        if take is None:
            raise RuleError(gettext_noop("Choose a downtime activity."))
        return take(
            self,
            self.cleaned_data,
            character=self.character,
            pay_with=self.cleaned_data["pay_with"],
        )

    def _acquire_asset(self, data, **common):
        return downtime.acquire_asset(
            **common, roller=self.roller, description=data["detail"], helped=data["helped"],
            restricted=data["restricted"], push=data["push"],
        )  # fmt: skip

    def _project(self, data, **common):
        return downtime.long_term_project(
            **common, roller=self.roller, action=data["action"], clock=data["clock"],
            name=data["clock_name"],
            segments=self.value("segments", downtime.PROJECT_SEGMENTS),
            helped=data["helped"], push=data["push"], push_act=data["push_act"],
            push_special=data["push_special"], analyst=self.value("analyst", 0),
        )  # fmt: skip

    def _recover(self, data, **common):
        return downtime.recover(
            **common, roller=self.roller, healer=data["healer"],
            quality=self.value("quality", 0), healer_character=data["healer_character"],
            helped=data["helped"],
        )  # fmt: skip

    def _reduce_heat(self, data, **common):
        return downtime.reduce_heat(
            **common, roller=self.roller, action=data["action"], helped=data["helped"],
            push=data["push"], push_act=data["push_act"],
        )  # fmt: skip

    def _train(self, data, **common):
        return downtime.train(**common, track=data["track"])

    def _indulge_vice(self, data, **common):
        return downtime.indulge_vice(**common, roller=self.roller)

    def _tend_cohort(self, data, **common):
        return downtime.tend_cohort(**common, cohort=data["cohort"])

    KINDS = {
        "acquire_asset": _acquire_asset,
        "project": _project,
        "recover": _recover,
        "reduce_heat": _reduce_heat,
        "train": _train,
        "indulge_vice": _indulge_vice,
        "tend_cohort": _tend_cohort,
    }


class RaiseResult(ScoundrelStep):
    coin = steps.whole(low=score_rules.RAISE_COIN, high=score_rules.RAISE_COIN_MAX, required=False)

    def execute(self):
        coin = self.value("coin", score_rules.RAISE_COIN)
        return downtime.raise_result(activity=self.activity, coin=coin)


class Overindulge(ScoundrelStep):
    choice = _word()

    def execute(self):
        return downtime.overindulge(activity=self.activity, choice=self.cleaned_data["choice"])


class ShiftVice(ScoundrelStep):
    """Functioning Vice: the indulgence's die shifted by -2, -1, +1 or +2."""

    shift = steps.whole(low=-2, high=2)

    def execute(self):
        return downtime.shift_vice(activity=self.activity, shift=self.cleaned_data["shift"])


class RollTrouble(PhaseStep):
    """The GM rolls the extra entanglement an overindulgence's Attract Trouble brings."""

    def execute(self):
        return phases.roll_trouble(activity=self.activity, roller=self.roller)


class FactionRoll(PhaseStep):
    clock = steps.OneOf(label=_("Goal clock"))

    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.fields["clock"].queryset = clocks_for(self.by)

    def execute(self):
        return downtime.faction_roll(clock=self.cleaned_data["clock"], roller=self.roller)


class EndDowntime(PhaseStep):
    def execute(self):
        return downtime.end_downtime(table=self.table)


class EndSession(PhaseStep):
    def execute(self):
        return downtime.next_session_step(table=self.table)


def _marks(step: PhaseStep, triggers) -> dict[str, int]:
    return {key: step.value(key, 0) for key in triggers}


def _trigger_fields(step: PhaseStep, triggers) -> None:
    """Each xp trigger is worth 0, 1 or 2."""
    for key in triggers:
        step.fields[key] = steps.whole(
            low=0, high=character_rules.XP_PER_TRIGGER_MAX, required=False
        )


class CharacterXp(ScoundrelStep):
    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.triggers = ability_rules.character_triggers(
            score_rules.CHARACTER_TRIGGERS, self.character.ability_keys
        )
        _trigger_fields(self, self.triggers)
        # The track each trigger's xp goes on ("any xp tracks you want"): the rules refuse
        # a name that is no track.
        for key in self.triggers:
            self.fields[f"{key}_track"] = _word()

    def execute(self):
        marks = _marks(self, self.triggers)
        tracks = dict.fromkeys(character_rules.XP_TRACKS, 0)
        for key, xp in marks.items():
            # Left blank, a trigger's xp goes on the playbook track.
            track = self.cleaned_data[f"{key}_track"] or "playbook"
            tracks[track] = tracks.get(track, 0) + xp
        return downtime.review_character_xp(character=self.character, triggers=marks, tracks=tracks)


class CrewXp(PhaseStep):
    def __init__(self, data, **context):
        super().__init__(data, **context)
        _trigger_fields(self, score_rules.CREW_TRIGGERS)

    def execute(self):
        return downtime.review_crew_xp(
            table=self.table, triggers=_marks(self, score_rules.CREW_TRIGGERS)
        )


# The phase's steps by the name the URL gives them.
STEPS: dict[str, type[PhaseStep]] = {
    "score_start": StartScore,
    "score_load": ChooseLoad,
    "score_engagement": RollEngagement,
    "score_flashback": CallFlashback,
    "flashback_pay": PayFlashback,
    "score_end": EndScore,
    "phase_payoff": Payoff,
    "crew_share_coin": ShareCoin,
    "phase_heat": TakeHeat,
    "entanglement_roll": RollEntanglement,
    "entanglement_resolve": ResolveEntanglement,
    "crew_incarcerate": Incarcerate,
    "downtime_activity": DowntimeActivityStep,
    "activity_raise": RaiseResult,
    "activity_overindulge": Overindulge,
    "activity_vice_shift": ShiftVice,
    "activity_trouble": RollTrouble,
    "downtime_faction_roll": FactionRoll,
    "downtime_end": EndDowntime,
    "session_end": EndSession,
    "xp_character": CharacterXp,
    "xp_crew": CrewXp,
}
