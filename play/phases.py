"""The phase machine: free play → score → payoff → heat → entanglements → downtime.

Each step is one action in one transaction. It locks the table's `Phase` row first, so a
double click runs twice in turn and the second finds the step done (RuleError). The books
change only through the crew's and the characters' own actions (compare-and-set on the
crew's version, row locks on characters), so the arithmetic stays in one place. Every
roll comes from `SYSTEM_RNG` (tests pass their own) and enters the table's roll log.
Who may call what is decided in the views: the GM runs the steps, players act for their
own characters.
"""

from django.db import transaction
from django.utils.translation import gettext_noop

from blades.rules import abilities as ability_rules
from blades.rules import crew as crew_rules
from blades.rules import rolls as rolls_rules
from blades.rules import score as rules
from blades.rules.errors import RuleError
from blades.rules.rolls import (
    RollKind,
    engagement_pool,
    engagement_position,
    entanglement_pool,
    entanglements,
    incarceration_result,
    summarize,
)
from blades.rules.words import Joined, Named, Term, Words
from characters import actions as character_actions
from characters.models import Character
from crews import actions as crew_actions
from crews.models import Claim, Crew, Faction
from sessions import audience
from sessions.actions import SYSTEM_RNG, record_roll
from sessions.models import Roll, Table

from .live import push_phase
from .models import DowntimeActivity, Flashback, Phase, Score
from .signals import ENTANGLEMENT, HEAT, PAYOFF, phase_moved, score_settled

Step = Phase.Step
Kind = DowntimeActivity.Kind


# --- Helpers ---------------------------------------------------------------------------


def phase_of(table_id: int) -> Phase:
    phase, _ = Phase.objects.select_related("score").get_or_create(table_id=table_id)
    return phase


def locked_phase(table_id: int) -> Phase:
    Phase.objects.get_or_create(table_id=table_id)
    return (
        Phase.objects.select_for_update(of=("self",)).select_related("score").get(table_id=table_id)
    )


def expect_step(phase: Phase, *steps: str) -> Score | None:
    if phase.step not in steps:
        # The steps' names as they are shown, after a colon: read whole, not lowercased
        # into the sentence.
        raise RuleError(
            gettext_noop(
                "That is done at another step of play: %(wanted)s. The table is at: %(now)s."
            ),
            wanted=Joined(Term(" or "), [Step(s).label for s in steps]),
            now=phase.get_step_display(),
        )
    return phase.score


def move_to(phase: Phase, step: str) -> None:
    phase.step = step
    phase.save(update_fields=["step", "score", "xp_done", "crew_xp_done"])
    phase_moved.send(sender=Phase, phase=phase)
    push_phase(phase)


def score_line(score: Score) -> Words:
    """The score as a log line stores it: a faction target by reference, not by name."""
    if score.target_faction is None:
        target = score.target_name
    else:
        target = audience.ref("target", score.target_faction)
    plan = Term(rules.PLANS[score.plan][0])
    return Words(gettext_noop("%(plan)s on %(target)s"), plan=plan, target=target)


def store_roll(
    table_id: int, roller, kind: RollKind, pool: int, rng, summary=None, note="",
    character: Character | None = None, secret: bool = False,
) -> Roll:  # fmt: skip
    """Roll `pool` dice into the table's log (sessions.actions.record_roll); the dice are
    read from the returned row."""
    return record_roll(
        table_id=table_id,
        roller=roller,
        kind=kind,
        pool=pool,
        summary=summary,
        note=note,
        character=character,
        secret=secret,
        rng=rng,
    )


def table_crew(table_id: int) -> Crew:
    crew = Crew.objects.filter(table_id=table_id).first()
    if crew is None:
        raise RuleError(gettext_noop("Make the crew first: its books keep the score."))
    return crew


# --- The score -------------------------------------------------------------------------


