"""The server CPU one read of the flow panel costs, measured in one process without
daphne or a client: the read every page makes after each step of a shared roll.

    python -m tests.bench.panelcpu                 # 3 rounds of 100 reads, GM and player
    python -m tests.bench.panelcpu --finished 30 --reads 200

A throwaway SQLite database (rollcpu's) gets one table with a GM, four players, a crew
with two cohorts, a clock players see and one whose progress they do not, then the
rolls of an evening: assisted action rolls with a harm and a ticked clock, one setting
up the next, group actions with a cohort led, one of them secret, and one roll open.
Each round reads the panel as the page fetches it, for the GM and for a player; the
figure is the process's CPU per read and the queries each read made, for each round
and the lowest.
"""

import argparse
import tempfile
import time
from pathlib import Path

from tests.bench.rollcpu import setup


def seed(finished: int):
    from django.contrib.auth import get_user_model

    from rolls import actions as flow
    from rolls import group as flow_group
    from rolls import outcome as flow_outcome
    from rolls.models import ActionRoll
    from sessions import actions
    from sessions.models import Clock, Membership, Table
    from tests.factories import CharacterFactory, CohortFactory, CrewFactory
    from tests.helpers import Dice

    User = get_user_model()
    gm = User.objects.create(username="gm")
    table = Table.objects.create(name="Bench table", gm=gm)
    gm_m = Membership.objects.create(table=table, user=gm, role="gm")
    cast = []
    for n in range(4):
        user = User.objects.create(username=f"player{n}")
        by = Membership.objects.create(table=table, user=user, role="player")
        cast.append((by, CharacterFactory(table=table, owner=user, name=f"Rogue {n}")))
    crew = CrewFactory(table=table, tier=1)
    cohorts = [CohortFactory(crew=crew, name="Thugs"), CohortFactory(crew=crew, name="")]
    clocks = [
        actions.create_clock(
            table=table, name=name, segments=8, kind="progress", visibility=visibility
        )
        for name, visibility in (("Alarm", Clock.Visibility.EVERYONE), ("Plot", "known"))
    ]
    for n in range(finished):
        by, character = cast[n % len(cast)]
        helper, teammate = cast[(n + 1) % len(cast)]
        if n % 2:
            # One sets up the next roll, which draws on it; a teammate assists each.
            setup = {"setup_for": teammate, "setup_benefit": "effect"} if n == 5 else {}
            roll = flow.start_roll(
                by=by, character=character, goal=f"goal {n}", action="prowl", **setup
            )
            flow.assist(by=helper, roll=roll)
            flow.set_terms(by=gm_m, roll=roll, position="risky", effect=2)
            roll = flow.roll_dice(by=by, roll=roll, rng=Dice(4, 2, 2, 2, 2))
            flow_outcome.add_consequence(
                by=gm_m, roll=roll, kind="harm", level=1, description="Bruised", character=character
            )
            flow_outcome.add_consequence(
                by=gm_m, roll=roll, kind="complication", clock=clocks[n % 2], ticks=1
            )
        else:
            roll = flow.start_roll(
                by=by, character=character, goal=f"goal {n}", action="prowl", group=True
            )
            roll = flow_group.join_group(by=helper, roll=roll)
            flow.set_terms(by=gm_m, roll=roll, position="risky", effect=2)
            cohort = cohorts[n % 4 // 2]
            roll = flow_group.roll_cohort(by=by, roll=roll, cohort=cohort, rng=Dice(5, 5, 5))
            roll = flow_group.roll_dice(by=helper, roll=roll, rng=Dice(3, 3, 3, 3))
            roll = flow_group.roll_dice(by=by, roll=roll, rng=Dice(6, 2, 2, 2))
        flow_outcome.finish(by=gm_m, roll=roll)
        if n == 2:
            ActionRoll.objects.filter(pk=roll.pk).update(secret=True)
    by, character = cast[0]
    flow.start_roll(by=by, character=character, goal="the open one", action="prowl")
    return table, gm, cast[0][0].user


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--finished", type=int, default=12, help="finished rolls at the table")
    parser.add_argument("--reads", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="panelcpu-") as directory:
        setup(Path(directory))
        from django.db import connection
        from django.test import Client
        from django.urls import reverse

        table, gm, player = seed(args.finished)
        path = reverse("flow_panel", args=[table.pk])
        queries = []

        def count(execute, sql, params, many, context):
            queries.append(sql)
            return execute(sql, params, many, context)

        for name, user in (("GM", gm), ("player", player)):
            client = Client(HTTP_HOST="127.0.0.1", HTTP_HX_REQUEST="true")
            client.force_login(user)
            size = len(client.get(path).content)
            for _ in range(args.warmup):
                client.get(path)
            figures = []
            for _ in range(args.rounds):
                queries.clear()
                cpu = time.process_time()
                with connection.execute_wrapper(count):
                    for _ in range(args.reads):
                        assert client.get(path).status_code == 200
                ms = (time.process_time() - cpu) * 1000 / args.reads
                figures.append(ms)
                print(f"{name}: {ms:.1f} ms per read, {len(queries) / args.reads:.0f} queries")
            print(f"{name}: lowest {min(figures):.1f} ms per read, {size} bytes")


if __name__ == "__main__":
    main()
