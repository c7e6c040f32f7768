from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from backup.restore import MAX_BYTES, ImportRefused, read_document, restore_table


class Command(BaseCommand):
    help = (
        "Restore a file written by export_table as a NEW table, with new ids. The user "
        "named by --gm becomes its GM. Nothing but the table's own rows is read from the "
        "file: no user is created or changed. The file names seats, not users: the other "
        "members are invited again from the new table's invite link, and the GM gives "
        "each their seat on the settings page (--match-members seats by username the "
        "members of older files, which named users). A file that holds anything else is "
        "refused and nothing is written."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the export (table-<id>.json)")
        parser.add_argument(
            "--gm",
            required=True,
            metavar="USERNAME",
            help="an existing user of this server, who becomes the new table's GM",
        )
        parser.add_argument(
            "--match-members",
            action="store_true",
            help="for an older file that named users: seat its other members who have an "
            "account here with the same username (users are never created or changed)",
        )

    def handle(self, *args, file: str, gm: str, match_members: bool, **options):
        user = get_user_model().objects.filter(username=gm).first()
        if user is None:
            raise CommandError(f"There is no user “{gm}” on this server to be the GM.")
        path = Path(file)
        try:
            if path.stat().st_size > MAX_BYTES:
                raise ImportRefused(f"The file is larger than {MAX_BYTES // (1024 * 1024)} MB.")
            document = read_document(path.read_bytes())
            restored = restore_table(document, gm=user, match_members=match_members)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror or error}") from None
        except ImportRefused as error:
            raise CommandError(f"Nothing was restored. {error}") from None
        table = restored.table
        self.stderr.write(f"Restored “{table.name}” as table {table.pk}, GM {user.username}.")
        if restored.seated:
            self.stderr.write(f"Seated by username: {', '.join(restored.seated)}.")
        if restored.invited:
            self.stderr.write(
                f"Invite again from the table's page: {', '.join(restored.invited)} "
                "(the GM gives each their seat on the table's settings page)."
            )