def start_score(
    *, table: Table, plan: str, detail: str, target_faction: Faction | None = None,
    target_name: str = "", target_tier: int = 0,
) -> Score:  # fmt: skip
    """The GM starts a score against a faction (its tier) or a target named by hand.

    A faction target is kept as the faction alone, never its name: the faction may be
    hidden, and the score is shown to players (sessions.audience names it per audience)."""
    rules.plan_detail_label(plan)
    if target_faction is not None:
        target_name, target_tier = "", target_faction.tier
    elif not target_name:
        raise RuleError(gettext_noop("Name the target, or choose a faction."))
    crew_rules.check_range(target_tier, 0, crew_rules.FACTION_TIER_MAX, gettext_noop("Target tier"))
    with transaction.atomic():
        phase = locked_phase(table.pk)
        expect_step(phase, Step.FREE_PLAY)
        crew = table_crew(table.pk)
        crew_rules.check_vault(crew.coin, crew.coin_limit)
        score = Score.objects.create(
            table=table,
            target_faction=target_faction,
            target_name=target_name,
            target_tier=target_tier,
            plan=plan,
            detail=detail,
        )
        phase.score = score
        move_to(phase, Step.SCORE)
    return score


def choose_load(*, character: Character, level: str) -> Character:
    """A PC's load for the score; armor comes back (characters.actions.set_load)."""
    with transaction.atomic():
        phase = locked_phase(character.table_id)
        expect_step(phase, Step.SCORE)
        character = character_actions.set_load(character=character, level=level)
        push_phase(phase)
    return character


def roll_engagement(*, table: Table, roller, marks: dict[str, str], rng=SYSTEM_RNG) -> Score:
    """1d plus each major advantage, minus each disadvantage; the result is the position."""
    advantages, disadvantages = rules.engagement_counts(marks)
    with transaction.atomic():
        phase = locked_phase(table.pk)
        score = expect_step(phase, Step.SCORE)
        if score.engagement_roll_id:
            raise RuleError(gettext_noop("The engagement roll is made once per score."))
        bonus = ability_rules.engagement_bonus(score.plan, table_crew(table.pk).abilities)
        note = Joined(
            "; ",
            [
                score_line(score),
                *(
                    Words(gettext_noop("+%(dice)sd %(name)s"), dice=n, name=name)
                    for name, n in bonus
                ),
            ],
        )
        score.engagement_roll = store_roll(
            table.pk, roller, RollKind.ENGAGEMENT,
            engagement_pool(advantages, disadvantages) + sum(n for _, n in bonus), rng, note=note,
        )  # fmt: skip
        result = score.engagement_roll.as_dice
        score.position, score.past_first_obstacle = engagement_position(result.outcome)
        Table.objects.filter(pk=table.pk).update(opening_position=score.position)
        score.advantages, score.disadvantages = advantages, disadvantages
        score.save()
        push_phase(phase)
    return score


def call_flashback(
    *, table: Table, character: Character, stress: int, note: str, downtime: bool = False
) -> Flashback:
    """The GM prices a flashback: 0, 1, or 2+ stress; a flashback to a downtime activity
    costs 1 coin or 1 rep instead (`downtime`)."""
    stress = 0 if downtime else rules.flashback_stress(stress)
    with transaction.atomic():
        phase = locked_phase(table.pk)
        score = expect_step(phase, Step.SCORE)
        if character.table_id != table.pk or not character.active:
            raise RuleError(gettext_noop("Choose an active character at this table."))
        flashback = Flashback.objects.create(
            score=score, character=character, stress=stress, note=note, downtime=downtime
        )
        push_phase(phase)
    return flashback


def pay_flashback(*, flashback: Flashback, pay_with: str = "") -> Flashback:
    """Stress, or for a downtime activity 1 coin (the PC's) or 1 rep (the crew's)."""
    with transaction.atomic():
        phase = locked_phase(flashback.character.table_id)
        flashback = Flashback.objects.select_related("character").get(pk=flashback.pk)
        if flashback.paid:
            raise RuleError(gettext_noop("That flashback is already paid for."))
        cost = rules.flashback_cost(
            flashback.stress, downtime=flashback.downtime, pay_with=pay_with
        )
        if cost.stress:
            character_actions.mark_stress(character=flashback.character, amount=cost.stress)
        if cost.coin:
            character_actions.add_coin(character=flashback.character, amount=-cost.coin)
        if cost.rep:
            crew_actions.add_rep(crew=table_crew(flashback.character.table_id), amount=-cost.rep)
        flashback.paid = True
        flashback.save(update_fields=["paid"])
        push_phase(phase)
    return flashback


