"""The server CPU one roll costs, measured in one process without daphne or a client.

    python -m tests.bench.rollcpu                   # 3 rounds of 300 quick rolls, 8 sockets
    python -m tests.bench.rollcpu --rolls 500 --sockets 16 --action

A throwaway SQLite database (the app's own settings, WAL and all) gets one table with a
GM and players signed in, and the in-memory channel layer gets the sockets' channels in
the table's two groups, drained by the event loop as consumers would. Each roll is posted
as the page posts it (`--action`: a character's roll through sessions.actions.record_roll
as the shared action roll's line is) from that loop, in the thread it hands sync work
to, so that its push goes out on the loop as in the server, and the Discord relay's
worker runs as it does there. The figure is the process's CPU (every thread: the
request, the loop, the relay) per roll after a warm-up,
with the queries each roll made, for each round and the lowest. A quick look at what a
change costs; the load benchmark (tests/bench/loadtest.py) stays the measure of the
whole server.
"""

import argparse
import asyncio
import contextlib
import cProfile
import os
import pstats
import tempfile
import threading
import time
from pathlib import Path


def setup(directory: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{directory / 'bench.sqlite3'}"
    os.environ.setdefault("SECRET_KEY", "rollcpu")
    os.environ.pop("REDIS_URL", None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "blades.settings"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def seed(players: int):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from sessions.models import Membership, Table
    from tests.factories import CharacterFactory

    User = get_user_model()
    password = make_password("rollcpu")
    users = User.objects.bulk_create(
        [User(username=f"bench{n}", password=password) for n in range(players + 1)]
    )
    gm, *seated = users
    table = Table.objects.create(name="Bench table", gm=gm)
    Membership.objects.bulk_create(
        [Membership(table=table, user=gm, role="gm")]
        + [Membership(table=table, user=u, role="player") for u in seated]
    )
    character = CharacterFactory(table=table, owner=seated[0], name="Vey")
    return table, seated[0], character


class Loop:
    """The server's event loop, in a thread: requests are served from it as daphne serves
    them, and one task per socket takes its frames off the layer as a consumer does."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.frames = 0

    def run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    async def _socket(self, layer, channel: str) -> None:
        while True:
            await layer.receive(channel)
            self.frames += 1

    def open_sockets(self, table_id: int, sockets: int) -> None:
        from channels.layers import get_channel_layer
        from django.utils import timezone

        from sessions import live
        from sessions.models import Presence

        async def open_all() -> list[str]:
            layer = get_channel_layer()
            channels = []
            for n in range(sockets):
                is_gm = n == 0
                channel = await layer.new_channel()
                for group in live.groups_for(table_id, is_gm, "en"):
                    await layer.group_add(group, channel)
                self.loop.create_task(self._socket(layer, channel))
                channels.append(channel)
            return channels

        # Each with its presence row, which tells the pushes which languages to draw.
        now = timezone.now()
        Presence.objects.bulk_create(
            Presence(table_id=table_id, channel_name=channel, language="en", seen=now)
            for channel in self.run(open_all())
        )

    def serve(self, request) -> None:
        """`request` as the server runs a view: from the loop, in sync_to_async's thread,
        where a push's async_to_sync goes back to this loop."""
        from asgiref.sync import sync_to_async

        self.run(sync_to_async(request)())

    def settle(self) -> None:
        """Until the sockets have taken every frame sent so far: a request's sends are
        done by the time it answers."""
        self.run(asyncio.sleep(0.01))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rolls", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sockets", type=int, default=8, help="sockets at the table")
    parser.add_argument(
        "--action", action="store_true", help="a character's roll line, not a quick roll"
    )
    parser.add_argument(
        "--profile", action="store_true", help="print a profile of the request's thread too"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="rollcpu-") as directory:
        setup(Path(directory))
        from django.db import connection, transaction
        from django.test import Client

        from blades.rules.rolls import RollKind
        from chronicle import discord
        from sessions import actions

        table, player, character = seed(players=max(args.sockets - 1, 1))
        loop = Loop()
        loop.open_sockets(table.pk, args.sockets)
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(player)
        path = f"/tables/{table.pk}/rolls/"

        queries = []

        def count(execute, sql, params, many, context):
            # Counted, not logged: Django's query log costs CPU of its own.
            queries.append(sql)
            return execute(sql, params, many, context)

        profile = None

        def roll(n: int) -> None:
            # In the request's thread, whose connection and calls are the ones to count.
            with connection.execute_wrapper(count), profile or contextlib.nullcontext():
                roll_once(n)

        def roll_once(n: int) -> None:
            if args.action:
                with transaction.atomic():
                    actions.record_roll(
                        table_id=table.pk,
                        roller=player,
                        kind=RollKind.ACTION,
                        pool=2,
                        summary="Skirmish · Risky / Standard",
                        note=f"over the wall {n}",
                        character=character,
                    )
                return
            response = client.post(
                path, {"kind": "fortune", "pool": 2, "note": f"BENCH{n}"}, HTTP_HX_REQUEST="true"
            )
            assert response.status_code == 204, response.status_code

        for n in range(args.warmup):
            loop.serve(lambda n=n: roll(n))
        loop.settle()
        discord.wait_idle()

        # A busy machine slows some rounds down; the lowest is the least disturbed.
        figures = []
        for round_ in range(args.rounds):
            frames = loop.frames
            profile = cProfile.Profile() if args.profile else None
            queries.clear()
            cpu = time.process_time()
            for n in range(args.rolls):
                loop.serve(lambda n=n: roll(n))
            loop.settle()
            discord.wait_idle()
            cpu = time.process_time() - cpu
            figures.append(cpu / args.rolls * 1000)
            frames = (loop.frames - frames) / args.rolls
            print(
                f"round {round_ + 1}: {figures[-1]:.2f} ms CPU per roll, "
                f"{len(queries) / args.rolls:g} queries per roll in the request's thread, "
                f"{frames:g} frames per roll" + ("" if frames == args.sockets else " (too few)"),
                flush=True,
            )
            if args.profile:
                pstats.Stats(profile).sort_stats("cumulative").print_stats(50)
        print(f"lowest {min(figures):.2f} ms CPU per roll")


if __name__ == "__main__":
    main()
