from django import forms
from django.utils.text import capfirst, format_lazy, get_text_list
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from blades.rules import clocks as clock_rules
from blades.rules import crew as rules
from sessions.cards import Card, CheckboxCards, RadioCards

from .models import (
    CUSTOM,
    HOLD_LABELS,
    STATUS_LABELS,
    Cohort,
    crew_type_data,
    shown_content,
)

HOLD_CHOICES = [(hold, capfirst(HOLD_LABELS[hold])) for hold in rules.HOLDS]
STATUS_CHOICES = [
    (status, format_lazy("{} {}", f"{status:+d}" if status else "0", label))
    for status, label in sorted(STATUS_LABELS.items(), reverse=True)
]
ROMAN = ["0", "I", "II", "III", "IV", "V"]


def _names(entries: list[dict]) -> list[tuple[str, str]]:
    return [(entry["key"], entry["name"]) for entry in entries]


def crew_type_cards() -> list[tuple[str, Card]]:
    """Each crew type as a card: what it is, where it hunts, what earns its xp."""
    cards = [
        (
            t["key"],
            Card(
                t["name"],
                t["tagline"],
                (
                    (
                        gettext("%(label)s:") % {"label": t["hunting_grounds"]["label"]},
                        ", ".join(t["hunting_grounds"]["options"]),
                    ),
                    (gettext("Crew xp:"), t["xp_trigger"]),
                ),
            ),
        )
        for t in shown_content("crew_types")
    ]
    return [*cards, (CUSTOM, Card(gettext("Custom"), gettext("A crew type of your own")))]


class CrewCreateForm(forms.Form):
    crew_type = forms.ChoiceField(label=_("Crew type"), choices=crew_type_cards, widget=RadioCards)
    custom_type = forms.CharField(
        label=_("Custom crew type"),
        max_length=60,
        required=False,
        help_text=_("Only for a custom crew"),
    )
    name = forms.CharField(label=_("Crew name"), max_length=80)

    def clean(self):
        data = super().clean()
        if data.get("crew_type") == "custom" and not data.get("custom_type"):
            self.add_error("custom_type", gettext("Name the custom crew type."))
        return data