def end_score(*, table: Table, gave_up: bool = False) -> Score:
    """On to payoff; a crew that gives up goes straight to heat with nothing earned.

    Downtime begins here, and with it special armor comes back by itself ("Your special
    armor is restored at the beginning of downtime", 000)."""
    with transaction.atomic():
        phase = locked_phase(table.pk)
        score = expect_step(phase, Step.SCORE)
        if not gave_up and not score.engagement_roll_id:
            raise RuleError(gettext_noop("Make the engagement roll first."))
        if gave_up:
            score.rep = score.coin = 0
            score.save(update_fields=["rep", "coin"])
            score_settled.send(sender=Score, score=score, settled=PAYOFF)
        # A score that ends without an action roll leaves no position for the next one.
        Table.objects.filter(pk=table.pk).update(opening_position="")
        for character in Character.objects.filter(
            table=table, state=Character.State.ACTIVE, special_used=True
        ):
            character_actions.restore_armor(character=character, downtime=True)
        move_to(phase, Step.HEAT if gave_up else Step.PAYOFF)
    return score


# --- Downtime: payoff, heat, entanglements ---------------------------------------------


def score_rep(crew: Crew, score: Score, *, quiet: bool = False) -> int:
    """The rep a score earns the crew: the target's tier against the crew's, as the
    crew's abilities change it (the payoff's card shows it before the GM applies it)."""
    return ability_rules.score_rep(
        crew_rules.score_rep(crew.shown_tier, score.target_tier), quiet, crew.abilities
    )


def payoff(
    *, table: Table, size: str, extra: int = 0, quiet: bool = False, tithe: bool = False,
    shares: dict[Character, int] | None = None,
):  # fmt: skip
    """Rep by the target's tier against the crew's (none when quiet or the track is full),
    coin by the job's size less any tithe, shared out among the PCs as the table decides
    (`shares`); the crew keeps the rest, and coin past its vault is kept and flagged."""
    coin = rules.job_coin(size, extra)
    shares = {c: n for c, n in (shares or {}).items() if n}
    with transaction.atomic():
        phase = locked_phase(table.pk)
        score = expect_step(phase, Step.PAYOFF)
        crew = table_crew(table.pk)
        rep = score_rep(crew, score, quiet=quiet)
        if rep:
            crew_actions.add_rep(crew=crew, amount=rep)
        score.tithe = crew_rules.tithe(crew.tier) if tithe else 0
        net = coin - score.tithe  # a tithe bigger than the take comes out of the crew's coin
        kept = crew_rules.share_payoff(net, shares.values()) if shares else net
        for character, share in shares.items():
            if character.table_id != table.pk:
                raise RuleError(gettext_noop("Share the payoff only among the crew's scoundrels."))
            character_actions.receive_coin(character=character, amount=share)
        if kept:
            crew_actions.add_coin(crew=crew, amount=kept, allow_excess=True)
        score.rep, score.coin, score.crew_coin = rep, coin, kept
        score.shares = [[character.name, share] for character, share in shares.items()]
        score.save(update_fields=["rep", "coin", "tithe", "shares", "crew_coin"])
        score_settled.send(sender=Score, score=score, settled=PAYOFF)
        move_to(phase, Step.HEAT)
    return score


def take_heat(
    *, table: Table, exposure: str, high_profile: bool = False, hostile_turf: bool = False,
    killing: bool = False,
) -> Score:  # fmt: skip
    """Heat by exposure and circumstance; war adds its +1 by itself."""
    with transaction.atomic():
        phase = locked_phase(table.pk)
        score = expect_step(phase, Step.HEAT)
        crew = table_crew(table.pk)
        heat = crew_rules.score_heat(
            exposure, high_profile=high_profile, hostile_turf=hostile_turf,
            at_war=crew.at_war, killing=ability_rules.killing_heat(killing, crew.abilities),
        )  # fmt: skip
        if heat:
            crew_actions.add_heat(crew=crew, amount=heat)
        score.heat = heat
        score.save(update_fields=["heat"])
        score_settled.send(sender=Score, score=score, settled=HEAT)
        move_to(phase, Step.ENTANGLEMENT)
    return score


