"""The journal (page and Markdown) and the Discord posts are the whole table's: written in
the table's language, whoever reads them or made the change."""

import pytest
from django.urls import reverse
from django.utils import formats, translation

from blades.rules.rolls import RollKind
from chronicle import actions as journal_actions
from chronicle import posts
from chronicle.models import DiscordHook
from play.models import Phase
from sessions import actions
from sessions.models import Clock, Roll, Table
from tests.helpers import Dice

SPANISH = (
    "Diario de",
    "Un reloj nuevo de peligro: Patrulla",
    "El reloj Patrulla se completó (4 segmentos).",
    "hizo una tirada de fortuna",
)
ENGLISH = (
    "Journal of",
    "A new danger clock: Patrulla",
    "The clock Patrulla filled (4 segments).",
    "made a fortune roll",
)


@pytest.fixture
def session(table, player):
    session = journal_actions.start_session(table=table)
    actions.quick_roll(table=table, roller=player, kind=RollKind.FORTUNE, pool=1, rng=Dice(6))
    clock = actions.create_clock(
        table=table, name="Patrulla", segments=4, kind="danger", visibility="everyone"
    )
    actions.tick_clock(clock=clock, by=4)
    return session


def _speaks(table, language: str) -> None:
    Table.objects.filter(pk=table.pk).update(language=language)


@pytest.mark.parametrize(
    ("table_language", "reader", "said", "unsaid"),
    [("es", "en", SPANISH, ENGLISH), ("en", "es", ENGLISH, SPANISH)],
)
def test_the_journal_and_its_export_are_in_the_tables_language_not_the_readers(
    client, table, gm, session, table_language, reader, said, unsaid
):
    _speaks(table, table_language)
    client.force_login(gm)
    for url in (
        reverse("journal", args=[table.pk]),
        reverse("journal_export", args=[table.pk, session.pk]),
        reverse("journal_campaign", args=[table.pk]),
    ):
        text = client.get(url, HTTP_ACCEPT_LANGUAGE=reader).content.decode()
        if url == reverse("journal", args=[table.pk]):
            # The page around the record is the reader's: its heading in theirs.
            heading = {"es": SPANISH, "en": ENGLISH}[reader][0]
            assert heading in text and said[0] not in text, (url, text)
            text = text[text.index('<div class="journal-record"') :]
        assert all(words in text for words in said[1:]), (url, text)
        assert not any(words in text for words in unsaid), (url, text)


def test_the_journals_dates_are_written_as_the_tables_language_writes_them(
    client, table, gm, session
):
    """Spanish writes "26 de noviembre de 2026"; English, "Nov. 26, 2026"."""
    started = session.started
    with translation.override("es"):
        spanish = formats.date_format(started, "DATETIME_FORMAT")
    with translation.override("en"):
        english = formats.date_format(started, "DATETIME_FORMAT")
    assert " de " in spanish and " de " not in english
    journal_actions.end_session(session=session)
    client.force_login(gm)
    for language, written, unwritten in (("es", spanish, english), ("en", english, spanish)):
        _speaks(table, language)
        text = client.get(reverse("journal", args=[table.pk])).content.decode()
        assert written in text and unwritten not in text


def _hooks(table):
    DiscordHook.objects.create(
        table=table,
        players_url="https://discord.com/api/webhooks/1/players",
        gm_url="https://discord.com/api/webhooks/2/gm",
    )
    return posts.webhooks(table.pk)


POSTED_SPANISH = ("Reloj completo: Patrulla", ": Fortuna", "'Dados'", "Éxito total", "Ahora: ")
POSTED_ENGLISH = ("Clock filled: Patrulla", ": Fortune", "'Dice'", "Full success", "Now: ")


@pytest.mark.parametrize(
    ("table_language", "reader", "said", "unsaid"),
    [("es", "en", POSTED_SPANISH, POSTED_ENGLISH), ("en", "es", POSTED_ENGLISH, POSTED_SPANISH)],
)
def test_a_discord_post_is_written_in_the_tables_language(
    table, player, session, table_language, reader, said, unsaid
):
    """The payload as built, never sent: the maker's language is the reader's here."""
    _speaks(table, table_language)
    hooks = _hooks(table)
    clock = Clock.objects.get(name="Patrulla")
    roll = Roll.objects.get(table=table, kind=RollKind.FORTUNE)
    with translation.override(reader):
        built = [
            *posts.clock_posts(table.pk, clock.pk, hooks=hooks),
            *posts.roll_posts(table.pk, roll.pk, hooks=hooks),
            *posts.phase_posts(table.pk, Phase.Step.SCORE, hooks=hooks),
        ]
    text = str([post.payload for post in built])
    assert all(words in text for words in said), text
    assert not any(words in text for words in unsaid), text


def test_the_dice_page_names_each_result_in_the_readers_language(client, table, gm, session):
    client.force_login(gm)
    page = client.get(reverse("dice_statistics", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="es")
    text = page.content.decode()
    assert "Éxito total" in text and "Full success" not in text
