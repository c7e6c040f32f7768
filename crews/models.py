"""The crew's sheet and the table's factions.

Models hold the books; every number on them is computed by `blades.rules.crew`, and every
change goes through `crews.actions`.
"""

import secrets
from functools import cache, cached_property

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext, gettext_noop, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from blades import content
from blades.rules import abilities as ability_rules
from blades.rules import character as character_rules
from blades.rules import crew as rules
from blades.rules.words import Joined, Named
from sessions import shapes
from sessions.models import Clock, Table

WORDS = shapes.ListOf(shapes.Text())  # keys or names, in order

CUSTOM = "custom"

# The words of the books the rules name in English (their keys stay the rules').
HOLD_LABELS = {"weak": pgettext_lazy("hold", "weak"), "strong": pgettext_lazy("hold", "strong")}
STATUS_LABELS = {
    3: pgettext_lazy("faction status", "Allies"),
    2: pgettext_lazy("faction status", "Friendly"),
    1: pgettext_lazy("faction status", "Helpful"),
    0: pgettext_lazy("faction status", "Neutral"),
    -1: pgettext_lazy("faction status", "Interfering"),
    -2: pgettext_lazy("faction status", "Hostile"),
    -3: pgettext_lazy("faction status", "War"),
}
COHORT_HARM_LABELS = {
    0: pgettext_lazy("cohort harm", "Unharmed"),
    1: pgettext_lazy("cohort harm", "Weakened"),
    2: pgettext_lazy("cohort harm", "Impaired"),
    3: pgettext_lazy("cohort harm", "Broken"),
    4: pgettext_lazy("cohort harm", "Dead"),
}


def reader_language() -> str:
    return translation.get_language() or settings.LANGUAGE_CODE


def shown_content(name: str):
    """Content `name` as the reader reads it: its text in the active language (the
    English data stay what is matched and stored)."""
    return content.localized(name, reader_language())


def crew_type_data(key: str, *, shown: bool = False) -> dict | None:
    """The crew type's data; `shown`: with its text in the reader's language."""
    types = shown_content("crew_types") if shown else content.crew_types()
    return next((t for t in types if t["key"] == key), None)