def roll_entanglement(*, table: Table, roller, rng=SYSTEM_RNG) -> Score:
    """Wanted-level dice (0 → 2d keep lowest) read in the column of the crew's heat."""
    with transaction.atomic():
        phase = locked_phase(table.pk)
        score = expect_step(phase, Step.ENTANGLEMENT)
        if score.entanglement_roll_id:
            raise RuleError(gettext_noop("The entanglement is already rolled."))
        score.entanglement_roll, score.entanglements = entanglement_roll(table.pk, roller, rng)
        score.save(update_fields=["entanglements", "entanglement_roll"])
        push_phase(phase)
    return score


def entanglement_roll(
    table_id: int, roller, rng, troubled: Character | None = None
) -> tuple[Roll, list[str]]:
    """The entanglement roll into the log, and the entanglements it offers the GM;
    `troubled`: the PC whose overindulgence attracted it. With Slippery the crew rolls
    twice (`ability_rules.entanglement_rolls`), both in the log, and the GM picks from what
    either offers: the one the crew prefers among them."""
    crew = Crew.objects.get(pk=table_crew(table_id).pk)
    note = Words(
        gettext_noop("Heat %(heat)s, wanted %(wanted)s"), heat=crew.heat, wanted=crew.wanted
    )
    if troubled is not None:
        note = Words(
            gettext_noop("Attract Trouble (%(name)s): %(books)s"), name=troubled.name, books=note
        )

    def roll_once() -> Roll:
        return store_roll(
            table_id, roller, RollKind.ENTANGLEMENT, entanglement_pool(crew.wanted), rng,
            lambda result: summarize(RollKind.ENTANGLEMENT, result, heat=crew.heat), note,
        )  # fmt: skip

    rolls = [roll_once() for _ in range(ability_rules.entanglement_rolls(crew.abilities))]
    offered = [name for roll in rolls for name in entanglements(crew.heat, roll.as_dice.outcome)]
    return rolls[0], list(dict.fromkeys(offered))


def ways_out(
    crew: Crew, names, faction: Faction | None = None
) -> list[tuple[str, tuple[rules.Choice, ...]]]:
    """Each entanglement in `names` with its ways out priced for this crew; without a
    faction, a price by its tier is worded per tier (the GM names the faction on resolving)."""
    held = crew.claims.filter(held=True, lair=False).count()
    allies = Faction.objects.filter(table_id=crew.table_id, status=crew_rules.STATUS_MAX).exists()
    return [
        (name, rules.entanglement_choices(
            name, wanted=crew.wanted, crew_tier=crew.shown_tier,
            faction_tier=faction.tier if faction else None, claims=held, allies=allies,
        ))
        for name in names
    ]  # fmt: skip


def choices_for(crew: Crew, name: str, faction: Faction | None = None) -> tuple[rules.Choice, ...]:
    return ways_out(crew, [name], faction)[0][1]


def resolve_entanglement(
    *, table: Table, roller, name: str, choice: str, faction: Faction | None = None,
    claim: Claim | None = None, prisoner: str = "", character: Character | None = None,
    dice_pool: int = rules.QUESTIONING_DICE, prison_claim: str = "",
    trouble: DowntimeActivity | None = None, rng=SYSTEM_RNG,
) -> Score:  # fmt: skip
    """The GM applies one choice; its book costs land, the rest is written down.

    `character` is the PC the entanglement falls on (Interrogation's harm, or handed
    over for Arrest); `dice_pool` is the fortune roll of someone questioned (Questioning,
    The Usual Suspects); `prison_claim` the claim a prisoner's time inside may earn.
    `trouble` is an overindulgence's extra entanglement (Attract Trouble), resolved in
    downtime; the table stays there."""
    rules.questioning_dice(dice_pool)
    with transaction.atomic():
        phase = locked_phase(table.pk)
        if trouble is not None:
            return _resolve_trouble(
                phase, trouble, roller, name, choice, faction, claim, prisoner, rng,
                character=character, dice_pool=dice_pool, prison_claim=prison_claim,
            )  # fmt: skip
        score = expect_step(phase, Step.ENTANGLEMENT)
        if name not in score.entanglements:
            raise RuleError(
                gettext_noop("Choose one of the entanglements the roll gave."), field="choice"
            )
        score.entanglement, score.resolution = name, _resolve(
            table_crew(table.pk), roller, name, choice, faction, claim, prisoner, rng,
            character=character, dice_pool=dice_pool, prison_claim=prison_claim,
        )  # fmt: skip
        score.save(update_fields=["entanglement", "resolution"])
        score_settled.send(sender=Score, score=score, settled=ENTANGLEMENT)
        move_to(phase, Step.ACTIVITIES)
    return score


