"""A table with one of everything an export carries, for the backup tests."""

from django.utils import timezone

from characters import actions as character_actions
from characters.models import Character
from chronicle.models import Happening, Learned, PlaySession
from crews import actions as crew_actions
from sessions.models import Table
from tests.factories import (
    ActionRollFactory,
    CharacterAbilityFactory,
    CharacterFactory,
    CharacterItemFactory,
    ClockFactory,
    ConsequenceFactory,
    ContactFactory,
    DowntimeActivityFactory,
    DraftFactory,
    FlashbackFactory,
    GmNoteFactory,
    MembershipFactory,
    PhaseFactory,
    RollEventFactory,
    RollFactory,
    ScoreFactory,
    TableFactory,
)


def hand_seats_back(restored: Table, original: Table) -> None:
    """Each player of the original joins the restored table, and the GM hands each the
    seat the file named them by."""
    from django.contrib.auth import get_user_model

    from backup.actions import hand_seat
    from backup.models import Seat
    from backup.tables import seats_of
    from sessions.models import Membership

    by_seat = {seat: username for username, seat in seats_of(original.pk).items()}
    for seat in Seat.objects.filter(table=restored):
        user = get_user_model().objects.get(username=by_seat[seat.name])
        Membership.objects.get_or_create(table=restored, user=user, defaults={"role": "player"})
        hand_seat(seat=seat, player=user)


def full_table() -> Table:
    """A table with one of everything an export must carry."""
    table = TableFactory(name="The Lampblacks' table")
    player = MembershipFactory(table=table).user
    other = MembershipFactory(table=table).user
    character = CharacterFactory(
        table=table, owner=player, notes="Owes Bazso", stress=4, coin=2, harm={"1": ["Tired"]}
    )
    CharacterItemFactory(character=character, name="Fine lockpicks")
    CharacterAbilityFactory(character=character)
    GmNoteFactory(character=character, text="Secretly a Red Sash")
    ContactFactory(character=character, name="Marlane", role="a pugilist", stance="rival")
    playbook = character_actions.create_custom_playbook(
        table=table,
        name="Ghost Hunter",
        xp_trigger="You hunted a spirit.",
        primary="attune",
        secondary="survey",
        ability_keys=[],
        own_abilities=[("Spirit sense", "You see ghosts.")],
        friends=[("Elsa", "a spirit warden")],
        items=[("Spirit lantern", 1)],
    )
    # The wizard keeps the posted answers, the playbook by its id.
    DraftFactory(table=table, user=other, step="actions", data={"playbook": str(playbook.pk)})
    custom_made = CharacterFactory(table=table, owner=other, playbook=playbook, name="Custom made")
    CharacterAbilityFactory(character=custom_made)  # the custom playbook's own ability
    CharacterFactory(table=table, owner=player, state="dead", name="Old Marlane")
    ClockFactory(table=table, name="Bluecoats close in", segments=6, filled=3)
    ClockFactory(table=table, name="Secret plot", visibility="gm")
    RollFactory(table=table, roller=player, character=character, note="Over the wall")
    RollFactory(table=table, roller=table.gm, secret=True)
    add_crew_and_factions(table)
    add_score_and_downtime(table, character)
    add_action_roll(table, player, character)
    add_group_action(table, character, custom_made)
    add_journal(table, player)
    return table


def add_crew_and_factions(table: Table) -> None:
    crew = crew_actions.create_crew(table=table, crew_type="shadows", name="The Lampblacks")
    # The lair is held from the start; seize a turf square as well.
    turf = crew.claims.filter(turf=True, lair=False).first()
    crew_actions.set_claim(claim=turf, held=True, override=True)
    crew_actions.recruit_cohort(
        crew=crew,
        name="Bell's gang",
        kind="gang",
        types=["thugs"],
        edges=["fearsome"],
        flaws=["wild"],
        gained_in_play=True,
    )
    crew_actions.mark_upgrade(crew=crew, key="carriage", by=2)
    crew.advances = 1
    crew.save(update_fields=["advances"])
    crew_actions.take_ability(crew=crew, key="ghost_echoes")
    crew_actions.new_screen_link(table=table)
    known = crew_actions.create_faction(
        table=table, name="The Red Sashes", tier=2, hold="strong", status=-2, notes="Rivals"
    )
    crew_actions.add_goal_clock(faction=known, name="Take Six Towers", segments=8)
    crew_actions.create_faction(
        table=table, name="The Hive", tier=4, hold="strong", status=0, hidden=True
    )


