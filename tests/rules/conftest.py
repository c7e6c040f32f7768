"""A stand-in catalog for the rules' tests: the rules translate through what the Django
layer installs, and these tests install a small Spanish one instead."""

import pytest

from blades.rules import words

BETWEEN = "%(what)s must be between %(low)s and %(high)s."
SPANISH = {
    "Stress": "Estrés",
    "Harm": "Daño",
    " or ": " o ",
    "%(who)s takes %(n)s stress": "%(who)s recibe %(n)s de estrés",
    BETWEEN: "%(what)s debe estar entre %(low)s y %(high)s.",
}


def spanish_plural(singular: str, plural: str, count: int) -> str:
    return {"%(n)s box.": "%(n)s casilla.", "%(n)s boxes.": "%(n)s casillas."}[
        singular if count == 1 else plural
    ]


def spanish_name(of: str, english: str) -> str:
    return {("vices", "Faith"): "Fe"}.get((of, english), english)


@pytest.fixture
def spanish(monkeypatch):
    # The Django layer installed its own at start-up: put it back afterwards.
    monkeypatch.setattr(words, "_translate", words._translate)
    monkeypatch.setattr(words, "_translate_plural", words._translate_plural)
    monkeypatch.setattr(words, "_name", words._name)
    words.install(lambda text: SPANISH.get(text, text), spanish_plural, spanish_name)
