"""Create the demo table on the first run; on later runs only show its logins again.

With --group (`make run-group`) nobody is seated by the demo: friends come in through
the table's invite link, printed from PUBLIC_URL, and sign up on the way."""

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.urls import reverse

from sessions import actions
from sessions.models import Clock, Table

LOGINS_FILE = Path(settings.BASE_DIR) / ".demo-logins"
PLAYERS = ("player1", "player2")


class Command(BaseCommand):
    help = "Create a demo table with a GM, two players and a couple of clocks (first run only)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--group",
            action="store_true",
            help="Seat no demo player; print the invite link (from PUBLIC_URL) for friends.",
        )

    def handle(self, *args, **options) -> None:
        User = get_user_model()
        if not User.objects.filter(username="gm").exists():
            usernames = ("gm",) if options["group"] else ("gm", *PLAYERS)
            logins = {name: secrets.token_urlsafe(9) for name in usernames}
            users = {
                name: User.objects.create_user(username=name, password=password)
                for name, password in logins.items()
            }
            table = actions.create_table(gm=users["gm"], name="The Crows' Nest")
            for name in usernames[1:]:
                actions.join_table(user=users[name], token=table.invite_token)
            actions.create_clock(
                table=table,
                name="Bluecoats close in",
                segments=6,
                kind=Clock.Kind.DANGER,
                visibility=Clock.Visibility.EVERYONE,
            )
            actions.create_clock(
                table=table,
                name="The Lampblacks' revenge",
                segments=8,
                kind=Clock.Kind.FACTION,
                visibility=Clock.Visibility.GM,
            )
            LOGINS_FILE.write_text("".join(f"{n} {p}\n" for n, p in logins.items()))
        if LOGINS_FILE.exists():
            self.stdout.write("Demo table logins (username / password):")
            for line in LOGINS_FILE.read_text().splitlines():
                self.stdout.write(f"  {line.replace(' ', ' / ', 1)}")
        if options["group"]:
            self.invite()

    def invite(self) -> None:
        """The demo GM's first table's link, if the GM has not revoked it."""
        table = Table.objects.filter(gm__username="gm").order_by("pk").first()
        if table is not None and table.invite_active:
            link = settings.PUBLIC_URL + reverse("join", args=[table.invite_token])
            self.stdout.write(f"Friends join {table.name} at {link} (they sign up there).")
