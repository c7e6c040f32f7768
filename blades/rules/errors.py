"""The one refusal: every layer raises `RuleError`, and one place answers it (422).

Its message is marked words (blades.rules.words), read in the reader's language: the
rules mark refusals with this module's `_`, `ngettext` and `Term`."""

from blades.rules.words import Plural, Term, Words, _, ngettext

__all__ = ["Plural", "RuleError", "Term", "_", "ngettext"]


class RuleError(Exception):
    """A move the rules (or the roll's progress) do not allow; the message is written for
    the player and shown beside the control they used. Nothing was changed.

    Not a ValueError: an `except ValueError` meant for a bad number or a bad file must
    not swallow a refusal, and a refusal must not hang on the order of except clauses.

    `message` is marked (`_("Stress stops at %(limit)s.")`, or `ngettext(...)`) and its
    params are given by name (`limit=9`). `field` names the form field the message
    belongs beside, where one field is at fault (a form draws it there rather than above
    the whole form)."""

    def __init__(self, message: str | Plural = "", *, field: str = "", **params) -> None:
        super().__init__(message)
        self.message = message
        self.params = params
        self.field = field

    def __str__(self) -> str:
        return str(Words(self.message, **self.params))
