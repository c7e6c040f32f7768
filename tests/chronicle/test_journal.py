"""The session journal: written from what happened between a session's start and end,
grouped by phase, per audience, in a constant number of queries."""

import re
from collections import Counter
from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from blades.rules.rolls import RollKind
from characters import actions as sheet
from chronicle import actions as journal_actions
from chronicle.journal import build
from chronicle.models import Happening, PlaySession
from crews import actions as crew_actions
from play import phases
from rolls import actions as roll_actions
from rolls import outcome as roll_outcome
from sessions import actions
from sessions.models import Membership
from tests.factories import CharacterFactory, FactionFactory
from tests.helpers import Dice, call


def _lines(journal) -> list[str]:
    return [line.text for part in journal.parts for line in part.lines]


def _text(journal) -> str:
    return "\n".join(
        [line.text for part in journal.parts for line in part.lines]
        + [step for part in journal.parts for line in part.lines for step in line.steps]
    )


@pytest.fixture
def ada(table, player):
    return CharacterFactory(table=table, owner=player, name="Ada", prowl=2)


def _member(table, user) -> Membership:
    return Membership.objects.get(table=table, user=user)


def test_a_session_is_told_in_sentences_grouped_by_phase(table, gm, player, ada, crew):
    before = actions.quick_roll(
        table=table, roller=player, kind=RollKind.FORTUNE, pool=1, rng=Dice(3)
    )
    session = journal_actions.start_session(table=table, title="The Dimmer Sisters")
    actions.quick_roll(
        table=table, roller=player, kind=RollKind.FORTUNE, pool=2, note="the tide", rng=Dice(6, 2)
    )
    clock = actions.create_clock(
        table=table, name="Bluecoat patrol", segments=4, kind="danger", visibility="everyone"
    )
    actions.tick_clock(clock=clock, by=4)
    roll = roll_actions.start_roll(
        by=_member(table, player), character=ada, goal="slip past the guard", action="prowl"
    )
    call(roll)
    roll = roll_actions.roll_dice(by=_member(table, player), roll=roll, rng=Dice(4, 2))
    roll_outcome.add_consequence(
        by=_member(table, gm), roll=roll, kind="harm", level=2, description="Stabbed"
    )
    faction = crew_actions.create_faction(
        table=table, name="The Red Sashes", tier=2, hold="strong", status=0
    )
    phases.start_score(table=table, plan="stealth", detail="the roof", target_faction=faction)
    crew_actions.shift_status(faction=faction, delta=-1)
    sheet.mark_xp(character=ada, track="prowess", amount=2)
    journal_actions.end_session(session=session)
    actions.quick_roll(table=table, roller=player, kind=RollKind.FORTUNE, pool=1, rng=Dice(5))

    [journal] = build(table, is_gm=True)
    assert journal.session == session
    assert [part.phase for part in journal.parts] == ["Free play", "The score"]
    free_play, score = journal.parts
    texts = [line.text for line in free_play.lines]
    assert (
        texts[0]
        == f"{player.username} made a fortune roll (6, 2 on 2d): Standard effect, “the tide”."
    )
    assert "A new danger clock: Bluecoat patrol (4 segments)." in texts
    assert "The clock Bluecoat patrol filled (4 segments)." in texts
    action = next(line for line in free_play.lines if line.text.startswith("Ada made"))
    assert action.text == (
        "Ada made an action roll with Prowl (risky, standard effect) to slip past the guard "
        "(4, 2 on 2d): Partial success."
    )
    assert any("Harm level 2 to Ada: Stabbed" in step for step in action.steps)
    # The harm is told once, by the roll that dealt it, not again by the sheet.
    assert not any("suffered" in text for text in texts)
    assert [line.text for line in score.lines] == [
        "The crew set out on a score: a stealth plan against The Red Sashes "
        "(Point of infiltration: the roof).",
        "The Red Sashes now stand at -1 with the crew: Interfering.",
        "Ada marked 2 prowess xp.",
    ]
    # Rolls before the start and after the end belong to no session.
    assert not any("(3 on 1d)" in text for text in texts)
    assert before.pk and "5 on 1d" not in _text(journal)


