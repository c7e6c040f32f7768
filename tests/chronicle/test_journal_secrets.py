"""What the GM hides never reaches a player's journal or export: secret rolls, GM-only
clocks, hidden factions (and their goal clocks) and the GM's notes. Checked on the bytes
of every page and file a player can fetch, with marker strings."""

from django.urls import reverse

from blades.rules.rolls import RollKind
from chronicle import actions as journal_actions
from crews import actions as crew_actions
from play import phases
from rolls import actions as roll_actions
from rolls import outcome as roll_outcome
from sessions import actions
from sessions.models import Membership
from tests.factories import CharacterFactory
from tests.helpers import call

MARKERS = (
    b"MARKER-GMCLOCK",
    b"MARKER-SECRETROLL",
    b"MARKER-FORTUNE",
    b"MARKER-FACTION",
    b"MARKER-GOAL",
    b"MARKER-NOTES",
)


class Dice:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def _play_a_session_full_of_secrets(table, gm, player, crew):
    gm_m = Membership.objects.get(table=table, user=gm)
    player_m = Membership.objects.get(table=table, user=player)
    ada = CharacterFactory(table=table, owner=player, name="Ada", prowl=2)
    session = journal_actions.start_session(table=table, title="Night of secrets")
    hidden = actions.create_clock(
        table=table, name="MARKER-GMCLOCK", segments=4, kind="danger", visibility="gm"
    )
    actions.tick_clock(clock=hidden, by=3)
    actions.quick_roll(
        table=table, roller=gm, kind=RollKind.FORTUNE, pool=2, note="MARKER-SECRETROLL",
        secret=True, rng=Dice(1, 2),
    )  # fmt: skip
    roll_outcome.fortune_roll(
        by=gm_m, table=table, goal="MARKER-FORTUNE", trait=2, secret=True, rng=Dice(3, 4)
    )
    # A public roll whose complication ticks the GM-only clock, filling it.
    roll = roll_actions.start_roll(by=player_m, character=ada, goal="pick the lock", action="prowl")
    call(roll)
    roll = roll_actions.roll_dice(by=player_m, roll=roll, rng=Dice(4, 1))
    roll_outcome.add_consequence(by=gm_m, roll=roll, kind="complication", clock=hidden, ticks=1)
    faction = crew_actions.create_faction(
        table=table, name="MARKER-FACTION", tier=1, hold="weak", status=0, hidden=True
    )
    goal = crew_actions.add_goal_clock(faction=faction, name="MARKER-GOAL", segments=4)
    actions.tick_clock(clock=goal, by=4)
    crew_actions.shift_status(faction=faction, delta=-1)
    phases.start_score(table=table, plan="deception", detail="a mask", target_faction=faction)
    session.gm_notes = "MARKER-NOTES"
    session.save()
    journal_actions.end_session(session=session)
    return session


def _everything(client, table, session) -> bytes:
    return b"".join(
        client.get(url).content
        for url in (
            reverse("journal", args=[table.pk]),
            reverse("journal_export", args=[table.pk, session.pk]),
            reverse("journal_campaign", args=[table.pk]),
        )
    )


def test_a_players_journal_and_exports_carry_no_secret(client, table, gm, player, crew):
    session = _play_a_session_full_of_secrets(table, gm, player, crew)
    client.force_login(player)
    seen = _everything(client, table, session)
    assert [marker for marker in MARKERS if marker in seen] == []
    # What players did see is there, the hidden names put as players read them.
    assert b"pick the lock" in seen and b"a hidden clock" in seen
    assert b"a target the GM keeps hidden" in seen


def test_the_gms_journal_and_exports_carry_everything(client, table, gm, player, crew):
    session = _play_a_session_full_of_secrets(table, gm, player, crew)
    client.force_login(gm)
    seen = _everything(client, table, session)
    assert [marker for marker in MARKERS if marker not in seen] == []
