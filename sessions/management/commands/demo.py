"""Create the demo table on the first run; on later runs only show its logins again."""

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from sessions import actions
from sessions.models import Clock

LOGINS_FILE = Path(settings.BASE_DIR) / ".demo-logins"
USERNAMES = ("gm", "player1", "player2")


class Command(BaseCommand):
    help = "Create a demo table with a GM, two players and a couple of clocks (first run only)."

    def handle(self, *args, **options) -> None:
        User = get_user_model()
        if not User.objects.filter(username="gm").exists():
            logins = {name: secrets.token_urlsafe(9) for name in USERNAMES}
            users = {
                name: User.objects.create_user(username=name, password=password)
                for name, password in logins.items()
            }
            table = actions.create_table(gm=users["gm"], name="The Crows' Nest")
            for name in ("player1", "player2"):
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
