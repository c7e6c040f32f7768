"""Choices drawn as cards (issue 40): a playbook, a crew type, an ability, an upgrade is
a thing of the game the player taps, not a line in a list of radios.

Each card stays a real radio or checkbox inside its label (templates/choice_cards.html),
so the keyboard, a screen reader and a plain form post take it as they take any choice.
Its accessible name is the card's title and gist; its details (a special ability, an xp
trigger) are read as its description, so a screen reader names the choice first.
"""

from dataclasses import dataclass, field

from django import forms


@dataclass(frozen=True)
class Card:
    """A choice's label, drawn as a card: `details` are (heading, text) lines under it."""

    title: str
    gist: str = ""
    details: tuple[tuple[str, str], ...] = field(default=())

    def __str__(self) -> str:
        # Where a card is read as plain text (an error, a fallback widget).
        return f"{self.title} — {self.gist}" if self.gist else self.title


class _Cards:
    """Points each choice's input at its card's title, gist and details, by the ids
    choice_cards.html gives them (the input's own id and a suffix)."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(  # type: ignore[misc]
            name, value, label, selected, index, subindex=subindex, attrs=attrs
        )
        own = option["attrs"].get("id")
        if own and isinstance(label, Card):
            named = [f"{own}-title", *([f"{own}-gist"] if label.gist else [])]
            option["attrs"]["aria-labelledby"] = " ".join(named)
            if label.details:
                option["attrs"]["aria-describedby"] = f"{own}-details"
        return option


class RadioCards(_Cards, forms.RadioSelect):
    """One card of several: a radio."""


class CheckboxCards(_Cards, forms.CheckboxSelectMultiple):
    """Any number of cards: checkboxes."""
