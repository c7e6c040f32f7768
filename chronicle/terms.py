"""The rules engine's words (an outcome, a position, a kind of roll) in the journal and
the Discord posts. The engine knows no Django, so it names them in English: they are read
in the active language here, where the catalog holds them."""

from django.utils.translation import gettext


def rules_word(label: str) -> str:
    # gettext("") would answer the catalog's header.
    return gettext(label) if label else label
