"""The one refusal: every layer raises `RuleError`, and one place answers it (422)."""


class RuleError(ValueError):
    """A move the rules (or the roll's progress) do not allow; the message is written for
    the player and shown beside the control they used. Nothing was changed."""
