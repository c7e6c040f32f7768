from django import forms

from blades import content
from blades.rules import clocks as clock_rules
from blades.rules import crew as rules

from .models import Cohort, crew_type_choices, crew_type_data

HOLD_CHOICES = [(hold, hold.capitalize()) for hold in rules.HOLDS]
STATUS_CHOICES = [
    (status, f"{status:+d} {label}" if status else f"0 {label}")
    for status, label in sorted(rules.STATUS_LABELS.items(), reverse=True)
]
ROMAN = ["0", "I", "II", "III", "IV", "V"]


def _names(entries: list[dict]) -> list[tuple[str, str]]:
    return [(entry["key"], entry["name"]) for entry in entries]


class CrewCreateForm(forms.Form):
    crew_type = forms.ChoiceField(label="Crew type", choices=crew_type_choices)
    custom_type = forms.CharField(
        label="Custom crew type", max_length=60, required=False, help_text="Only for a custom crew"
    )
    name = forms.CharField(label="Crew name", max_length=80)

    def clean(self):
        data = super().clean()
        if data.get("crew_type") == "custom" and not data.get("custom_type"):
            self.add_error("custom_type", "Name the custom crew type.")
        return data


class CrewChoicesForm(forms.Form):
    """What the crew sheet asks of a new crew of a type from the book: its special ability,
    its starting upgrade where the type leaves a choice, the upgrade boxes of crew
    creation and its favorite contact. Each is optional: the book's first ability is
    "placed there as a good first option", and boxes left free are marked on the sheet."""

    def __init__(self, *args, crew_type: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        data = crew_type_data(crew_type)
        self.crew_type = data
        if data is None:
            return
        abilities = data["abilities"]
        self.fields["ability"] = forms.ChoiceField(
            label="Special ability",
            choices=[(a["key"], f"{a['name']}: {a['description']}") for a in abilities],
            initial=abilities[0]["key"],
            required=False,
            widget=forms.RadioSelect,
            # A choice left over from the type picked before: the form was sent
            # before the new type's abilities were drawn.
            error_messages={"invalid_choice": f"Choose one of the {data['name']} abilities."},
        )
        names = {u["key"]: u for u in content.crew_upgrades()}
        self.starting = [
            " or ".join(names[key]["name"] for key in start["options"])
            for start in data["starting_upgrades"]
        ]
        for i, start in enumerate(data["starting_upgrades"]):
            if len(start["options"]) > 1:
                self.fields[f"start_{i}"] = forms.ChoiceField(
                    label="Starting upgrade",
                    choices=[(key, names[key]["name"]) for key in start["options"]],
                    initial=start["options"][0],
                    required=False,
                    widget=forms.RadioSelect,
                )
        self.fields["upgrades"] = forms.MultipleChoiceField(
            label=f"Mark {rules.CREATION_UPGRADE_BOXES} upgrade boxes",
            choices=[
                (u["key"], f"{u['name']}: {u['effect']}" if u.get("effect") else u["name"])
                for u in content.crew_upgrades()
                if u["crew_type"] in (None, crew_type)
            ],
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        self.fields["contact"] = forms.ChoiceField(
            label="Favorite contact",
            choices=[
                ("", "Later"),
                *((c["name"], f"{c['name']}, {c['role']}") for c in data["contacts"]),
            ],
            required=False,
            widget=forms.RadioSelect,
        )

    def clean_upgrades(self) -> list[str]:
        upgrades = self.cleaned_data["upgrades"]
        if len(upgrades) > rules.CREATION_UPGRADE_BOXES:
            raise forms.ValidationError(f"Mark at most {rules.CREATION_UPGRADE_BOXES}.")
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


class SheetForm(forms.Form):
    name = forms.CharField(label="Crew name", max_length=80)
    reputation = forms.CharField(
        label="Reputation", max_length=80, required=False, help_text="e.g. ambitious, brutal"
    )
    lair = forms.CharField(label="Lair", max_length=200, required=False)
    hunting_grounds = forms.CharField(label="Hunting grounds", max_length=200, required=False)
    notes = forms.CharField(label="Notes", required=False, widget=forms.Textarea(attrs={"rows": 3}))


class SettingsForm(forms.Form):
    players_edit_sheet = forms.BooleanField(
        label="Players may edit the crew sheet (identity, abilities, upgrades, cohorts)",
        required=False,
    )
    players_keep_books = forms.BooleanField(
        label="Players may keep the books (tier, rep, claims, heat, coin, xp)", required=False
    )
    xp_track = forms.IntegerField(
        label="Crew xp track length",
        min_value=rules.CREW_XP_TRACK_MIN,
        max_value=rules.CREW_XP_TRACK_MAX,
    )


class BooksForm(forms.Form):
    """The GM's direct correction of tier, hold and wanted level."""

    tier = forms.TypedChoiceField(
        label="Tier", coerce=int, choices=[(t, ROMAN[t]) for t in range(rules.TIER_MAX + 1)]
    )
    hold = forms.ChoiceField(label="Hold", choices=HOLD_CHOICES)
    wanted = forms.IntegerField(label="Wanted level", min_value=0, max_value=rules.WANTED_MAX)


class ClaimForm(forms.Form):
    name = forms.CharField(label="Claim name", max_length=80)
    effect = forms.CharField(label="Effect", max_length=200, required=False)
    turf = forms.BooleanField(label="Counts as turf", required=False)


class CohortForm(forms.Form):
    name = forms.CharField(label="Cohort name", max_length=80, required=False)
    kind = forms.ChoiceField(label="Kind", choices=Cohort.Kind.choices)
    types = forms.MultipleChoiceField(
        label="Gang types (one, or two for 4 boxes)",
        required=False,
        choices=lambda: _names(content.cohort_types()["gang_types"]),
        widget=forms.CheckboxSelectMultiple,
    )
    specialty = forms.CharField(
        label="Expert specialty", max_length=40, required=False, help_text="e.g. Doctor, Spy"
    )
    edges = forms.MultipleChoiceField(
        label="Edges",
        choices=lambda: _names(content.cohort_types()["edges"]),
        widget=forms.CheckboxSelectMultiple,
    )
    flaws = forms.MultipleChoiceField(
        label="Flaws",
        choices=lambda: _names(content.cohort_types()["flaws"]),
        widget=forms.CheckboxSelectMultiple,
    )
    gained_in_play = forms.BooleanField(label="Gained in play (no upgrade boxes)", required=False)

    def __init__(self, *args, grants: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        if not grants:  # crews.access.can_grant_cohort
            del self.fields["gained_in_play"]

    def clean(self):
        data = super().clean()
        if data.get("kind") == Cohort.Kind.GANG:
            if not 1 <= len(data.get("types") or []) <= rules.COHORT_MAX_TYPES:
                self.add_error("types", "Choose one or two gang types.")
            data["type_list"] = data.get("types") or []
        else:
            if not data.get("specialty"):
                self.add_error("specialty", "Name the expert's specialty.")
            data["type_list"] = [data.get("specialty") or ""]
        edges, flaws = data.get("edges") or [], data.get("flaws") or []
        if "edges" not in self.errors and not 1 <= len(edges) <= 2:
            self.add_error("edges", "Choose one or two edges.")
        elif "flaws" not in self.errors and len(flaws) != len(edges):
            self.add_error("flaws", f"Choose as many flaws as edges ({len(edges)}).")
        return data


class FactionForm(forms.Form):
    name = forms.CharField(label="Faction name", max_length=80)
    tier = forms.TypedChoiceField(
        label="Tier",
        coerce=int,
        choices=[(t, ROMAN[t]) for t in range(rules.FACTION_TIER_MAX + 1)],
    )
    hold = forms.ChoiceField(label="Hold", choices=HOLD_CHOICES)
    status = forms.TypedChoiceField(
        label="Status with the crew", coerce=int, choices=STATUS_CHOICES, initial=0
    )
    notes = forms.CharField(label="Notes", required=False, widget=forms.Textarea(attrs={"rows": 3}))
    hidden = forms.BooleanField(label="Hide this faction from players", required=False)
    notes_hidden = forms.BooleanField(label="Hide the notes from players", required=False)


class GoalClockForm(forms.Form):
    name = forms.CharField(label="Goal", max_length=80)
    segments = forms.IntegerField(
        label="Segments",
        min_value=clock_rules.CLOCK_MIN,
        max_value=clock_rules.CLOCK_MAX,
        initial=8,
    )
