"""One log (issue 13): the shared roll's dice are lines of the table's roll log, like
every other roll, shown on the table page, the sheets and the shared screen; a secret
roll reaches only the GM. On the old code a shared roll never reached the log: after
three action rolls the table's log still said "No rolls yet"."""

import ast
from pathlib import Path

from django.urls import reverse

from crews.models import Screen
from rolls import actions as flow
from rolls import group as flow_group
from rolls import outcome as flow_outcome
from rolls import undo as flow_undo
from rolls.models import ActionRoll
from sessions.models import Clock, Roll
from tests.helpers import Dice, start

ROOT = Path(__file__).resolve().parents[2]


def rolled(ada_m, gm_m, ada, faces=(5, 3)):
    roll = start(ada_m, ada)
    flow.set_terms(by=gm_m, roll=roll, position="desperate", effect=3)
    return flow.roll_dice(by=ada_m, roll=roll, rng=Dice(*faces))


def test_an_action_rolls_dice_are_one_line_of_the_log(ada_m, gm_m, ada):
    roll = rolled(ada_m, gm_m, ada)
    line = Roll.objects.get()
    assert roll.log == line
    assert (line.kind, line.character_name, line.pool, line.dice) == ("action", ada.name, 2, [5, 3])
    assert str(line.summary) == "Prowl · Desperate / Great: Partial success"
    assert line.note == "slip past the guard"


def test_a_closed_roll_says_the_consequences_taken_and_never_a_clocks_name(ada_m, gm_m, ada, table):
    roll = rolled(ada_m, gm_m, ada)
    hidden = Clock.objects.create(table=table, name="The Inspector", visibility="gm")
    flow_outcome.add_consequence(by=gm_m, roll=roll, kind="harm", level=2, description="Cut")
    flow_outcome.add_consequence(by=gm_m, roll=roll, kind="complication", clock=hidden, ticks=2)
    flow_outcome.finish(by=gm_m, roll=ActionRoll.objects.get(pk=roll.pk))
    line = Roll.objects.get()
    note = str(line.note)
    assert "Harm 2 (Cut) to Ada" in note and "Complication to Ada, 2 ticks" in note
    assert "Inspector" not in note + str(line.summary)


def test_undoing_a_roll_says_so_on_its_line(ada_m, gm_m, ada, table):
    roll = rolled(ada_m, gm_m, ada)
    flow_outcome.finish(by=gm_m, roll=roll)
    flow_undo.undo_last(by=gm_m, table=table)
    assert str(Roll.objects.get().summary).endswith("(undone by the GM)")


def test_resisting_in_the_shared_roll_is_a_line_of_its_own(ada_m, gm_m, ada):
    roll = rolled(ada_m, gm_m, ada, faces=(2, 1))
    con = flow_outcome.add_consequence(
        by=gm_m, roll=roll, kind="harm", level=2, description="Cut", attribute="prowess"
    )
    flow_outcome.resist(by=ada_m, consequence=con, rng=Dice(4, 2, 1))  # Prowess 3
    line = Roll.objects.get(kind="resistance")
    assert line.character_name == ada.name and line.dice == [4, 2, 1]


def test_a_group_actions_line_is_its_best_roll(ada_m, bo_m, gm_m, ada, bo):
    roll = start(ada_m, ada, group=True)
    flow_group.join_group(by=bo_m, roll=roll)
    flow.set_terms(by=gm_m, roll=roll, position="risky", effect=2)
    flow_group.roll_dice(by=ada_m, roll=roll, rng=Dice(3, 2))
    roll = flow_group.roll_dice(by=bo_m, roll=roll, rng=Dice(6))
    lines = Roll.objects.filter(kind="group")
    assert lines.count() == 2
    assert roll.log == lines.get(character_name=bo.name)


def test_a_secret_fortune_roll_is_a_line_for_the_gm_only(client, gm_m, table, gm, player, ada):
    flow_outcome.fortune_roll(
        by=gm_m, table=table, goal="Lampblack moves", trait=2, secret=True, rng=Dice(6, 1)
    )
    line = Roll.objects.get()
    assert line.secret and ActionRoll.objects.get().log == line
    url = reverse("table_detail", args=[table.pk])
    client.force_login(player)
    assert f'id="roll-{line.pk}"' not in client.get(url).content.decode()
    client.force_login(gm)
    assert f'id="roll-{line.pk}"' in client.get(url).content.decode()


def test_the_table_the_sheet_and_the_shared_screen_show_the_action_roll(
    client, ada_m, gm_m, ada, table, player
):
    rolled(ada_m, gm_m, ada)
    line = Roll.objects.get()
    screen = Screen.objects.create(table=table, active=True)
    client.force_login(player)
    pages = [
        reverse("table_detail", args=[table.pk]),
        reverse("character_sheet", args=[table.pk, ada.pk]),
        reverse("screen_shared", args=[screen.token]),
    ]
    for url in pages:
        page = client.get(url).content.decode()
        assert f'id="roll-{line.pk}"' in page, url
        assert "Prowl · Desperate / Great: Partial success" in page, url
        assert 'aria-label="5 (counts)"' in page, url


def test_only_sessions_actions_draws_dice():
    """One dice entry point: blades.rules.dice.roll is called by record_roll alone, so no
    roll can skip the log."""
    callers = []
    for path in ROOT.glob("*/**/*.py"):
        relative = path.relative_to(ROOT)
        if relative.parts[0] in ("tests", ".venv") or relative.parts[:2] == ("blades", "rules"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "roll"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "dice"
            ):
                callers.append(str(relative))
    assert callers == ["sessions/actions.py"]


def test_the_shared_screen_shows_the_roll_in_progress(client, ada_m, gm_m, ada, table):
    roll = start(ada_m, ada)
    flow.set_terms(by=gm_m, roll=roll, position="desperate", effect=3)
    screen = Screen.objects.create(table=table, active=True)
    page = client.get(reverse("screen_shared", args=[screen.token])).content.decode()
    assert f'id="screen-flow-{roll.pk}"' in page
    shown = page.split(f'id="screen-flow-{roll.pk}"')[1].split("</li>")[0]
    assert "rolls <strong>Prowl</strong>" in shown and "slip past the guard" in shown
    assert ">Desperate<" in shown and ">Great effect<" in shown and "Setting up" in shown


def test_one_stored_line_reads_in_each_readers_language(client, ada_m, gm_m, ada, table):
    """Issue 31: the line is kept as words, not as the text of its writer's language, so
    a Spanish reader and an English one read the same roll each in their own."""
    roll = rolled(ada_m, gm_m, ada)
    flow_outcome.add_consequence(by=gm_m, roll=roll, kind="harm", level=2, description="Cut")
    flow_outcome.finish(by=gm_m, roll=ActionRoll.objects.get(pk=roll.pk))
    client.force_login(table.gm)
    url = reverse("table_detail", args=[table.pk])

    def read(language):
        return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()

    spanish, english = read("es"), read("en")
    assert "Merodear · Desesperada / Grande: Éxito parcial" in spanish
    assert "slip past the guard · Daño 2 (Cut) a Ada" in spanish
    assert "Prowl · Desperate / Great: Partial success" in english
    assert "slip past the guard · Harm 2 (Cut) to Ada" in english