class Crew(models.Model):
    """One crew per table. Tier and hold are the peacetime values: war lowers what is
    shown (`effective_hold`) without touching what is stored, so peace restores it."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="crew")
    crew_type = models.CharField(max_length=20)
    custom_type = models.CharField(_("Custom crew type"), max_length=60, blank=True)

    # The sheet: what the players write.
    name = models.CharField(max_length=80)
    reputation = models.CharField(max_length=80, blank=True)
    lair = models.CharField(max_length=200, blank=True)
    hunting_grounds = models.CharField(max_length=200, blank=True)
    contact = models.CharField(_("Favorite contact"), max_length=80, blank=True)
    notes = models.TextField(blank=True)

    # The books: what the game changes.
    tier = models.PositiveSmallIntegerField(default=0)
    hold = models.CharField(max_length=6, default="strong")
    rep = models.PositiveSmallIntegerField(default=0)
    heat = models.PositiveSmallIntegerField(default=0)
    wanted = models.PositiveSmallIntegerField(default=0)
    coin = models.PositiveSmallIntegerField(default=0)
    xp = models.PositiveSmallIntegerField(default=0)
    xp_track = models.PositiveSmallIntegerField(_("Crew xp track length"), default=8)
    advances = models.PositiveSmallIntegerField(default=0)
    boxes_free = models.PositiveSmallIntegerField(default=2)
    # Ability keys, in the order taken; upgrade key -> boxes marked.
    abilities = shapes.ShapedJSONField(default=list, shape=WORDS, label=gettext_noop("abilities"))
    upgrades = shapes.ShapedJSONField(
        default=dict,
        shape=shapes.MapOf(shapes.Text(), shapes.Whole(0)),
        label=gettext_noop("upgrades"),
    )

    # Bumped by every change to the books; see crews.actions._change_books.
    version = models.PositiveIntegerField(default=0)

    players_edit_sheet = models.BooleanField(_("Players may edit the crew sheet"), default=True)
    players_keep_books = models.BooleanField(_("Players may keep the books"), default=False)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(tier__lte=rules.TIER_MAX), name="crew_tier_max"),
            models.CheckConstraint(condition=Q(heat__lt=rules.HEAT_MAX), name="crew_heat_max"),
            models.CheckConstraint(
                condition=Q(wanted__lte=rules.WANTED_MAX), name="crew_wanted_max"
            ),
            models.CheckConstraint(condition=Q(rep__lte=rules.REP_MAX), name="crew_rep_max"),
            models.CheckConstraint(condition=Q(hold__in=rules.HOLDS), name="crew_hold"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def type_data(self) -> dict | None:
        return crew_type_data(self.crew_type)

    @property
    def type_text(self) -> dict | None:
        """The crew type's data in the reader's language."""
        return crew_type_data(self.crew_type, shown=True)

    @property
    def type_name(self) -> str:
        data = self.type_text
        return data["name"] if data else (self.custom_type or gettext("Custom crew"))

    @property
    def hunting_grounds_label(self) -> str:
        data = self.type_text
        return data["hunting_grounds"]["label"] if data else gettext("Hunting grounds")

    @property
    def hold_label(self) -> str:
        return HOLD_LABELS[self.hold]

    @property
    def shown_hold_label(self) -> str:
        return HOLD_LABELS[self.shown_hold]

    # --- Derived books (all arithmetic from the rules) ---

    @cached_property
    def at_war(self) -> bool:
        """At war with a faction the crew knows of: a hidden faction's war has no effects
        yet, or its effects would tell the players it exists."""
        return self.table.factions.filter(status=rules.STATUS_MIN, hidden=False).exists()

    @property
    def war(self) -> rules.WarEffects:
        return rules.war_effects(self.at_war)

    @property
    def shown_hold(self) -> str:
        return self._hold_and_tier[0]

    @property
    def shown_tier(self) -> int:
        return self._hold_and_tier[1]

    @property
    def _hold_and_tier(self) -> tuple[str, int]:
        war = ability_rules.war_costs_hold(self.at_war, self.abilities)
        return rules.effective_hold(self.hold, self.tier, war)

    @cached_property
    def turf(self) -> int:
        """Turf marked on the rep track: the turf claims held, and what Fiends and Accord
        count as turf."""
        # Iterates the claims so a prefetched sheet asks the database nothing more.
        held = sum(1 for c in self.claims.all() if c.held and c.turf)
        allies = (
            self.table.factions.filter(status=rules.STATUS_MAX, hidden=False).count()
            if "accord" in self.abilities
            else 0
        )
        return rules.turf_count(
            ability_rules.turf(
                held, wanted=self.wanted, allies=allies, crew_abilities=self.abilities
            )
        )

    @property
    def rep_track(self) -> int:
        return rules.rep_track(self.turf)

    @property
    def heat_track(self) -> int:
        return rules.HEAT_MAX

    @property
    def wanted_track(self) -> int:
        return rules.WANTED_MAX

    @property
    def rep_full(self) -> bool:
        return self.rep >= self.rep_track

    @property
    def coin_limit(self) -> int:
        return rules.vault_coin_limit(self.upgrades)

    @property
    def coin_excess(self) -> int:
        return rules.coin_excess(self.coin, self.coin_limit)

    @property
    def has_mastery(self) -> bool:
        """Read by character sheets: action ratings may reach 4 with Mastery."""
        return rules.has_mastery(self.upgrades)

    @property
    def action_cap(self) -> int:
        """The highest action rating a character of this crew may have."""
        return character_rules.action_cap(self.has_mastery)

    def training_for(self, track: str) -> int:
        """Xp one Train activity marks on `track` ("insight", "prowess", "resolve" or
        "playbook"): 2 with the crew's matching training upgrade, else 1."""
        return rules.training_xp(track, self.upgrades)

    @property
    def tier_up_cost(self) -> int | None:
        if self.tier >= rules.TIER_MAX:
            return None
        # Iterates the claims, like `turf`, so a prefetched sheet asks nothing more.
        hardcase = any(c.held and c.name.lower() == "hardcase" for c in self.claims.all())
        return rules.tier_up_cost(self.tier, hardcase, ability_rules.patron(self.abilities))

    @property
    def stash_per_advance(self) -> int:
        return rules.advance_stash_gain(self.tier)


class Claim(models.Model):
    """A square of the crew's claim map (or, for a custom crew, one the GM adds)."""

    crew = models.ForeignKey(Crew, on_delete=models.CASCADE, related_name="claims")
    name = models.CharField(max_length=80)
    effect = models.CharField(max_length=200, blank=True)
    turf = models.BooleanField(default=False)
    lair = models.BooleanField(default=False)
    row = models.PositiveSmallIntegerField(null=True, blank=True)
    col = models.PositiveSmallIntegerField(null=True, blank=True)
    held = models.BooleanField(default=False)

    class Meta:
        ordering = ["row", "col", "pk"]

    def __str__(self) -> str:
        return self.name

    def _text(self) -> dict:
        """This claim's words in the reader's language, where the content has them: the
        stored English name finds them on the crew type's map or among the prison
        claims; a claim the GM named is in the GM's words."""
        return claim_texts(self.crew.crew_type, reader_language()).get(self.name, {})

    @property
    def shown_name(self) -> str:
        return self._text().get("name", self.name)

    @property
    def shown_effect(self) -> str:
        text = self._text()
        # An effect the table rewrote stays as written.
        return text["effect"] if text.get("english_effect") == self.effect else self.effect


