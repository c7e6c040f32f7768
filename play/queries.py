"""What the phase page reads: one member's view of where the table is in the loop.

Reads only; the changes are in `phases.py` and `downtime.py`. The number of queries is
fixed (tests/play/test_query_budget.py): it does not grow with the characters or their
downtime activities.
"""

from django.db.models import Prefetch
from django.utils.translation import get_language, gettext, gettext_lazy, pgettext_lazy

from blades import content
from blades.rules import abilities as ability_rules
from blades.rules import character as character_rules
from blades.rules import crew as crew_rules
from blades.rules import score as score_rules
from blades.rules.crew import COHORT_DEAD
from blades.rules.dice import Outcome
from blades.rules.rolls import (
    OVERINDULGENCES,
    PUSH_DICE,
    PUSH_STRESS,
    entanglement_table,
    sentence,
)
from characters.models import Character, CharacterAbility
from crews import queries as crew_queries
from crews.models import Crew, Faction
from crews.sheet import reminders
from sessions import audience
from sessions import queries as table_queries
from sessions.models import Clock, Membership, Roll, Table

from . import access
from .downtime import allowance
from .models import DowntimeActivity
from .phases import phase_of, score_rep, ways_out

# The dice for someone questioned (Questioning, The Usual Suspects), as the form offers them.
QUESTIONING = {
    "normal": score_rules.QUESTIONING_DICE,
    "tough": "-".join(map(str, score_rules.QUESTIONING_TOUGH)),
    "soft": "-".join(map(str, score_rules.QUESTIONING_SOFT)),
    "max": score_rules.QUESTIONING_DICE_MAX,
}


JOB_SIZE_NAMES = {
    "minor": pgettext_lazy("job size", "Minor"),
    "small": pgettext_lazy("job size", "Small"),
    "standard": pgettext_lazy("job size", "Standard"),
    "big": pgettext_lazy("job size", "Big"),
    "major": pgettext_lazy("job size", "Major"),
}


def job_sizes() -> list[tuple[str, str]]:
    """The payoff's job sizes as the form offers them: "Major: 10+ coin"."""
    return [
        (size, gettext("%(size)s: %(coin)s%(more)s coin")
         % {"size": JOB_SIZE_NAMES[size], "coin": coin, "more": "+" if size == "major" else ""})
        for size, coin in crew_rules.JOB_COIN.items()
    ]  # fmt: skip


def exposures() -> list[tuple[str, str]]:
    """The heat's exposures as the form offers them: "Contained: 2"."""
    return [
        (key, f"{gettext(crew_rules.EXPOSURE_LABELS[key])}: {heat}")
        for key, heat in crew_rules.EXPOSURE.items()
    ]


# The entanglement table's rows as the book heads them: the die that counts.
ENTANGLEMENT_FACES = {Outcome.BAD: "1–3", Outcome.PARTIAL: "4/5", Outcome.SUCCESS: "6"}

# What each downtime activity does, on its card beside its name and cost.
ACTIVITY_GISTS = {
    "acquire_asset": gettext_lazy("Roll the crew's tier for an item, a service or a cohort"),
    "project": gettext_lazy("Roll an action to tick a project's clock"),
    "recover": gettext_lazy("A healer rolls to tick your healing clock"),
    "reduce_heat": gettext_lazy("Roll an action to lower the crew's heat"),
    "train": gettext_lazy("Mark xp on a track"),
    "indulge_vice": gettext_lazy("Roll your lowest attribute to clear stress"),
    "tend_cohort": gettext_lazy("A harmed cohort heals more at the end of downtime"),
}


def entanglement_rows(score, roll: Roll | None) -> list[tuple[str, list]]:
    """The book's entanglement table, each row with the faces that read it, the cells the
    roll read lit (blades.rules.rolls.entanglement_table)."""
    offered = score.entanglements if score else []
    cells = entanglement_table(offered, Outcome(roll.outcome) if roll else None)
    return [(ENTANGLEMENT_FACES[row[0].result], row) for row in cells]