def _resolve(crew, roller, name, choice, faction, claim, prisoner, rng, **more) -> Joined:
    """Apply the way out chosen; what happened, for the log."""
    picked = next((c for c in choices_for(crew, name, faction) if c.key == choice), None)
    if picked is None:
        raise RuleError(
            gettext_noop("Choose one of the ways out of %(name)s."), field="choice", name=name
        )
    if picked.needs_faction and faction is None:
        raise RuleError(
            gettext_noop("Choose the faction involved in %(name)s."), field="faction", name=name
        )
    notes = [picked.label]
    notes += _apply_cost(crew, picked.cost, name, faction, claim, prisoner, roller, rng, **more)
    return Joined("; ", notes)


def roll_trouble(*, activity: DowntimeActivity, roller, rng=SYSTEM_RNG) -> DowntimeActivity:
    """Attract Trouble: "take (choose or roll) one extra entanglement" (SRD_FACTS 1.7);
    the GM rolls it as after a score, in downtime."""
    with transaction.atomic():
        phase = locked_phase(activity.score.table_id)
        expect_step(phase, Step.ACTIVITIES)
        activity = DowntimeActivity.objects.select_related("character").get(pk=activity.pk)
        if activity.overindulgence != "attract_trouble" or activity.entanglements:
            raise RuleError(gettext_noop("There is no extra entanglement to roll."))
        _, activity.entanglements = entanglement_roll(
            activity.score.table_id, roller, rng, troubled=activity.character
        )
        activity.save(update_fields=["entanglements"])
        push_phase(phase)
    return activity


def _resolve_trouble(phase, activity, roller, name, choice, *args, **more) -> Score:
    expect_step(phase, Step.ACTIVITIES)
    activity = DowntimeActivity.objects.get(pk=activity.pk)
    if activity.trouble or name not in activity.entanglements:
        raise RuleError(
            gettext_noop("Choose one of the entanglements the roll gave."), field="choice"
        )
    crew = table_crew(phase.table_id)
    resolution = _resolve(crew, roller, name, choice, *args, **more)
    activity.trouble = Joined(": ", [Term(name), resolution])
    activity.save(update_fields=["trouble"])
    push_phase(phase)
    return phase.score


def _apply_cost(
    crew,
    cost: rules.Cost,
    name,
    faction,
    claim,
    prisoner,
    roller,
    rng,
    *,
    character,
    dice_pool,
    prison_claim,
) -> list[Words]:
    notes = []
    if cost.harm:
        if character is None or character.table_id != crew.table_id or not character.active:
            raise RuleError(
                gettext_noop("Choose the PC who suffers %(name)s's harm."),
                field="character",
                name=name,
            )
        landed = character_actions.add_harm(
            character=character, level=cost.harm, description=name
        ).level
        notes.append(
            Words(
                gettext_noop("%(name)s suffers level %(level)s harm"),
                name=character.name,
                level=landed,
            )
        )
    if cost.coin:
        crew_actions.add_coin(crew=crew, amount=-cost.coin)
    if cost.rep:
        crew_actions.add_rep(crew=crew, amount=-cost.rep)
    if cost.heat:
        crew_actions.add_heat(crew=crew, amount=cost.heat)
    if cost.status:
        crew_actions.shift_status(faction=faction, delta=cost.status)
    if cost.war:
        crew_actions.shift_status(faction=faction, delta=crew_rules.STATUS_MIN - faction.status)
    if cost.claim:
        if claim is None or claim.crew_id != crew.pk or not claim.held or claim.lair:
            raise RuleError(
                gettext_noop("Choose a claim the crew holds (not its lair)."), field="claim"
            )
        crew_actions.set_claim(claim=claim, held=False)
        notes.append(Words(gettext_noop("gave up %(claim)s"), claim=Named(claim.name, of="claims")))
    if cost.hold and crew_actions.lose_hold(crew=crew).lair_threatened:
        notes.append(Words(gettext_noop("the lair is under threat")))
    if cost.clear_heat:
        # At wanted level 0 handing someone over clears the heat and nothing more.
        crew_actions.send_to_prison(crew=crew)
    if cost.incarcerate:
        roll = incarcerate(
            crew=crew, roller=roller, prisoner=prisoner, prison_claim=prison_claim,
            faction=faction, character=character, rng=rng,
        )  # fmt: skip
        notes.append(roll.summary)
    if cost.fortune:
        log = store_roll(
            crew.table_id, roller, RollKind.FORTUNE, dice_pool, rng,
            lambda result: rules.fortune_heat(name, result.outcome)[1], Term(name),
        )  # fmt: skip
        heat, text = rules.fortune_heat(name, log.as_dice.outcome)
        if heat:
            crew_actions.add_heat(crew=crew, amount=heat)
        notes.append(text)
    return notes