def add_score_and_downtime(table: Table, character: Character) -> None:
    engagement = RollFactory(table=table, roller=table.gm, kind="engagement", note="Engagement")
    score = ScoreFactory(
        table=table,
        target_faction=table.factions.get(name="The Red Sashes"),
        target_name="The Red Sashes' vault",
        target_tier=2,
        plan="stealth",
        detail="the cellar door",
        engagement_roll=engagement,
        position="risky",
        rep=2,
        coin=4,
        heat=3,
    )
    FlashbackFactory(score=score, character=character, stress=1, note="Bribed the guard")
    project = ClockFactory(table=table, name="Forged papers", kind="project", segments=8, filled=2)
    DowntimeActivityFactory(
        score=score,
        character=character,
        kind="project",
        detail="study",
        roll=RollFactory(table=table, roller=character.owner, character=character),
        outcome="partial",
        amount=2,
        clock=project,
        result="2 ticks on Forged papers",
    )
    PhaseFactory(table=table, step="activities", score=score, xp_done=[character.pk])


def add_action_roll(table: Table, player, character: Character) -> None:
    clock = table.clocks.get(name="Bluecoats close in")
    roll = ActionRollFactory(
        table=table,
        step="done",
        started_by=player,
        character=character,
        goal="Climb the wall",
        action="prowl",
        position="desperate",
        effect=3,
        push_dice=True,
        pool=3,
        dice=[6, 3, 1],
        outcome="success",
        target_clock=clock,
        finished=timezone.now(),
    )
    ConsequenceFactory(
        roll=roll,
        kind="harm",
        character=character,
        description="Sprained ankle",
        harm_level=1,
        harm_landed=1,
        resist_attribute="prowess",
        resisted="roll",
        resist_dice=[2, 4, 2],  # the pool, then its dice
        result="reduced",
    )
    ConsequenceFactory(roll=roll, kind="complication", clock=clock, ticks=2)
    RollEventFactory(roll=roll, actor=player, text="Started the roll")
    RollEventFactory(
        roll=roll,
        actor=table.gm,
        text="Rolled 6",
        changes=[{"clock": clock.pk, "field": "filled", "before": 3, "after": 5}],
    )


def add_journal(table: Table, player) -> None:
    session = PlaySession.objects.create(
        table=table, title="Night one", gm_notes="They trust Bazso", ended=timezone.now()
    )
    Learned.objects.create(session=session, author=player, text="Bazso lies")
    Happening.objects.create(table=table, kind=Happening.Kind.PHASE, data={"step": "score"})


def add_group_action(table: Table, leader: Character, other: Character) -> None:
    """Ids of the table's rows kept inside JSON fields."""
    log = RollFactory(table=table, roller=leader.owner, character=leader, note="Group")
    roll = ActionRollFactory(
        table=table,
        kind="group",
        started_by=leader.owner,
        character=leader,
        goal="All over the wall",
        action="prowl",
        group={str(leader.pk): [2, 6, 3], str(other.pk): None},
        group_bonuses={str(leader.pk): {"push": True, "assister": other.pk, "log": log.pk}},
    )
    RollEventFactory(
        roll=roll,
        actor=leader.owner,
        text="Pushed",
        changes=[
            {"character": leader.pk, "who": leader.name, "field": "stress", "before": 4, "after": 6}
        ],
    )