@cache
def claim_texts(crew_type: str, language: str) -> dict[str, dict]:
    """English claim name → its name and effect in `language` (with the English effect,
    to tell a rewritten one), for the crew type's map and the prison claims."""
    pairs = list(
        zip(
            content.prison_claims()["claims"],
            content.localized("prison_claims", language)["claims"],
            strict=True,
        )
    )
    english = crew_type_data(crew_type)
    if english is not None:
        types = content.localized("crew_types", language)
        shown = next(t for t in types if t["key"] == crew_type)
        for row, shown_row in zip(english["claims"], shown["claims"], strict=True):
            pairs += zip(row, shown_row, strict=True)
    return {
        claim["name"]: {**text, "english_effect": claim.get("effect", "")} for claim, text in pairs
    }


class Cohort(models.Model):
    class Kind(models.TextChoices):
        GANG = "gang", _("Gang")
        EXPERT = "expert", _("Expert")

    crew = models.ForeignKey(Crew, on_delete=models.CASCADE, related_name="cohorts")
    name = models.CharField(max_length=80, blank=True)
    kind = models.CharField(max_length=6, choices=Kind.choices)
    # Gang type keys, or an expert's specialty.
    types = shapes.ShapedJSONField(default=list, shape=WORDS, label=gettext_noop("types"))
    edges = shapes.ShapedJSONField(default=list, shape=WORDS, label=gettext_noop("edges"))
    flaws = shapes.ShapedJSONField(default=list, shape=WORDS, label=gettext_noop("flaws"))
    harm = models.PositiveSmallIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [models.CheckConstraint(condition=Q(harm__lte=4), name="cohort_harm_max")]

    def __str__(self) -> str:
        return self.name or self.type_label

    @property
    def named(self) -> str | Joined:
        """The cohort as a stored line names it: the players' name for it, else its gang
        types, each read in its reader's language (an expert's specialty is the players'
        words)."""
        if self.name:
            return self.name
        english = {entry["key"]: entry["name"] for entry in content.cohort_types()["gang_types"]}
        return Joined(
            " & ",
            [Named(english[key], of="gang_types") if key in english else key for key in self.types],
        )

    @property
    def type_label(self) -> str:
        return " & ".join(self._shown_names("gang_types", self.types))

    def _shown_names(self, kind: str, keys: list[str]) -> list[str]:
        names = {entry["key"]: entry["name"] for entry in shown_content("cohort_types")[kind]}
        return [names.get(key, key) for key in keys]

    @property
    def edge_names(self) -> list[str]:
        return self._shown_names("edges", self.edges)

    @property
    def flaw_names(self) -> list[str]:
        return self._shown_names("flaws", self.flaws)

    @property
    def harm_label(self) -> str:
        return COHORT_HARM_LABELS[self.harm]

    def quality(self, crew: Crew) -> int:
        return rules.cohort_quality(crew.shown_tier, expert=self.kind == self.Kind.EXPERT)

    def elite(self, crew: Crew) -> str:
        """The key of the crew's Elite upgrade for one of this gang's types, or ""."""
        if self.kind != self.Kind.GANG:
            return ""
        marked = (f"elite_{key}" for key in self.types)
        return next((key for key in marked if crew.upgrades.get(key, 0)), "")

    def scale(self, crew: Crew) -> str:
        return rules.gang_scale(crew.shown_tier) if self.kind == self.Kind.GANG else "1"


class Faction(models.Model):
    """A faction as the GM keeps it. `hidden` keeps the whole faction from the players;
    `notes_hidden` keeps only its notes."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="factions")
    name = models.CharField(max_length=80)
    tier = models.PositiveSmallIntegerField(default=0)
    hold = models.CharField(max_length=6, default="strong")
    status = models.SmallIntegerField(default=0)
    notes = models.TextField(blank=True)
    hidden = models.BooleanField(_("Hidden from players"), default=False)
    notes_hidden = models.BooleanField(_("Notes hidden from players"), default=False)

    class Meta:
        ordering = ["-tier", "name", "pk"]  # the faction ladder
        constraints = [
            models.CheckConstraint(
                condition=Q(tier__lte=rules.FACTION_TIER_MAX), name="faction_tier_max"
            ),
            models.CheckConstraint(
                condition=Q(status__gte=rules.STATUS_MIN) & Q(status__lte=rules.STATUS_MAX),
                name="faction_status_range",
            ),
            models.CheckConstraint(condition=Q(hold__in=rules.HOLDS), name="faction_hold"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def status_label(self) -> str:
        return STATUS_LABELS[self.status]

    @property
    def at_war(self) -> bool:
        return self.status == rules.STATUS_MIN


class FactionClock(models.Model):
    """Links a table clock (kind "faction") to the faction whose goal it tracks."""

    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="goal_links")
    clock = models.OneToOneField(Clock, on_delete=models.CASCADE, related_name="faction_link")

    def __str__(self) -> str:
        return f"{self.faction}: {self.clock}"


def new_screen_token() -> str:
    return secrets.token_urlsafe(24)


class Screen(models.Model):
    """The shared-screen link the GM hands out: view-only, no login, players' view only."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="screen")
    token = models.CharField(max_length=64, unique=True, default=new_screen_token)
    active = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"Screen of {self.table}"