class CrewChoicesForm(forms.Form):
    """What the crew sheet asks of a new crew of a type from the book: its special ability,
    its starting upgrade where the type leaves a choice, the upgrade boxes of crew
    creation and its favorite contact. Each is optional: the book's first ability is
    "placed there as a good first option", and boxes left free are marked on the sheet."""

    def __init__(self, *args, crew_type: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        data = crew_type_data(crew_type, shown=True)
        self.crew_type = data
        if data is None:
            return
        abilities = data["abilities"]
        self.fields["ability"] = forms.ChoiceField(
            label=_("Special ability"),
            choices=[
                (a["key"], Card(a["name"], details=(("", a["description"]),))) for a in abilities
            ],  # fmt: skip
            initial=abilities[0]["key"],
            required=False,
            widget=RadioCards,
            # A choice left over from the type picked before: the form was sent
            # before the new type's abilities were drawn.
            error_messages={
                "invalid_choice": gettext("Choose one of the {crew_type} abilities.").format(
                    crew_type=data["name"]
                )
            },
        )
        upgrades = shown_content("crew_upgrades")
        names = {u["key"]: u for u in upgrades}
        self.starting = get_text_list(
            [
                get_text_list([names[key]["name"] for key in start["options"]], gettext("or"))
                for start in data["starting_upgrades"]
            ],
            gettext("and"),
        )
        for i, start in enumerate(data["starting_upgrades"]):
            if len(start["options"]) > 1:
                self.fields[f"start_{i}"] = forms.ChoiceField(
                    label=_("Starting upgrade"),
                    choices=[(key, _upgrade_card(names[key])) for key in start["options"]],
                    initial=start["options"][0],
                    required=False,
                    widget=RadioCards,
                )
        boxes = rules.CREATION_UPGRADE_BOXES
        self.fields["upgrades"] = forms.MultipleChoiceField(
            label=ngettext("Mark %(boxes)d upgrade box", "Mark %(boxes)d upgrade boxes", boxes)
            % {"boxes": boxes},
            choices=[
                (u["key"], _upgrade_card(u))
                for u in upgrades
                if u["crew_type"] in (None, crew_type)
            ],
            required=False,
            widget=CheckboxCards,
        )
        self.fields["contact"] = forms.ChoiceField(
            label=_("Favorite contact"),
            choices=[
                ("", Card(gettext("Later"))),
                *((c["name"], Card(f"{c['name']}, {c['role']}")) for c in data["contacts"]),
            ],
            required=False,
            widget=RadioCards,
        )

    def clean_upgrades(self) -> list[str]:
        upgrades = self.cleaned_data["upgrades"]
        if len(upgrades) > rules.CREATION_UPGRADE_BOXES:
            boxes = rules.CREATION_UPGRADE_BOXES
            raise forms.ValidationError(
                ngettext("Mark at most %(boxes)d.", "Mark at most %(boxes)d.", boxes)
                % {"boxes": boxes}
            )
        return upgrades

    def choices(self) -> dict:
        """The chosen ability, starting upgrades, marked boxes and contact, for
        crews.actions.create_crew; empty for a custom crew."""
        if self.crew_type is None:
            return {}
        data = self.cleaned_data
        starting = [
            data.get(f"start_{i}") or start["options"][0]
            for i, start in enumerate(self.crew_type["starting_upgrades"])
        ]
        return {
            "ability": data["ability"] or self.crew_type["abilities"][0]["key"],
            "starting": starting,
            "upgrades": data["upgrades"],
            "contact": data["contact"],
        }


def _upgrade_card(upgrade: dict) -> Card:
    effect = upgrade.get("effect")
    return Card(upgrade["name"], details=(("", effect),) if effect else ())


class SheetForm(forms.Form):
    name = forms.CharField(label=_("Crew name"), max_length=80)
    reputation = forms.CharField(
        label=_("Reputation"),
        max_length=80,
        required=False,
        help_text=_("e.g. ambitious, brutal"),
    )
    lair = forms.CharField(label=_("Lair"), max_length=200, required=False)
    hunting_grounds = forms.CharField(label=_("Hunting grounds"), max_length=200, required=False)
    notes = forms.CharField(
        label=_("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )


class SettingsForm(forms.Form):
    players_edit_sheet = forms.BooleanField(
        label=_("Players may edit the crew sheet (identity, abilities, upgrades, cohorts)"),
        required=False,
    )
    players_keep_books = forms.BooleanField(
        label=_("Players may keep the books (tier, rep, claims, heat, coin, xp)"),
        required=False,
    )
    xp_track = forms.IntegerField(
        label=_("Crew xp track length"),
        min_value=rules.CREW_XP_TRACK_MIN,
        max_value=rules.CREW_XP_TRACK_MAX,
    )


class BooksForm(forms.Form):
    """The GM's direct correction of tier, hold and wanted level."""

    tier = forms.TypedChoiceField(
        label=_("Tier"), coerce=int, choices=[(t, ROMAN[t]) for t in range(rules.TIER_MAX + 1)]
    )
    hold = forms.ChoiceField(label=_("Hold"), choices=HOLD_CHOICES)
    wanted = forms.IntegerField(label=_("Wanted level"), min_value=0, max_value=rules.WANTED_MAX)


class ClaimForm(forms.Form):
    name = forms.CharField(label=_("Claim name"), max_length=80)
    effect = forms.CharField(label=_("Effect"), max_length=200, required=False)
    turf = forms.BooleanField(label=_("Counts as turf"), required=False)


class CohortForm(forms.Form):
    name = forms.CharField(label=_("Cohort name"), max_length=80, required=False)
    kind = forms.ChoiceField(label=_("Kind"), choices=Cohort.Kind.choices)
    types = forms.MultipleChoiceField(
        label=_("Gang types (one, or two for 4 boxes)"),
        required=False,
        choices=lambda: _names(shown_content("cohort_types")["gang_types"]),
        widget=forms.CheckboxSelectMultiple,
    )
    specialty = forms.CharField(
        label=_("Expert specialty"),
        max_length=40,
        required=False,
        help_text=_("e.g. Doctor, Spy"),
    )
    edges = forms.MultipleChoiceField(
        label=_("Edges"),
        choices=lambda: _names(shown_content("cohort_types")["edges"]),
        widget=forms.CheckboxSelectMultiple,
    )
    flaws = forms.MultipleChoiceField(
        label=_("Flaws"),
        choices=lambda: _names(shown_content("cohort_types")["flaws"]),
        widget=forms.CheckboxSelectMultiple,
    )
    gained_in_play = forms.BooleanField(
        label=_("Gained in play (no upgrade boxes)"), required=False
    )

    def __init__(self, *args, grants: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        if not grants:  # crews.access.can_grant_cohort
            del self.fields["gained_in_play"]

    def clean(self):
        data = super().clean()
        if data.get("kind") == Cohort.Kind.GANG:
            if not 1 <= len(data.get("types") or []) <= rules.COHORT_MAX_TYPES:
                self.add_error("types", gettext("Choose one or two gang types."))
            data["type_list"] = data.get("types") or []
        else:
            if not data.get("specialty"):
                self.add_error("specialty", gettext("Name the expert's specialty."))
            data["type_list"] = [data.get("specialty") or ""]
        edges, flaws = data.get("edges") or [], data.get("flaws") or []
        if "edges" not in self.errors and not 1 <= len(edges) <= 2:
            self.add_error("edges", gettext("Choose one or two edges."))
        elif "flaws" not in self.errors and len(flaws) != len(edges):
            message = gettext("Choose as many flaws as edges ({count}).")
            self.add_error("flaws", message.format(count=len(edges)))
        return data


class FactionForm(forms.Form):
    name = forms.CharField(label=_("Faction name"), max_length=80)
    tier = forms.TypedChoiceField(
        label=_("Tier"),
        coerce=int,
        choices=[(t, ROMAN[t]) for t in range(rules.FACTION_TIER_MAX + 1)],
    )
    hold = forms.ChoiceField(label=_("Hold"), choices=HOLD_CHOICES)
    status = forms.TypedChoiceField(
        label=_("Status with the crew"), coerce=int, choices=STATUS_CHOICES, initial=0
    )
    notes = forms.CharField(
        label=_("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    hidden = forms.BooleanField(label=_("Hide this faction from players"), required=False)
    notes_hidden = forms.BooleanField(label=_("Hide the notes from players"), required=False)


class GoalClockForm(forms.Form):
    name = forms.CharField(label=_("Goal"), max_length=80)
    segments = forms.IntegerField(
        label=_("Segments"),
        min_value=clock_rules.CLOCK_MIN,
        max_value=clock_rules.CLOCK_MAX,
        initial=8,
    )
