"""The roll panel in its reader's language: its own words, the rules' words it shows
(position, effect, outcome, consequence kinds) and the sheet's warnings before a roll.

The roll's log lines are stored text the whole table shares, in the table's language (an
English table here): the rules' words they hold are checked as present, not as absent."""

import re

from django.urls import reverse

from rolls import actions as flow
from tests.helpers import Dice, fresh, start

SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es-ES,es;q=0.9"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}

# The same words in each language, on a called roll before its dice.
BEFORE = {
    "en": [
        "Open rolls", "Finished rolls", "Roll the dice", "Cancel the roll", "Every step",
        "Level 2 harm (Cut): −1d.", "Push for +1d (2 stress)",
    ],
    "es": [
        "Tiradas abiertas", "Tiradas terminadas", "Tirar los dados", "Cancelar la tirada",
        "Cada paso", "Daño de nivel 2 (Cut): −1d.", "Forzarte por +1d (2 de estrés)",
    ],
}  # fmt: skip
# And after a 4: the outcome, its text and the GM's menu of consequences.
AFTER = {
    "en": [
        "You do it, but there is a consequence.", "Harm",
        "Worse position", "Inflict the consequence", "Close the roll",
    ],
    "es": [
        "Lo consigues, pero hay una consecuencia.", "Daño",
        "Peor posición", "Infligir la consecuencia", "Cerrar la tirada",
    ],
}  # fmt: skip


def has(page: str, words: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", page) is not None


def table_page(client, user, table, language) -> str:
    client.force_login(user)
    return client.get(reverse("table_detail", args=[table.pk]), **language).content.decode()


def reads(page: str, own: list[str], other: list[str]) -> None:
    assert [w for w in own if not has(page, w)] == []
    assert [w for w in other if has(page, w)] == []


# Position and effect: the panel says them in its reader's language, the log in the table's.
SHARED_TOO = {"en": ["Risky", "Standard"], "es": ["Arriesgada", "Estándar"]}


def test_a_roll_in_progress_reads_in_its_readers_language(client, table, player, ada, ada_m):
    ada.harm = {"2": ["Cut"]}
    ada.save()
    start(ada_m, fresh(ada))
    page = table_page(client, player, table, SPANISH)
    reads(page, BEFORE["es"] + SHARED_TOO["es"], BEFORE["en"])
    page = table_page(client, player, table, ENGLISH)
    reads(page, BEFORE["en"] + SHARED_TOO["en"], BEFORE["es"] + SHARED_TOO["es"])


def test_a_rolled_roll_reads_in_its_readers_language(client, table, gm, ada, ada_m):
    flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(4, 2))
    reads(table_page(client, gm, table, SPANISH), [*AFTER["es"], "Éxito parcial"], AFTER["en"])
    reads(table_page(client, gm, table, ENGLISH), AFTER["en"], [*AFTER["es"], "Éxito parcial"])
