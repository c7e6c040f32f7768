"""A vice roll's note is the vice's name from the content, read in each reader's language
(blades.rules.words.Named); the old lines kept its English name as the players' words."""

from django.db import migrations

from blades.rules import words
from sessions.fields import reword


def vice_named(note):
    if type(note) is str and note:
        return words.Named(note, of="vices")
    return note


class Migration(migrations.Migration):
    dependencies = [("table_sessions", "0012_roll_lines_in_words")]

    operations = [reword("table_sessions.Roll", "note", change=vice_named, kind="vice")]
