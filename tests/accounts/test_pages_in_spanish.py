"""A reader's own pages outside any table (signing in, their tables, an invite, a
restore) read in their language, the form's words and refusals included."""

from django.urls import reverse

from accounts import throttle
from tests.factories import LoginFailureFactory

SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es"}


def test_the_list_of_tables_reads_in_spanish_with_its_form_and_roles(client, table, gm):
    client.force_login(gm)
    page = client.get(reverse("table_list"), **SPANISH).content.decode()
    assert "Mesas en las que juego" in page
    assert "Nombre de la mesa" in page  # the form's label
    assert '<span class="tag">DJ</span>' in page  # the role's choice


def test_a_locked_sign_in_says_so_in_spanish_in_the_plural_it_needs(db, client):
    for _ in range(throttle.PER_ADDRESS):
        LoginFailureFactory(username="cobbler", ip="10.0.0.1")
    response = client.post(
        reverse("login"),
        {"username": "cobbler", "password": "whatever"},
        REMOTE_ADDR="10.0.0.1",
        **SPANISH,
    )
    page = response.content.decode()
    assert "Demasiados intentos fallidos" in page and "15 minutos" in page


def test_the_restore_page_reads_in_spanish(client, gm):
    client.force_login(gm)
    page = client.get(reverse("table_restore"), **SPANISH).content.decode()
    assert "Restaurar una mesa desde un archivo" in page
    assert "Exportación de la mesa (.json)" in page