def incarcerate(*, crew: Crew, roller, prisoner: str, prison_claim: str,
                faction: Faction | None = None, character: Character | None = None,
                rng=SYSTEM_RNG) -> Roll:  # fmt: skip
    """Someone serves time for the crew: wanted −1, heat cleared, and a tier roll for how
    the time inside went (rep, a prison claim, status with a faction helped, or trauma,
    which a PC prisoner (`character`) suffers). The prison claims held change the roll:
    Guard Payoff +1d, Cell Block Control no trauma, Parole Influence a shorter sentence.

    `prison_claim` is the claim the crew takes if the roll earns one, chosen before the
    dice so that no refusal after them can undo a roll."""
    crew_actions.prison_claim(prison_claim)
    if character is not None and (character.table_id != crew.table_id or not character.active):
        raise RuleError(
            gettext_noop("Choose an active PC of this crew to send to prison."), field="character"
        )
    with transaction.atomic():
        before = Crew.objects.get(pk=crew.pk)
        jail_bird = character is not None and "jail_bird" in character.ability_keys
        tier, wanted = ability_rules.incarceration(
            before.shown_tier, before.wanted,
            ironhook_contacts=before.upgrades.get("ironhook_contacts", 0) > 0,
            jail_bird=jail_bird,
        )  # fmt: skip
        sentence = rolls_rules.sentence(
            wanted, parole_influence=crew_actions.holds_prison_claim(crew, "Parole Influence")
        )
        crew_actions.send_to_prison(crew=crew)
        crew = Crew.objects.get(pk=crew.pk)
        pool = rolls_rules.incarceration_pool(
            tier, guard_payoff=crew_actions.holds_prison_claim(crew, "Guard Payoff")
        )
        if character is not None:
            prisoner = character.name
        if prisoner:
            note = Words(
                gettext_noop("%(prisoner)s serves time: %(sentence)s"),
                prisoner=prisoner,
                sentence=Term(sentence),
            )
        else:
            note = Words(gettext_noop("Someone serves time: %(sentence)s"), sentence=Term(sentence))
        log = store_roll(crew.table_id, roller, RollKind.INCARCERATION, pool, rng, note=note)
        outcome = incarceration_result(
            log.as_dice.outcome,
            cell_block_control=crew_actions.holds_prison_claim(crew, "Cell Block Control"),
        )
        if outcome.rep:
            rep = ability_rules.gained_rep(outcome.rep, crew.abilities)
            crew_actions.add_rep(crew=crew, amount=rep)
        for _ in range(outcome.prison_claims):
            crew_actions.take_prison_claim(crew=crew, key=prison_claim)
        status = ability_rules.prison_status(outcome.status, jail_bird=jail_bird)
        if status and faction is not None:
            crew_actions.shift_status(faction=faction, delta=status)
        if character is not None and outcome.trauma:
            character_actions.suffer_trauma(character=character)
        return log