def translated(table: dict) -> list[tuple[str, object]]:
    """A table of the rules' words (blades/rules/words.py) in the reader's language: each
    value a word, or a tuple of them."""
    return [
        (key, tuple(map(gettext, value)) if isinstance(value, tuple) else gettext(value))
        for key, value in table.items()
    ]


def _content(name: str, key: str) -> dict | None:
    """The standard playbook or crew type `key` in the reader's language."""
    return next((e for e in content.localized(name, get_language()) if e["key"] == key), None)


# The numbers the page's words and number fields show: the rules own them (the actions
# check them), the template only prints them.
RULE_NUMBERS = {
    "faction_tier_max": crew_rules.FACTION_TIER_MAX,
    "flashback_stress_max": score_rules.FLASHBACK_STRESS_MAX,
    "downtime_flashback": score_rules.DOWNTIME_FLASHBACK_COST,
    "score_rep": crew_rules.SCORE_REP,
    "job_extra_max": crew_rules.JOB_EXTRA_MAX,
    "purse": character_rules.COIN_MAX,
    "heat_high_profile": crew_rules.HEAT_HIGH_PROFILE,
    "heat_hostile_turf": crew_rules.HEAT_HOSTILE_TURF,
    "heat_at_war": crew_rules.HEAT_AT_WAR,
    "heat_killing": crew_rules.HEAT_KILLING,
    "extra_activity": score_rules.EXTRA_ACTIVITY_COST,
    "restricted_heat": score_rules.RESTRICTED_HEAT,
    "self_heal_stress": score_rules.SELF_HEAL_STRESS,
    "untreated_stress": score_rules.UNTREATED_STRESS,
    "healer_quality_max": score_rules.HEALER_QUALITY_MAX,
    "healer_quality_offered": score_rules.HEALER_QUALITY_OFFERED,
    "push_stress": PUSH_STRESS,
    "push_dice": PUSH_DICE,
    "help_dice": score_rules.HELP_DICE,
    "untreated_dice": score_rules.UNTREATED_DICE,
    "raise_coin": score_rules.RAISE_COIN,
    "cohort_healing": crew_rules.COHORT_HEALING,
    "cohort_tended_healing": crew_rules.COHORT_TENDED_HEALING,
    "past_critical_coin": score_rules.PAST_CRITICAL_COIN,
    "xp_marks": range(character_rules.XP_PER_TRIGGER_MAX + 1),
}


def xp_triggers(character: Character) -> list[tuple[str, str]]:
    """The end-of-session xp lines as this PC's sheet words them: the playbook's own
    trigger ("You addressed a challenge with violence or coercion") in place of the
    generic first line, then the lines every playbook shares."""
    lines = ability_rules.character_triggers(score_rules.CHARACTER_TRIGGERS, character.ability_keys)
    lines = dict(translated(lines))
    playbook = character.playbook
    # A standard playbook's trigger reads in the reader's language; a custom one is the GM's.
    standard = _content("playbooks", playbook.key) if playbook.table_id is None else None
    trigger = standard["xp_trigger"] if standard else playbook.xp_trigger
    if trigger:
        lines["playbook"] = trigger.rstrip(".")
    return list(lines.items())


def crew_triggers(crew: Crew | None) -> list[tuple[str, str]]:
    """The crew's xp lines, the crew type's own trigger first (a custom crew keeps the
    generic line: its trigger is the table's to say)."""
    lines = dict(translated(score_rules.CREW_TRIGGERS))
    data = _content("crew_types", crew.crew_type) if crew else None
    if data and data.get("xp_trigger"):
        lines["crew_type"] = data["xp_trigger"].rstrip(".")
    return list(lines.items())


# The moment of play each step is (blades.rules.abilities.MOMENTS): the abilities the GM
# judges then are shown on the page.
STEP_MOMENTS = {
    "score": "engagement",
    "entanglement": "entanglement",
    "activities": "downtime",
    "xp_review": "xp",
}


