"""The one refusal: every layer raises `RuleError`, and one place answers it (422)."""


class RuleError(ValueError):
    """A move the rules (or the roll's progress) do not allow; the message is written for
    the player and shown beside the control they used. Nothing was changed.

    `field` names the form field the message belongs beside, where one field is at fault
    (a form draws it there rather than above the whole form)."""

    def __init__(self, message: str = "", *, field: str = "") -> None:
        super().__init__(message)
        self.field = field
