"""The creation wizard's steps, the GM's custom playbook form, and the Foundry import's
upload and confirmation."""

from dataclasses import dataclass

from django import forms
from django.db.models import Q
from django.utils.text import Truncator
from django.utils.translation import gettext, ngettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from blades import content
from blades.rules import character as rules
from sessions.cards import Card, CheckboxCards, RadioCards

from .foundry import MAX_BYTES, FoundryError, Sheet, parse, read_actor
from .foundry_import import Match, playbooks_for
from .models import WIZARD_STEPS, Character, Draft, Option, Playbook
from .queries import draft_playbook
from .wording import ACTION_NAMES, ability_text, friend_label, language, option_name, playbook_text

ACTION_CHOICES = [(a, ACTION_NAMES[a]) for a in rules.ACTIONS]


class OptionField(forms.ModelChoiceField):
    """A heritage, background or vice, named in the reader's language."""

    def label_from_instance(self, obj) -> str:
        return option_name(obj)


def _option_field(kind: str, label) -> forms.ModelChoiceField:
    return OptionField(
        label=label,
        queryset=Option.objects.filter(kind=kind),
        to_field_name="key",
        widget=forms.RadioSelect,
        empty_label=None,
    )


def _playbook_card(playbook) -> Card:
    """A playbook as the first step draws it: what it is, the special ability the book
    puts first (the one the ability step offers first), and what earns its xp."""
    tagline = playbook_text(playbook, "tagline") or gettext("A custom playbook")
    details = []
    first = next(iter(playbook.abilities.all()), None)
    if first is not None:
        details.append(
            (
                gettext("Special ability:"),
                f"{ability_text(first, 'name')}: {ability_text(first, 'description')}",
            )
        )
    details.append((gettext("XP:"), playbook_text(playbook, "xp_trigger")))
    return Card(playbook_text(playbook, "name"), tagline, tuple(details))


