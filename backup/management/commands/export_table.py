from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from backup.tables import dumps, export_table
from sessions.models import Table


class Command(BaseCommand):
    help = (
        "Write everything of one table to a JSON file (table-<id>.json, or --output; - for stdout)."
    )

    def add_arguments(self, parser):
        parser.add_argument("table_id", type=int)
        parser.add_argument("--output", "-o", default="")

    def handle(self, *args, table_id: int, output: str, **options):
        if not Table.objects.filter(pk=table_id).exists():
            raise CommandError(f"There is no table {table_id}.")
        text = dumps(export_table(table_id))
        if output == "-":
            self.stdout.write(text)
            return
        path = Path(output or f"table-{table_id}.json")
        path.write_text(text, encoding="utf-8")
        self.stderr.write(f"Wrote table {table_id} to {path}")
