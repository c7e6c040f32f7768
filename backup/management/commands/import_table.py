import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from backup.tables import ImportRefused, import_table


class Command(BaseCommand):
    help = "Restore a table from a file written by export_table (members made by username)."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file: str, **options):
        try:
            document = json.loads(Path(file).read_text(encoding="utf-8"))
            table_id = import_table(document)
        except (OSError, ValueError, KeyError, ImportRefused) as error:
            raise CommandError(str(error)) from error
        self.stderr.write(f"Restored table {table_id}")
