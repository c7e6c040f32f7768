"""The roll panel in its reader's language: its own words, the rules' words it shows
(position, effect, outcome, consequence kinds), the sheet's warnings before a roll, and
the record of every step with what it changed, stored once and read by each reader in
their own language."""

import re

from django.urls import reverse

from blades.rules.rolls import Effect, Position
from rolls import actions as flow
from rolls import outcome as flow_outcome
from rolls import undo as flow_undo
from rolls.changes import FIELD_LABELS, TRACKED
from sessions.models import Clock
from tests.factories import ClockFactory
from tests.helpers import Dice, fresh, start, with_folds

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


# Every step of a roll, as its record reads: the players' words (the goal, a harm, the
# names) as typed, and a clock the GM hides named to the player as a hidden clock.
STEPS = {
    "es": [
        "Ada tira: Merodear para slip past the guard",
        "El DJ fija posición Desesperada, efecto Estándar",
        "Bo ayuda (+1d, 1 de estrés al tirar)",
        "Se fuerza por +1d",
        "Tira 4d con Desesperada / Estándar: 4, 2, 1, 1: Éxito parcial; Ada recibe 2 de "
        "estrés; Bo recibe 1 de estrés por ayudar; Ada marca px de Destreza",
        "Ada: Estrés 0 → 2", "Bo: Estrés 0 → 1", "Ada: px de Destreza 0 → 1",
        "DJ: Daño de nivel 2 a Ada: Cut", "Ada: Daño cambiado",
        "Ada resiste con Destreza: 3d, 5, 3, 2; recibe 1 de estrés",
        "DJ: Daño reducido",
        "DJ: Complicación: un reloj oculto +1",
        "El DJ cierra la tirada",
        # Where the hidden clock stops is the GM's alone (sessions.audience.veiled).
        "El DJ deshace la tirada: sus cambios se revierten",
    ],
    "en": [
        "Ada rolls: Prowl to slip past the guard",
        "GM sets Desperate position, Standard effect",
        "Bo assists (+1d, 1 stress on the roll)",
        "Pushes for +1d",
        "Rolls 4d at Desperate / Standard: 4, 2, 1, 1: Partial success; Ada takes 2 stress; "
        "Bo takes 1 stress for assisting; Ada marks Prowess xp",
        "Ada: Stress 0 → 2", "Bo: Stress 0 → 1", "Ada: Prowess xp 0 → 1",
        "GM: Harm level 2 to Ada: Cut", "Ada: Harm changed",
        "Ada resists with Prowess: 3d, 5, 3, 2; takes 1 stress",
        "GM: Harm reduced",
        "GM: Complication: Zq-alarm +1", "Zq-alarm: Segments filled 0 → 1",
        "GM closes the roll",
        "GM undoes the roll: its changes are taken back; Zq-alarm stops at 0",
    ],
}  # fmt: skip
# What none of those steps may leave in English for a Spanish reader.
ENGLISH_WORDS = [
    "rolls", "Rolls", "GM", "sets", "position", "effect", "assists", "stress", "Stress",
    "Pushes", "takes", "marks", "xp", "Prowess", "Prowl", "Harm", "level", "changed",
    "resists", "reduced", "Complication", "hidden clock", "Segments filled", "closes",
    "undoes", "taken back", "except", "stops at", "Partial success", "Desperate",
]  # fmt: skip


def test_every_step_of_a_roll_reads_in_its_readers_language(
    client, table, gm, gm_m, player, ada, ada_m, bo_m
):
    clock = ClockFactory(table=table, name="Zq-alarm", visibility="gm")
    roll = flow.start_roll(by=ada_m, character=ada, goal="slip past the guard", action="prowl")
    roll = flow.set_terms(by=gm_m, roll=roll, position=Position.DESPERATE, effect=Effect.STANDARD)
    roll = flow.assist(by=bo_m, roll=roll)
    roll = flow.set_push(by=ada_m, roll=roll, dice_=True, effect=False)
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(4, 2, 1, 1))
    harm = flow_outcome.add_consequence(
        by=gm_m, roll=roll, kind="harm", level=2, description="Cut", attribute="prowess"
    )
    flow_outcome.resist(by=ada_m, consequence=harm, rng=Dice(5, 3, 2))
    flow_outcome.judge_resistance(by=gm_m, consequence=harm, avoided=False)
    flow_outcome.add_consequence(by=gm_m, roll=roll, kind="complication", clock=clock, ticks=1)
    flow_outcome.finish(by=gm_m, roll=roll)
    Clock.objects.filter(pk=clock.pk).update(filled=0)  # emptied by hand: undo says so
    flow_undo.undo_last(by=gm_m, table=table)

    def panel(user, language) -> str:
        client.force_login(user)
        return with_folds(client, reverse("flow_panel", args=[table.pk]), **language)

    spanish = panel(player, SPANISH)
    reads(spanish, STEPS["es"], ENGLISH_WORDS + ["Zq-alarm", "se queda en", "Segmentos llenos"])
    reads(panel(gm, ENGLISH), STEPS["en"], STEPS["es"])
    assert "sus cambios se revierten; Zq-alarm se queda en 0" in panel(gm, SPANISH)


def test_every_field_a_step_changes_has_a_label():
    """A sheet's fields, a crew's heat and wanted level, a clock's segments."""
    assert set(FIELD_LABELS) == {*TRACKED, "heat", "wanted", "filled"}


def test_an_abilitys_reminder_on_the_roll_panel_reads_in_its_readers_language(
    client, table, player, ada, ada_m
):
    """Issue 38: a character's ability reminded while the roll is set up is named and
    told in the reader's language (the content's translation), as on the sheet."""
    from tests.helpers import give_ability

    give_ability(ada, "infiltrator")
    start(ada_m, fresh(ada))
    page = table_page(client, player, table, SPANISH)
    assert has(page, "Infiltrado") and not has(page, "Infiltrator")
    assert has(table_page(client, player, table, ENGLISH), "Infiltrator")


def test_the_special_armor_control_names_its_ability_in_its_readers_language(
    client, table, player, ada, ada_m, gm_m
):
    """Issue 38: the control that spends special armor names the ability that grants it,
    and a Spanish reader reads the content's Spanish name, not the English one the
    database keeps."""
    from tests.helpers import give_ability

    give_ability(ada, "battleborn")
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(1, 1))
    flow_outcome.add_consequence(by=gm_m, roll=roll, kind="harm", level=2, description="Cut")
    page = table_page(client, player, table, SPANISH)
    assert has(page, "Gastar armadura especial (Nacido para la batalla)")
    assert not has(page, "Battleborn")
    assert has(table_page(client, player, table, ENGLISH), "Spend special armor (Battleborn)")