class StepForm(forms.Form):
    """A wizard step; `playbook` is the one chosen so far (None on the first step)."""

    def __init__(self, *args, table=None, playbook: Playbook | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.table = table
        self.playbook = playbook


class PlaybookStep(StepForm):
    playbook = forms.ModelChoiceField(
        label=_("Playbook"), queryset=Playbook.objects.none(), widget=RadioCards
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["playbook"]
        playbooks = Playbook.objects.filter(Q(table=None) | Q(table=self.table))
        field.queryset = playbooks.prefetch_related("abilities")
        field.empty_label = None
        field.label_from_instance = _playbook_card


class HeritageStep(StepForm):
    heritage = _option_field("heritage", _("Heritage"))
    heritage_detail = forms.CharField(
        label=_("Heritage detail"), max_length=200, required=False, help_text=_("Family, origins.")
    )


class BackgroundStep(StepForm):
    background = _option_field("background", _("Background"))
    background_detail = forms.CharField(
        label=_("Background detail"), max_length=200, required=False, help_text=_("What you did.")
    )


@dataclass(frozen=True)
class CreationDot:
    """One choice of an action's dots at creation, drawn as a dot: choosing it gives the
    action `rating` dots by adding `added` to the playbook's."""

    rating: int
    added: int
    checked: bool
    name: str  # its accessible name, "Hunt 2 of 2 dots"


@dataclass(frozen=True)
class CreationAction:
    action: str
    label: str
    given: int  # the playbook's dots, drawn filled and fixed
    dots: list[CreationDot]
    field: forms.BoundField  # for its errors

    @property
    def fixed(self) -> range:
        """The playbook's dots below the one its own choice is drawn on."""
        return range(1, self.given)


class ActionsStep(StepForm):
    """The four dots a new character adds to the playbook's, none above the creation cap."""

    budget = rules.CREATION_DOTS
    cap = rules.CREATION_MAX

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for action, label in ACTION_CHOICES:
            self.fields[action] = forms.IntegerField(
                label=label,
                min_value=0,
                max_value=rules.CREATION_MAX,
                initial=0,
                required=False,  # blank means no dots added
            )

    def _given(self, action: str) -> int:
        return (self.playbook.dots if self.playbook else {}).get(action, 0)

    def _chosen(self, action: str) -> int | None:
        """The dots added to an action as posted (or kept in the draft); None when that
        is not a number the step offers."""
        try:
            added = int(self[action].value() or 0)
        except (TypeError, ValueError):
            return None
        return added if 0 <= added <= self.cap - self._given(action) else None

    def attributes(self) -> list[tuple[str, list[CreationAction]]]:
        """The actions under their attribute, as on the paper sheet, each with its dots."""
        rows = []
        for attribute, names in rules.ATTRIBUTES.items():
            lines = []
            for action in names:
                label, given = self.fields[action].label, self._given(action)
                chosen = self._chosen(action)
                dots = [
                    CreationDot(
                        rating=rating,
                        added=rating - given,
                        checked=rating - given == chosen,
                        name=gettext("%(action)s %(rating)s of %(most)s dots")
                        % {"action": label, "rating": rating, "most": self.cap},
                    )
                    for rating in range(given, self.cap + 1)
                ]
                lines.append(CreationAction(action, label, given, dots, self[action]))
            rows.append((attribute, lines))
        return rows

    def _left(self) -> int:
        chosen = {action: self._chosen(action) or 0 for action in rules.ACTIONS}
        return rules.creation_dots_left(chosen)

    def dots_left(self) -> int:
        return max(0, self._left())

    def dots_over(self) -> int:
        """How many dots too many are chosen (the server refuses them; the page says so
        before the player posts)."""
        return max(0, -self._left())

    def clean(self):
        cleaned = super().clean()
        dots = self.playbook.dots if self.playbook else {}
        for action in rules.ACTIONS:
            if action in self.errors:
                continue
            cleaned[action] = cleaned.get(action) or 0
            if dots.get(action, 0) + cleaned[action] > rules.CREATION_MAX:
                self.add_error(
                    action,
                    gettext("No action can start above %(most)s dots.")
                    % {"most": rules.CREATION_MAX},
                )
        if not self.errors:
            added = {a: cleaned[a] for a in rules.ACTIONS}
            try:
                cleaned["ratings"] = rules.validate_creation_dots(dots, added)
            except rules.RuleError as error:
                raise forms.ValidationError(str(error)) from error
        return cleaned


class AbilityStep(StepForm):
    ability = forms.ModelChoiceField(
        label=_("Special ability"), queryset=None, widget=forms.RadioSelect, empty_label=None
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        abilities = self.playbook.abilities.all()
        self.fields["ability"].queryset = abilities
        self.fields["ability"].label_from_instance = _ability_label
        first = abilities.first()
        if first and not self.is_bound:
            self.initial.setdefault("ability", first.pk)


def _ability_label(ability) -> str:
    return f"{ability_text(ability, 'name')}: {ability_text(ability, 'description')}"


class FriendsStep(StepForm):
    close_friend = forms.ModelChoiceField(
        label=_("Close friend"), queryset=None, widget=forms.RadioSelect, empty_label=None
    )
    rival = forms.ModelChoiceField(
        label=_("Rival"), queryset=None, widget=forms.RadioSelect, empty_label=None
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("close_friend", "rival"):
            self.fields[name].queryset = self.playbook.friends.all()
            self.fields[name].label_from_instance = friend_label

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("close_friend") and cleaned.get("close_friend") == cleaned.get("rival"):
            self.add_error("rival", gettext("Your rival cannot also be your close friend."))
        return cleaned


class ViceStep(StepForm):
    vice = _option_field("vice", _("Vice"))
    vice_purveyor = forms.CharField(
        label=_("Purveyor"), max_length=200, help_text=_("Who or where you indulge.")
    )


class NameStep(StepForm):
    name = forms.CharField(label=_("Name"), max_length=80)
    alias = forms.CharField(label=_("Alias"), max_length=80, required=False)
    look = forms.CharField(label=_("Look"), max_length=200, required=False)


# Each wizard step's title and form, in the order of WIZARD_STEPS.
STEPS: dict[str, tuple[str, type[StepForm]]] = {
    "playbook": (_("Playbook"), PlaybookStep),
    "heritage": (_("Heritage"), HeritageStep),
    "background": (_("Background"), BackgroundStep),
    "actions": (_("Action dots"), ActionsStep),
    "ability": (_("Special ability"), AbilityStep),
    "friends": (_("Friend and rival"), FriendsStep),
    "vice": (_("Vice"), ViceStep),
    "name": (_("Name and look"), NameStep),
}


def step_form(draft: Draft, step: str, table, data=None) -> StepForm:
    """A step's form, built from the draft's playbook (bound to `data` when given)."""
    form_class = STEPS[step][1]
    playbook = None if step == "playbook" else draft_playbook(draft, table)
    if data is None:
        return form_class(initial=draft.data, table=table, playbook=playbook)
    return form_class(data, table=table, playbook=playbook)


def check_draft(draft: Draft, table) -> tuple[dict, str | None, StepForm | None]:
    """Every step's answers checked again (the playbook may have changed since a step
    was answered): the choices, or the first step that refuses them and its form."""
    choices: dict = {}
    for step in WIZARD_STEPS:
        form = step_form(draft, step, table, draft.data)
        if not form.is_valid():
            return {}, step, form
        choices.update(form.cleaned_data)
    return choices, None, None


# --- Custom playbooks -----------------------------------------------------------------

CUSTOM_FRIENDS = 5
CUSTOM_ITEMS = 5
CUSTOM_ABILITIES = 7


def custom_ability_choices() -> list[tuple[str, Card]]:
    """The list a GM picks from, in the GM's language: each ability a card with its text."""
    return [
        (a["key"], Card(a["name"], details=(("", a["text"]),)))
        for a in content.localized("custom_abilities", language())
    ]


# A folded part's line says what is written so far in no more than a line of a phone.
SO_FAR_CHARS = 60


@dataclass
class PlaybookPart:
    """One part of a custom playbook as the page folds it: its heading, its fields, a
    line saying what is filled so far, and whether it is open (the first, or refused)."""

    key: str
    title: str
    fields: list
    so_far: str
    refused: bool
    open: bool = False


class CustomPlaybookForm(forms.Form):
    # What the page asks for, said once here for its help text and its checks.
    primary_dots = rules.CUSTOM_PRIMARY_DOTS
    secondary_dots = rules.CUSTOM_SECONDARY_DOTS
    ability_count = CUSTOM_ABILITIES
    friend_count = CUSTOM_FRIENDS
    item_count = CUSTOM_ITEMS

    name = forms.CharField(label=_("Playbook name"), max_length=60)
    xp_trigger = forms.CharField(
        label=_("XP trigger"), max_length=200, help_text=_("When does this playbook mark xp?")
    )
    primary = forms.ChoiceField(
        label=ngettext_lazy("Primary action (%(n)s dot)", "Primary action (%(n)s dots)", "n")
        % {"n": rules.CUSTOM_PRIMARY_DOTS},
        choices=ACTION_CHOICES,
    )
    secondary = forms.ChoiceField(
        label=ngettext_lazy("Secondary action (%(n)s dot)", "Secondary action (%(n)s dots)", "n")
        % {"n": rules.CUSTOM_SECONDARY_DOTS},
        choices=ACTION_CHOICES,
    )
    abilities = forms.MultipleChoiceField(
        label=_("Special abilities from the list"),
        choices=custom_ability_choices,
        widget=CheckboxCards,
        required=False,
    )
    own_abilities = forms.CharField(
        label=_("Special abilities of your own"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One per line, as “Name: what it does”."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for n in range(1, CUSTOM_FRIENDS + 1):
            self.fields[f"friend_{n}"] = forms.CharField(
                label=gettext("Friend or rival %(n)s") % {"n": n},
                max_length=160,
                help_text=gettext("Name, role"),
            )
        for n in range(1, CUSTOM_ITEMS + 1):
            self.fields[f"item_{n}"] = forms.CharField(
                label=gettext("Item %(n)s") % {"n": n}, max_length=80
            )
            self.fields[f"item_{n}_load"] = forms.IntegerField(
                label=gettext("Item %(n)s load") % {"n": n},
                min_value=0,
                max_value=rules.ITEM_LOAD_MAX,
                initial=1,
            )

    def clean_own_abilities(self) -> list[tuple[str, str]]:
        own = []
        for line in self.cleaned_data["own_abilities"].splitlines():
            if not line.strip():
                continue
            name, sep, text = line.partition(":")
            if not sep or not name.strip() or not text.strip():
                raise forms.ValidationError(
                    gettext("Write “Name: what it does” (not “%(line)s”).") % {"line": line.strip()}
                )
            own.append((name.strip()[:80], text.strip()))
        return own

    def clean(self):
        cleaned = super().clean()
        primary, secondary = cleaned.get("primary"), cleaned.get("secondary")
        if primary and primary == secondary:
            self.add_error(
                "secondary", gettext("The secondary action must differ from the primary.")
            )
        if "abilities" in cleaned and "own_abilities" in cleaned:
            count = len(cleaned["abilities"]) + len(cleaned["own_abilities"])
            if count != CUSTOM_ABILITIES:
                self.add_error(
                    "abilities",
                    gettext("Choose or write exactly %(most)s special abilities (you have %(n)s).")
                    % {"most": CUSTOM_ABILITIES, "n": count},
                )
        return cleaned

    def _typed(self, name: str) -> str:
        """What the reader typed in a field (or its start value), as text."""
        if self.is_bound:
            return str(self.data.get(name, "") or "").strip()
        return str(self.get_initial_for_field(self.fields[name], name) or "").strip()

    def parts(self) -> list[PlaybookPart]:
        """The page's sections in the order a playbook is written, each saying in a
        line what is filled (so a folded section still reads), the first open and any
        section with an error open too."""
        typed = self._typed
        nothing = gettext("Not written yet")
        friends = [f"friend_{n}" for n in range(1, CUSTOM_FRIENDS + 1)]
        items = [f"item_{n}" for n in range(1, CUSTOM_ITEMS + 1)]
        loads = [f"item_{n}_load" for n in range(1, CUSTOM_ITEMS + 1)]
        own = [line for line in typed("own_abilities").splitlines() if line.strip()]
        chosen = len(self.data.getlist("abilities")) if self.is_bound else 0
        actions = dict(ACTION_CHOICES)
        primary, secondary = (actions.get(typed(name), "") for name in ("primary", "secondary"))
        count = gettext("%(n)s of %(most)s")
        parts = [
            ("concept", gettext("Name and concept"), ["name"], typed("name") or nothing),
            (
                "abilities",
                gettext("Special abilities"),
                ["abilities", "own_abilities"],
                count % {"n": chosen + len(own), "most": CUSTOM_ABILITIES},
            ),
            ("xp", gettext("XP trigger"), ["xp_trigger"], typed("xp_trigger") or nothing),
            (
                "items",
                gettext("Items"),
                [name for pair in zip(items, loads, strict=True) for name in pair],
                count % {"n": sum(1 for n in items if typed(n)), "most": CUSTOM_ITEMS},
            ),
            (
                "friends",
                gettext("Friends and rivals"),
                friends,
                count % {"n": sum(1 for n in friends if typed(n)), "most": CUSTOM_FRIENDS},
            ),
            (
                "actions",
                gettext("Starting action dots"),
                ["primary", "secondary"],
                "; ".join(
                    ngettext("%(action)s, %(n)s dot", "%(action)s, %(n)s dots", dots)
                    % {"action": name, "n": dots}
                    for name, dots in (
                        (primary, rules.CUSTOM_PRIMARY_DOTS),
                        (secondary, rules.CUSTOM_SECONDARY_DOTS),
                    )
                    if name
                )
                or gettext("Not chosen yet"),
            ),
        ]
        folded = [
            PlaybookPart(
                key,
                title,
                [self[name] for name in names],
                Truncator(so_far).chars(SO_FAR_CHARS),
                refused=any(self.errors.get(name) for name in names) if self.is_bound else False,
            )
            for key, title, names, so_far in parts
        ]
        anything_refused = any(part.refused for part in folded)
        for index, part in enumerate(folded):
            part.open = part.refused or (index == 0 and not anything_refused)
        return folded

    @property
    def friends(self) -> list[tuple[str, str]]:
        pairs = []
        for n in range(1, CUSTOM_FRIENDS + 1):
            name, _, role = self.cleaned_data[f"friend_{n}"].partition(",")
            pairs.append((name.strip(), role.strip()))
        return pairs

    @property
    def items(self) -> list[tuple[str, int]]:
        return [
            (self.cleaned_data[f"item_{n}"], self.cleaned_data[f"item_{n}_load"])
            for n in range(1, CUSTOM_ITEMS + 1)
        ]


class DetailsForm(forms.ModelForm):
    class Meta:
        model = Character
        fields = [
            "name",
            "alias",
            "look",
            "heritage_detail",
            "background_detail",
            "vice_purveyor",
            "notes",
        ]
        labels = {
            "name": _("Name"),
            "alias": _("Alias"),
            "look": _("Look"),
            "heritage_detail": _("Heritage detail"),
            "background_detail": _("Background detail"),
            "vice_purveyor": _("Vice purveyor"),
            "notes": _("Notes"),
        }


# --- Moving in from Foundry VTT --------------------------------------------------------


def _read(raw: bytes) -> Sheet:
    try:
        return read_actor(parse(raw))
    except FoundryError as error:
        raise forms.ValidationError(error.problems) from None


class UploadForm(forms.Form):
    export = forms.FileField(
        label=_("Foundry actor export (.json)"),
        help_text=_("In Foundry: right-click the actor in the sidebar, Export Data."),
    )

    def clean_export(self):
        upload = self.cleaned_data["export"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                gettext("The file is larger than %(kb)s KB: not an actor export.")
                % {"kb": MAX_BYTES // 1024}
            )
        raw = upload.read()
        self.sheet = _read(raw)
        self.document = raw.decode("utf-8-sig")
        return upload


class ConfirmForm(forms.Form):
    document = forms.CharField(widget=forms.HiddenInput, max_length=MAX_BYTES, strip=False)
    playbook = forms.ModelChoiceField(queryset=Playbook.objects.none(), label=_("Playbook"))
    heritage = OptionField(queryset=Option.objects.filter(kind="heritage"), label=_("Heritage"))
    background = OptionField(
        queryset=Option.objects.filter(kind="background"), label=_("Background")
    )
    vice = OptionField(queryset=Option.objects.filter(kind="vice"), label=_("Vice"))

    def __init__(self, *args, table, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["playbook"].queryset = Playbook.objects.filter(playbooks_for(table))
        self.fields["playbook"].label_from_instance = lambda p: playbook_text(p, "name")

    def clean_document(self) -> str:
        document = self.cleaned_data["document"]
        self.sheet = _read(document.encode())
        return document


def confirm_form(table, document: str, found: Match) -> ConfirmForm:
    """The preview's form: the export itself, and what matched chosen already."""
    initial = {"document": document}
    for choice in ("playbook", "heritage", "background", "vice"):
        if getattr(found, choice) is not None:
            initial[choice] = getattr(found, choice).pk
    return ConfirmForm(table=table, initial=initial)