def test_payoff_heat_entanglement_and_downtime_are_told(table, gm, player, ada, crew):
    journal_actions.start_session(table=table)
    phases.start_score(table=table, plan="assault", detail="the gate", target_name="A warehouse")
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=Dice(5))
    phases.end_score(table=table)
    phases.payoff(table=table, size="standard")
    phases.take_heat(table=table, exposure="contained")
    [journal] = build(table, is_gm=True)
    phases_seen = [part.phase for part in journal.parts]
    assert phases_seen == ["The score", "Payoff", "Heat"]
    payoff, heat = journal.parts[1:]
    assert payoff.lines[0].text.startswith("Payoff: ")
    assert heat.lines[0].text.startswith("The crew took 2 heat (heat now 2, wanted level 0)")
    assert "engagement roll" in _text(journal)


def test_harm_trauma_and_advances_on_the_sheet_are_told(table, player, ada):
    journal_actions.start_session(table=table)
    sheet.add_harm(character=ada, level=1, description="Bruised ribs")
    sheet.mark_stress(character=ada, amount=10)
    sheet.choose_trauma(character=ada, condition="cold")
    sheet.mark_xp(character=ada, track="insight", amount=6)
    sheet.take_action_advance(character=ada, action="hunt", mastery=False)
    lines = _lines(build(table, is_gm=True)[0])
    assert "Ada suffered level 1 harm: Bruised ribs." in lines
    assert "Ada took a trauma: Cold." in lines
    assert "Ada marked 6 insight xp, earning 1 advance." in lines
    assert "Ada spent an insight advance on a dot in Hunt." in lines


def test_sessions_newest_first_each_with_its_own_events(table, player):
    first = journal_actions.start_session(table=table, title="One")
    actions.quick_roll(table=table, roller=player, kind=RollKind.FORTUNE, pool=1, rng=Dice(2))
    journal_actions.end_session(session=first)
    second = journal_actions.start_session(table=table, title="Two")
    actions.quick_roll(table=table, roller=player, kind=RollKind.FORTUNE, pool=1, rng=Dice(6))
    newest, oldest = build(table, is_gm=True)
    assert (newest.session, oldest.session) == (second, first)
    assert "6 on 1d" in _text(newest) and "2 on 1d" not in _text(newest)
    assert "2 on 1d" in _text(oldest) and "6 on 1d" not in _text(oldest)


def test_a_shared_roll_is_told_once_though_its_dice_are_a_line_of_the_log(table, player, ada):
    journal_actions.start_session(table=table, title="Once")
    roll = roll_actions.start_roll(
        by=_member(table, player), character=ada, goal="slip past the guard", action="prowl"
    )
    call(roll)
    roll_actions.roll_dice(by=_member(table, player), roll=roll, rng=Dice(4, 2))
    (journal,) = build(table, is_gm=True)
    assert sum("slip past the guard" in line for line in _lines(journal)) == 1


def test_one_session_open_at_a_time(table):
    journal_actions.start_session(table=table)
    with pytest.raises(Exception, match="already under way"):
        journal_actions.start_session(table=table)


# --- The pages ------------------------------------------------------------------------


def test_the_gm_starts_and_ends_a_session_from_the_table_page(client, table, gm):
    client.force_login(gm)
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "Start a session" in page and reverse("journal", args=[table.pk]) in page
    response = client.post(
        reverse("journal_start", args=[table.pk]), {"title": "Night one", "back": "table"}
    )
    assert response.status_code == 302 and response.url == reverse("table_detail", args=[table.pk])
    session = PlaySession.objects.get(table=table)
    assert session.title == "Night one" and session.open
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "End the session" in page
    again = client.post(reverse("journal_start", args=[table.pk]), {"title": ""})
    assert again.status_code == 422 and "already under way" in again.content.decode()
    client.post(reverse("journal_end", args=[table.pk, session.pk]))
    session.refresh_from_db()
    assert not session.open
    ended_twice = client.post(reverse("journal_end", args=[table.pk, session.pk]))
    assert ended_twice.status_code == 422


