"""The dice statistics page: observed results beside the engine's exact odds."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from blades.rules.dice import Outcome, odds
from blades.rules.rolls import RollKind
from chronicle.stats import table_statistics
from rolls import actions as roll_actions
from rolls import group as roll_group
from rolls import outcome as roll_outcome
from sessions import actions
from sessions.models import Membership
from tests.factories import CharacterFactory
from tests.helpers import call


class Dice:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def _roll(table, who, pool, *faces, secret=False):
    return actions.quick_roll(
        table=table, roller=who, kind=RollKind.ACTION, pool=pool, secret=secret, rng=Dice(*faces)
    )


def test_observed_results_stand_beside_the_exact_odds(client, table, player):
    _roll(table, player, 2, 6, 6)  # critical
    _roll(table, player, 2, 4, 1)  # partial
    _roll(table, player, 2, 2, 1)  # bad
    _roll(table, player, 2, 3, 5)  # partial
    [person] = table_statistics(table.pk, gm=False)
    assert person.name == player.username and person.total == 4
    [line] = person.lines
    assert (line.kind, line.pool, line.total) == ("Action", 2, 4)
    bars = {bar.outcome: bar for bar in line.bars}
    assert {o: b.count for o, b in bars.items()} == {
        Outcome.CRITICAL: 1,
        Outcome.SUCCESS: 0,
        Outcome.PARTIAL: 2,
        Outcome.BAD: 1,
    }
    exact = odds(2)
    assert all(bars[o].expected == float(exact[o]) for o in Outcome)
    assert sum(b.expected for b in line.bars) == 1

    client.force_login(player)
    page = client.get(f"/tables/{table.pk}/dice/").content.decode()
    assert "Partial success: 2, 50%" in page
    assert f"({float(exact[Outcome.CRITICAL]):.1%})" in page  # 1 in 36
    assert page.count('<svg class="dice-chart"') == 1


def test_a_pool_that_cannot_crit_has_no_critical_row(table, player):
    _roll(table, player, 0, 6, 6)
    _roll(table, player, 1, 6)
    _roll(table, player, 2, 6, 6)
    [person] = table_statistics(table.pk, gm=False)
    rows = {line.pool: [bar.outcome for bar in line.bars] for line in person.lines}
    assert rows[0] == rows[1] == [Outcome.SUCCESS, Outcome.PARTIAL, Outcome.BAD]
    assert rows[2][0] == Outcome.CRITICAL


def test_secret_rolls_count_only_for_the_gm(client, table, gm, player):
    _roll(table, player, 1, 4)
    _roll(table, gm, 3, 1, 2, 3, secret=True)
    players_view = table_statistics(table.pk, gm=False)
    assert [p.name for p in players_view] == [player.username]
    gms_view = table_statistics(table.pk, gm=True)
    assert sorted(p.name for p in gms_view) == sorted([gm.username, player.username])

    client.force_login(player)
    assert gm.username not in client.get(f"/tables/{table.pk}/dice/").content.decode()
    client.force_login(gm)
    assert gm.username in client.get(f"/tables/{table.pk}/dice/").content.decode()


def test_shared_action_rolls_count_each_participants_dice(table, gm, player, other_player):
    ada = CharacterFactory(table=table, owner=player, name="Ada", prowl=2)
    CharacterFactory(table=table, owner=other_player, name="Bo", prowl=1)
    ada_m = Membership.objects.get(table=table, user=player)
    bo_m = Membership.objects.get(table=table, user=other_player)
    gm_m = Membership.objects.get(table=table, user=gm)
    roll = call(roll_actions.start_roll(by=ada_m, character=ada, goal="sneak", action="prowl"))
    roll_actions.roll_dice(by=ada_m, roll=roll, rng=Dice(4, 2))
    consequence = roll_outcome.add_consequence(
        by=gm_m, roll=roll, kind="harm", level=1, description="Bruised", attribute="prowess"
    )
    roll_outcome.resist(by=ada_m, consequence=consequence, rng=Dice(6, 6))  # prowl, skirmish
    roll_outcome.finish(by=gm_m, roll=roll)
    group = roll_actions.start_roll(
        by=ada_m, character=ada, goal="all in", action="prowl", group=True
    )
    roll_group.join_group(by=bo_m, roll=group)
    call(group)
    roll_group.roll_dice(by=ada_m, roll=group, rng=Dice(5, 1))
    roll_group.roll_dice(by=bo_m, roll=group, rng=Dice(3))

    people = {p.name: p for p in table_statistics(table.pk, gm=False)}
    ada_lines = {(line.kind, line.pool): line.total for line in people[player.username].lines}
    # Every die of the shared roll is a line of the log, each counted once.
    assert ada_lines == {("Action", 2): 1, ("Group action", 2): 1, ("Resistance", 2): 1}
    bo_lines = {(line.kind, line.pool): line.total for line in people[other_player.username].lines}
    assert bo_lines == {("Group action", 1): 1}


def _queries(client, table) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/tables/{table.pk}/dice/").status_code == 200
    return len(queries)


def test_the_query_count_does_not_grow_with_the_rolls(client, table, player, other_player):
    client.force_login(player)
    ada = CharacterFactory(table=table, owner=player, name="Ada", prowl=2)
    ada_m = Membership.objects.get(table=table, user=player)

    def one_of_each():
        _roll(table, player, 2, 3, 4)
        _roll(table, other_player, 1, 6)
        roll = roll_actions.start_roll(by=ada_m, character=ada, goal="sneak", action="prowl")
        call(roll)
        roll_actions.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 2))

    one_of_each()
    at_one = _queries(client, table)
    for _ in range(9):
        one_of_each()
    assert _queries(client, table) == at_one


def test_only_members_see_the_dice(client, table, outsider):
    client.force_login(outsider)
    assert client.get(f"/tables/{table.pk}/dice/").status_code == 404


def test_shared_rolls_from_before_the_log_still_count(table, player):
    """A shared roll made before its dice went to the log (no line) is counted from the
    roll itself, so a table's history keeps it."""
    from rolls.models import ActionRoll

    ada = CharacterFactory(table=table, owner=player, name="Ada", prowl=2)
    ActionRoll.objects.create(
        table=table, character=ada, goal="old", action="prowl", pool=2, dice=[4, 2],
        outcome="partial", step="done",
    )  # fmt: skip
    people = {p.name: p for p in table_statistics(table.pk, gm=False)}
    lines = {(line.kind, line.pool): line.total for line in people[player.username].lines}
    assert lines == {("Action roll", 2): 1}
