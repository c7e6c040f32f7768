"""Two ways out of an entanglement count their coin now ("1 moneda", not "1 monedas"):
their message became a plural, and a line that holds the old one would find no
translation. A claim given up is its name from the content (blades.rules.words.Named),
read in each reader's language; the old lines kept its English name as players' words."""

from django.db import migrations

from blades.rules import words
from sessions.fields import reword

# The message, and the param that counts its coin.
COUNTED = {"Forfeit %(coin)s coin": "coin", "Pay %(price)s rep and %(price)s coin": "price"}
GAVE_UP = "gave up %(claim)s"


def rewrite(line):
    if isinstance(line, words.Joined):
        return words.Joined(rewrite(line.separator), [rewrite(part) for part in line.parts])
    if not isinstance(line, words.Words):
        return line
    params = {name: rewrite(param) for name, param in line.params.items()}
    message = line.message
    if isinstance(message, str) and message in COUNTED:
        message = words.Plural(message, message, params[COUNTED[message]])
    if message == GAVE_UP and type(params.get("claim")) is str:
        params["claim"] = words.Named(params["claim"], of="claims")
    return words.Words(message, **params)


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0009_analysts_free_ticks"),
        ("table_sessions", "0013_vice_roll_names_its_vice"),
    ]

    operations = [
        reword("play.Score", "resolution", change=rewrite),
        reword("play.DowntimeActivity", "trouble", change=rewrite),
    ]