def _session(table, title: str, started: datetime, *, ended: bool) -> PlaySession:
    session = journal_actions.start_session(table=table, title=title)
    PlaySession.objects.filter(pk=session.pk).update(started=started)
    if ended:
        journal_actions.end_session(session=session)
        PlaySession.objects.filter(pk=session.pk).update(ended=started.replace(hour=23, minute=0))
    session.refresh_from_db()
    return session


def test_the_journal_gives_each_moment_for_the_readers_clock(client, table, gm):
    """Written in UTC, said to be UTC (what a reader without JavaScript keeps), with the
    instant for static/js/local-time.js in ISO 8601, whatever the table's language."""
    table.language = "es"
    table.save(update_fields=["language"])
    _session(table, "Night one", datetime(2026, 3, 4, 21, 5, tzinfo=UTC), ended=True)
    _session(table, "Night two", datetime(2026, 3, 11, 20, 30, tzinfo=UTC), ended=False)
    client.force_login(gm)
    page = client.get(reverse("journal", args=[table.pk])).content.decode()
    moments = re.findall(r'<time datetime="([^"]+)" data-local="(\w+)">([^<]+)</time>', page)
    assert [(when, style) for when, style, _ in moments] == [
        ("2026-03-11T20:30:00+00:00", "time"),  # the GM's session control
        ("2026-03-11T20:30:00+00:00", "datetime"),
        ("2026-03-04T21:05:00+00:00", "datetime"),
        ("2026-03-04T23:00:00+00:00", "time"),
    ]
    assert all(text.endswith(" UTC") for _, _, text in moments)
    assert "js/local-time.js" in page


def test_the_journals_landmarks_have_distinct_names(client, table, gm):
    """axe's landmark-unique: every session has its notes and what we learned, each
    named with its session; a phase, which comes back within an evening, is no region."""
    for day in (4, 11):
        session = _session(table, "", datetime(2026, 3, day, 21, tzinfo=UTC), ended=True)
        journal_actions.edit_session(session=session, title="", gm_notes="Notes")
        journal_actions.add_learned(session=session, author=gm, text="A lesson")
    client.force_login(gm)
    page = client.get(reverse("journal", args=[table.pk])).content.decode()

    def text_of(element_id: str) -> str:
        return re.search(rf'id="{element_id}"[^>]*>([^<]*)<', page).group(1)

    landmarks = re.findall(
        r"<(?:section|nav|aside|main|form)\b[^>]*\baria-(label|labelledby)=\"([^\"]+)\"", page
    )
    names = [
        value if how == "label" else " ".join(map(text_of, value.split()))
        for how, value in landmarks
    ]
    assert "What we learned Session of 2026-03-11" in names
    assert [name for name, n in Counter(names).items() if n > 1] == []


def test_players_neither_start_nor_end_nor_edit_sessions(client, table, player):
    session = journal_actions.start_session(table=table)
    client.force_login(player)
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "Start a session" not in page and "End the session" not in page
    assert client.post(reverse("journal_start", args=[table.pk])).status_code == 403
    assert client.post(reverse("journal_end", args=[table.pk, session.pk])).status_code == 403
    edit = reverse("journal_edit", args=[table.pk, session.pk])
    assert client.post(edit, {"title": "x", "gm_notes": "y"}).status_code == 403


def test_a_player_adds_what_we_learned(client, table, player):
    session = journal_actions.start_session(table=table)
    client.force_login(player)
    url = reverse("journal_learned", args=[table.pk, session.pk])
    assert client.post(url, {"text": "  "}).status_code == 422
    assert client.post(url, {"text": "x" * 301}).status_code == 422
    assert client.post(url, {"text": "The Sashes fear the canal"}).status_code == 302
    page = client.get(reverse("journal", args=[table.pk])).content.decode()
    assert "The Sashes fear the canal" in page and player.username in page