def step_reminders(step: str, crew: Crew | None, characters: list[Character]):
    """(whose, reminder) for the crew's and each character's abilities at this step."""
    moment = STEP_MOMENTS.get(step)
    if moment is None:
        return []
    found = [("", r) for r in reminders(None, crew, moment)] if crew else []
    for character in characters:
        found += [(character.name, r) for r in reminders(character, None, moment)]
    return found


def prison_claims() -> list[dict]:
    """The prison claims to choose from (crews.sheet.prison_claim_choices), their names
    and effects in the reader's language; the key is what the form posts."""
    return content.localized("prison_claims", get_language())["claims"]


def phase_page(table: Table, membership: Membership, **extra) -> dict:
    """Everything the phase page draws for this member (the GM's controls, a player's for
    their own characters: play/access.py decides both, as it does for the steps)."""
    is_gm = membership.is_gm
    phase = phase_of(table.pk)
    crew = crew_queries.crew_sheet(table.pk)
    score = phase.score
    activities = _activities(score, crew)
    free = allowance(crew) if crew else 0
    characters = _characters(table, membership, phase, activities, free)
    flashbacks = list(score.flashbacks.select_related("character")) if score else []
    for flashback in flashbacks:
        flashback.mine = access.acts_for(membership, flashback.character)
    entangled = crew is not None and score is not None and bool(score.entanglements)
    # The score's own rolls, drawn on its cards as they fell (the log has them too).
    rolls = Roll.objects.in_bulk(
        [pk for pk in (score.engagement_roll_id, score.entanglement_roll_id) if pk] if score else []
    )
    return {
        "table": table,
        "phase": phase,
        "score": score,
        "crew": crew,
        "reminders": step_reminders(phase.step, crew, characters),
        "is_gm": is_gm,
        # The GM's steps are drawn for whoever may take them (the steps ask the same).
        "runs_phase": access.runs_phase(membership),
        "characters": characters,
        "engagement_roll": rolls.get(score.engagement_roll_id) if score else None,
        "entanglement_roll": rolls.get(score.entanglement_roll_id) if score else None,
        "entanglement_rows": entanglement_rows(
            score, rolls.get(score.entanglement_roll_id) if score else None
        ),
        # What the score earns in rep, shown on the payoff's card before it is applied.
        "payoff_rep": score_rep(crew, score) if crew and score and score.rep is None else None,
        "flashbacks": flashbacks,
        # Who has marked no end-of-session xp yet: the GM is warned before closing.
        "xp_unmarked": [c.name for c in characters if not c.xp_done]
        if phase.step == "xp_review"
        else [],
        "flashbacks_owed": any(not f.paid for f in flashbacks),
        "allowance": free,
        # Calculating's free extra activities, one per Spider who has it, while some are
        # left this downtime.
        "calculating": phase.step == "activities"
        and sum("calculating" in c.ability_keys for c in characters)
        > sum(a.paid_with == ability_rules.CALCULATING for a in activities),
        "entanglement_ways": ways_out(crew, score.entanglements) if entangled else [],
        # The same clocks the downtime post accepts: one rule for the menu and the check.
        "project_clocks": audience.clock_views(
            table_queries.clocks_seen_by(table.pk, membership)
            .filter(kind=Clock.Kind.PROJECT)
            .order_by("pk"),
            membership,
        ),
        "harmed_cohorts": [c for c in crew.cohorts.all() if 0 < c.harm < COHORT_DEAD]
        if crew
        else [],
        "rolls": table_queries.recent_rolls(table.pk, is_gm),
        # Jail Bird's +1 status with the faction helped inside, whatever the roll: said
        # where the GM names that faction (the rules apply it).
        "jail_birds": [c.name for c in characters if "jail_bird" in c.ability_keys],
        **_gm_reads(table, crew, is_gm),
        **_menus(crew),
        **extra,
    }


