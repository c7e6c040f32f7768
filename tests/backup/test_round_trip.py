import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from backup.tables import MOVED, PARTS, dumps, export_table, import_table
from characters import actions as character_actions
from characters.models import Character
from chronicle.models import Happening, Learned, PlaySession
from crews import actions as crew_actions
from rolls.models import ActionRoll, RollEvent
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
    DraftFactory(table=table, user=other, step="actions", data={"playbook": "lurk"})
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
        resist_dice=[4, 2],
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


def comparable(document: dict) -> dict:
    """As written to the file, so dates compare as the same text."""
    return json.loads(dumps(document))


@pytest.mark.django_db(transaction=True)
def test_export_flush_import_export_loses_nothing(tmp_path):
    table = full_table()
    path = tmp_path / "table.json"
    call_command("export_table", table.pk, output=str(path))
    first = json.loads(path.read_text())
    kinds = {item["model"] for item in first["objects"]}
    assert {
        "table_sessions.table",
        "table_sessions.membership",
        "table_sessions.clock",
        "table_sessions.roll",
        "characters.character",
        "characters.characteritem",
        "characters.characterability",
        "characters.gmnote",
    } <= kinds
    # Every model the export knows is in this file, so the comparison below covers it.
    assert kinds == {label.lower() for label, _ in PARTS}
    # The shared-screen link stays behind: the file must not open the live table.
    assert table.screen.token not in path.read_text()
    # Everything of the table and its members goes; the standard content stays.
    usernames = first["users"]
    Table.objects.all().delete()
    get_user_model().objects.all().delete()
    assert not Character.objects.exists()

    call_command("import_table", str(path))
    assert comparable(export_table(table.pk)) == first
    restored = get_user_model().objects.filter(username__in=usernames)
    assert restored.count() == len(usernames)
    assert not any(user.has_usable_password() for user in restored)
    # New rows after an import get fresh ids (PostgreSQL's sequences moved on).
    assert TableFactory().pk != table.pk


def test_an_export_written_before_the_action_roll_moved_still_imports(db):
    table = full_table()
    document = comparable(export_table(table.pk))
    # Until the action roll had its own app, exports named its models under sessions.
    older = json.loads(json.dumps(document).replace('"rolls.', '"table_sessions.'))
    assert {"table_sessions.actionroll", "table_sessions.consequence"} <= {
        item["model"] for item in older["objects"]
    }
    Table.objects.all().delete()
    get_user_model().objects.all().delete()
    assert not ActionRoll.objects.exists()

    import_table(older)
    assert comparable(export_table(table.pk)) == document
    assert RollEvent.objects.filter(roll__table=table).count() == 2


MOVED_BACK = {new: old for old, new in MOVED.items()}


@pytest.mark.django_db(transaction=True)
def test_an_export_written_before_the_phase_loop_moved_still_imports(tmp_path):
    """Files written while scores, flashbacks, downtime and the phase lived in crews
    (and, older still, the action roll in sessions)."""
    table = full_table()
    current = comparable(export_table(table.pk))
    older = json.loads(dumps(current))
    for item in older["objects"]:
        item["model"] = MOVED_BACK.get(item["model"], item["model"])
    assert {"crews.score", "crews.phase", "crews.flashback", "crews.downtimeactivity"} <= {
        item["model"] for item in older["objects"]
    }
    path = tmp_path / "older.json"
    path.write_text(json.dumps(older))
    Table.objects.all().delete()
    get_user_model().objects.all().delete()

    call_command("import_table", str(path))
    assert comparable(export_table(table.pk)) == current


def test_import_refuses_a_table_that_exists(db, tmp_path):
    from django.core.management.base import CommandError

    table = TableFactory()
    path = tmp_path / "table.json"
    call_command("export_table", table.pk, output=str(path))
    with pytest.raises(CommandError, match="already exists"):
        call_command("import_table", str(path))


def test_the_gm_downloads_the_export_from_the_settings_page(client, table, gm, player, outsider):
    ClockFactory(table=table, name="Bluecoats close in")
    settings_url = reverse("table_settings", args=[table.pk])
    export_url = reverse("table_export", args=[table.pk])
    client.force_login(gm)
    page = client.get(settings_url)
    assert page.status_code == 200 and export_url.encode() in page.content
    download = client.get(export_url)
    assert download["Content-Disposition"] == f'attachment; filename="table-{table.pk}.json"'
    document = json.loads(download.content)
    assert any(o["fields"].get("name") == "Bluecoats close in" for o in document["objects"])
    assert gm.username in document["users"]
    client.force_login(player)
    assert client.get(settings_url).status_code == 403
    assert client.get(export_url).status_code == 403
    client.force_login(outsider)
    assert client.get(settings_url).status_code == 404
    assert client.get(export_url).status_code == 404
