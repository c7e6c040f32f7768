"""The table page is drawn in its reader's language: a Spanish reader and an English one
at the same table each read every word of it in their own."""

import pytest
from django.urls import reverse

from tests.factories import ClockFactory, RollFactory

SPANISH_WORDS = ["Relojes", "Tiradas", "Registro de tiradas", "Tirar los dados", "Jugadores"]
ENGLISH_WORDS = ["Clocks", "Roll log", "Roll the dice", "New clock", "Players", "At the table now"]
# Drawn for the Spanish reader, the English ones must be gone; and the other way round.
SPANISH_ONLY = [
    "Tiradas de acción", "En la mesa ahora", "Nuevo reloj", "segmentos llenos",
    "Tiradas según caen",  # the name of the region a screen reader hears rolls land in
    # What the page says while its socket is down (static/js/connection.js reads them).
    "Conexión perdida — reconectando…", "De vuelta en la mesa.", "No enviado — no se puede",
    "Desconocido sin conexión",
]  # fmt: skip
ENGLISH_ONLY = [
    "Action rolls",
    "At the table now",
    "New clock",
    "segments filled",
    "Rolls as they land",
    "Connection lost — reconnecting…",
    "Back at the table.",
    "Not sent — the table",
    "Unknown while offline",
]


@pytest.fixture
def table_page(client, table, gm):
    ClockFactory(table=table, name="Bluecoats close in", segments=6, filled=2)
    RollFactory(table=table, roller=gm, kind="fortune", outcome="partial")
    client.force_login(gm)

    def draw(language: str) -> str:
        url = reverse("table_detail", args=[table.pk])
        return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()

    return draw


def test_a_spanish_reader_reads_the_table_page_in_spanish(table_page):
    drawn = table_page("es")
    assert [word for word in SPANISH_WORDS + SPANISH_ONLY if word not in drawn] == []
    assert [word for word in ENGLISH_ONLY if word in drawn] == []
    assert "2 de 6 segmentos llenos" in drawn and "Fortuna" in drawn


def test_an_english_reader_reads_the_same_page_in_english(table_page):
    drawn = table_page("en")
    assert [word for word in ENGLISH_WORDS + ENGLISH_ONLY if word not in drawn] == []
    assert [word for word in SPANISH_ONLY if word in drawn] == []
    assert "2 of 6 segments filled" in drawn and "Fortune" in drawn