def _activities(score, crew: Crew | None) -> list[DowntimeActivity]:
    """This downtime's activities, each with the ways out of its Attract Trouble's extra
    entanglement while one is rolled and waiting for the GM."""
    activities = (
        list(DowntimeActivity.objects.filter(score=score).select_related("roll")) if score else []
    )
    for activity in activities:
        waiting = crew is not None and activity.entanglements and not activity.trouble
        activity.trouble_ways = ways_out(crew, activity.entanglements) if waiting else []
    return activities


def _characters(
    table: Table, membership: Membership, phase, activities: list, free: int
) -> list[Character]:
    """The active characters, each with what the page draws on its cards: whether this
    member acts for it, its activities and their controls, its xp lines."""
    characters = list(
        Character.objects.filter(table=table, state=Character.State.ACTIVE)
        .select_related("owner", "vice", "playbook")
        .prefetch_related(
            Prefetch(
                "abilities", queryset=CharacterAbility.objects.select_related("ability__playbook")
            )
        )
    )
    for character in characters:
        character.mine = access.acts_for(membership, character)
        character.activities = [a for a in activities if a.character_id == character.pk]
        # A project's own controls: Analyst's free ticks left this downtime, and a
        # Mastermind's push paid with special armor while the box is unmarked.
        character.analyst_left = (
            ability_rules.ANALYST_TICKS - sum(a.free_ticks for a in character.activities)
            if ability_rules.ANALYST in character.ability_keys
            else 0
        )
        character.push_special = (
            ability_rules.MASTERMIND in character.ability_keys and not character.special_used
        )
        for activity in character.activities:
            # Functioning Vice: the player shifts the die once they have seen it.
            activity.can_shift_vice = (
                character.mine
                and ability_rules.FUNCTIONING_VICE in character.ability_keys
                and activity.kind == DowntimeActivity.Kind.INDULGE_VICE
                and not (activity.vice_shift or activity.overindulgence)
            )
        # The free activities left before the next one costs coin or rep.
        character.free_left = max(0, free - len(character.activities))
        character.xp_done = character.pk in phase.xp_done
        character.xp_triggers = xp_triggers(character)
    return characters


def _gm_reads(table: Table, crew: Crew | None, is_gm: bool) -> dict:
    """What only the GM's controls offer: empty for a player, never read for them."""
    return {
        "factions": list(Faction.objects.filter(table=table)) if is_gm else [],
        "held_claims": crew.claims.filter(held=True, lair=False) if crew and is_gm else [],
        "faction_clocks": Clock.objects.filter(table=table, kind=Clock.Kind.FACTION)
        if is_gm
        else [],
        "prison_claims": prison_claims() if is_gm else [],
    }


def _menus(crew: Crew | None) -> dict:
    """The page's menus and the rules' words and numbers, the same for every member."""
    return {
        "plans": translated(score_rules.PLANS),
        "checklist": translated(score_rules.ENGAGEMENT_CHECKLIST),
        "activities": [
            (key, label, ACTIVITY_GISTS[key]) for key, label in translated(score_rules.ACTIVITIES)
        ],
        "raisable": score_rules.RAISABLE,
        "vice_shifts": ability_rules.VICE_SHIFTS,
        "overindulgences": [
            (key, {"label": gettext(o.label), "description": gettext(o.description)})
            for key, o in OVERINDULGENCES.items()
        ],
        "actions": character_rules.ACTIONS,
        "xp_tracks": character_rules.XP_TRACKS,
        "crew_triggers": crew_triggers(crew),
        "questioning": QUESTIONING,
        "jail_bird_status": ability_rules.JAIL_BIRD_STATUS,
        "sentence": gettext(sentence(crew.wanted)) if crew else "",
        "job_sizes": job_sizes(),
        "exposures": exposures(),
        "tithe": crew_rules.tithe(crew.tier) if crew else 0,
        "rule": RULE_NUMBERS,
    }