def test_the_gm_keeps_a_title_and_notes(client, table, gm):
    session = journal_actions.start_session(table=table)
    client.force_login(gm)
    url = reverse("journal_edit", args=[table.pk, session.pk])
    assert client.get(url).status_code == 200
    client.post(url, {"title": "The heist", "gm_notes": "Sashes will betray them"})
    page = client.get(reverse("journal", args=[table.pk])).content.decode()
    assert "The heist" in page and "Sashes will betray them" in page


def test_a_session_of_another_table_is_not_found(client, table, gm, outsider):
    from tests.factories import TableFactory

    other = TableFactory(gm=outsider)
    session = journal_actions.start_session(table=other)
    client.force_login(gm)
    assert client.post(reverse("journal_end", args=[table.pk, session.pk])).status_code == 404
    assert client.get(reverse("journal_export", args=[table.pk, session.pk])).status_code == 404
    assert client.get(reverse("journal", args=[other.pk])).status_code == 404


def test_exports_are_markdown(client, table, gm, player):
    session = journal_actions.start_session(table=table, title="Night one")
    actions.quick_roll(table=table, roller=player, kind=RollKind.FORTUNE, pool=2, rng=Dice(6, 2))
    client.force_login(player)
    one = client.get(reverse("journal_export", args=[table.pk, session.pk]))
    assert one["Content-Type"].startswith("text/markdown")
    assert "attachment" in one["Content-Disposition"]
    text = one.content.decode()
    assert f"# Journal of {table.name}" in text and "## Night one" in text
    assert (
        "### Free play" in text and f"- {player.username} made a fortune roll (6, 2 on 2d)" in text
    )
    campaign = client.get(reverse("journal_campaign", args=[table.pk])).content.decode()
    assert "## Night one" in campaign


def _events(table, player, count: int) -> None:
    clock = actions.create_clock(
        table=table, name="Patrol", segments=12, kind="danger", visibility="everyone"
    )
    for index in range(count):
        actions.quick_roll(
            table=table, roller=player, kind=RollKind.FORTUNE, pool=1, rng=Dice(index % 6 + 1)
        )
        actions.tick_clock(clock=clock, by=1)


@pytest.mark.parametrize("is_gm", [True, False])
def test_the_journal_costs_the_same_queries_for_1_and_10_events(
    client, table, gm, player, ada, is_gm
):
    client.force_login(gm if is_gm else player)
    url = reverse("journal", args=[table.pk])
    counts = []
    for events in (1, 10):
        session = journal_actions.start_session(table=table)
        _events(table, player, events)
        roll = roll_actions.start_roll(
            by=_member(table, player), character=ada, goal="climb", action="prowl"
        )
        call(roll)
        roll_actions.roll_dice(by=_member(table, player), roll=roll, rng=Dice(6, 1))
        sheet.mark_xp(character=ada, track="prowess", amount=1)
        journal_actions.end_session(session=session)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_journal_hears_news_by_name_not_by_the_fields_a_save_wrote(table):
    """A row saved with only its status or step written is no news: a status shift is the
    GM's step (crews' `faction_shifted`), a phase the loop's (play's `phase_moved`)."""
    faction = FactionFactory(table=table, status=0)
    faction.status = 1
    faction.save(update_fields=["status"])
    phase = phases.phase_of(table.pk)
    phase.step = phase.Step.SCORE
    phase.save(update_fields=["step"])
    assert not Happening.objects.filter(table=table).exists()
    crew_actions.shift_status(faction=faction, delta=-1)
    told = Happening.objects.get(table=table)
    assert (told.kind, told.faction, told.data) == (
        Happening.Kind.FACTION_STATUS,
        faction,
        {"status": 0},
    )
