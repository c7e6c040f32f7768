"""Playbooks (content) and the characters made from them.

Content rows come from blades/content through a data migration; custom playbooks
belong to a table. A character's counters are plain columns so that each change can
be written on its own, without overwriting a concurrent change to another field.
"""

from collections.abc import Iterable

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from blades.rules import abilities as ability_rules
from blades.rules import character as rules
from blades.rules import crew as crew_rules
from sessions import shapes


class Playbook(models.Model):
    """A standard playbook (table is null) or a table's custom playbook."""

    table = models.ForeignKey(
        "table_sessions.Table",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="custom_playbooks",
    )
    key = models.SlugField(max_length=60)
    name = models.CharField(max_length=60)
    tagline = models.CharField(max_length=200, blank=True)
    dots = shapes.ShapedJSONField(
        help_text=_("Starting action dots, e.g. {'skirmish': 2, 'command': 1}"),
        shape=shapes.MapOf(shapes.Text(), shapes.Whole(0, 4)),
        label=gettext_noop("dots"),
    )
    xp_trigger = models.CharField(max_length=200)
    friends_label = models.CharField(max_length=60, default="Friends and rivals")

    class Meta:
        ordering = ["table_id", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["key"], condition=models.Q(table=None), name="one_standard_playbook_per_key"
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def custom(self) -> bool:
        return self.table_id is not None


class SpecialAbility(models.Model):
    playbook = models.ForeignKey(Playbook, on_delete=models.CASCADE, related_name="abilities")
    key = models.SlugField(max_length=60)
    name = models.CharField(max_length=80)
    description = models.TextField()
    special_armor = models.BooleanField(default=False)
    mule = models.BooleanField(default=False)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["playbook_id", "order", "pk"]

    def __str__(self) -> str:
        return self.name


class PlaybookFriend(models.Model):
    playbook = models.ForeignKey(Playbook, on_delete=models.CASCADE, related_name="friends")
    name = models.CharField(max_length=80)
    role = models.CharField(max_length=80, blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["playbook_id", "order", "pk"]

    def __str__(self) -> str:
        return f"{self.name}, {self.role}" if self.role else self.name


class Item(models.Model):
    """A playbook's special item, or (playbook null) one of the standard items."""

    class Armor(models.TextChoices):
        NONE = "", "—"
        ARMOR = "armor", _("Armor")
        HEAVY = "heavy", _("Heavy armor")

    playbook = models.ForeignKey(
        Playbook, on_delete=models.CASCADE, null=True, blank=True, related_name="items"
    )
    name = models.CharField(max_length=80)
    load = models.PositiveSmallIntegerField(default=1)
    fine = models.BooleanField(default=False)
    armor = models.CharField(max_length=10, choices=Armor.choices, blank=True, default="")
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["playbook_id", "order", "pk"]

    def __str__(self) -> str:
        return self.name


class Option(models.Model):
    """The short lists chosen from: heritages, backgrounds, vices, trauma conditions."""

    class Kind(models.TextChoices):
        HERITAGE = "heritage", _("Heritage")
        BACKGROUND = "background", _("Background")
        VICE = "vice", _("Vice")
        TRAUMA = "trauma", _("Trauma")

    kind = models.CharField(max_length=12, choices=Kind.choices)
    key = models.SlugField(max_length=40)
    name = models.CharField(max_length=60)
    description = models.TextField(blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["kind", "order"]
        constraints = [models.UniqueConstraint(fields=["kind", "key"], name="one_option_per_key")]

    def __str__(self) -> str:
        return self.name


class Character(models.Model):
    class State(models.TextChoices):
        ACTIVE = "active", _("Active")
        RETIRED = "retired", _("Retired")
        DEAD = "dead", _("Dead")

    class Load(models.TextChoices):
        NONE = "", _("Not chosen")
        LIGHT = "light", _("Light")
        NORMAL = "normal", _("Normal")
        HEAVY = "heavy", _("Heavy")

    table = models.ForeignKey(
        "table_sessions.Table", on_delete=models.CASCADE, related_name="characters"
    )
    # None while the character waits for its player: a restored table's players are
    # invited again, and the GM hands each their character (backup/restore.py).
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="characters",
    )
    # RESTRICT, not PROTECT: a custom playbook stays while characters use it, yet goes
    # with its table together with them.
    playbook = models.ForeignKey(Playbook, on_delete=models.RESTRICT, related_name="+")
    state = models.CharField(max_length=10, choices=State.choices, default=State.ACTIVE)
    name = models.CharField(max_length=80)
    alias = models.CharField(max_length=80, blank=True)
    look = models.CharField(max_length=200, blank=True)
    heritage = models.ForeignKey(Option, on_delete=models.PROTECT, related_name="+")
    heritage_detail = models.CharField(max_length=200, blank=True)
    background = models.ForeignKey(Option, on_delete=models.PROTECT, related_name="+")
    background_detail = models.CharField(max_length=200, blank=True)
    vice = models.ForeignKey(Option, on_delete=models.PROTECT, related_name="+")
    vice_purveyor = models.CharField(max_length=200, blank=True)
    notes = models.TextField(blank=True)

    # One column per action (rules.ACTIONS), so a rating changes on its own.
    hunt = models.PositiveSmallIntegerField(default=0)
    study = models.PositiveSmallIntegerField(default=0)
    survey = models.PositiveSmallIntegerField(default=0)
    tinker = models.PositiveSmallIntegerField(default=0)
    finesse = models.PositiveSmallIntegerField(default=0)
    prowl = models.PositiveSmallIntegerField(default=0)
    skirmish = models.PositiveSmallIntegerField(default=0)
    wreck = models.PositiveSmallIntegerField(default=0)
    attune = models.PositiveSmallIntegerField(default=0)
    command = models.PositiveSmallIntegerField(default=0)
    consort = models.PositiveSmallIntegerField(default=0)
    sway = models.PositiveSmallIntegerField(default=0)

    stress = models.PositiveSmallIntegerField(default=0)
    traumas = shapes.ShapedJSONField(
        default=list, shape=shapes.ListOf(shapes.Text()), label=gettext_noop("traumas")
    )
    # Stress overflows that still wait for the player to choose a trauma condition.
    trauma_pending = models.PositiveSmallIntegerField(default=0)
    # Trauma satisfies the vice for the next downtime; the end of that downtime clears it.
    vice_satisfied = models.BooleanField(default=False)
    harm = shapes.ShapedJSONField(
        default=dict,
        shape=shapes.Checked(
            shapes.MapOf(shapes.Whole(1, 4), shapes.ListOf(shapes.Text())), rules.harm_rows
        ),
        label=gettext_noop("harm"),
    )
    healing = models.PositiveSmallIntegerField(default=0)
    armor_used = models.BooleanField(default=False)
    heavy_used = models.BooleanField(default=False)
    special_used = models.BooleanField(default=False)
    load = models.CharField(max_length=10, choices=Load.choices, blank=True, default="")
    coin = models.PositiveSmallIntegerField(default=0)
    stash = models.PositiveSmallIntegerField(default=0)
    playbook_xp = models.PositiveSmallIntegerField(default=0)
    insight_xp = models.PositiveSmallIntegerField(default=0)
    prowess_xp = models.PositiveSmallIntegerField(default=0)
    resolve_xp = models.PositiveSmallIntegerField(default=0)
    # Advances earned by filling a track and not yet spent.
    playbook_advances = models.PositiveSmallIntegerField(default=0)
    insight_advances = models.PositiveSmallIntegerField(default=0)
    prowess_advances = models.PositiveSmallIntegerField(default=0)
    resolve_advances = models.PositiveSmallIntegerField(default=0)
    # The crew abilities (Deadly and the like) whose action dot this PC has added.
    crew_dots = shapes.ShapedJSONField(
        default=list, shape=shapes.ListOf(shapes.Text()), label=gettext_noop("crew dots")
    )
    # Counts the changes to the sheet, so an open sheet can tell a live signal is news.
    revision = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "owner"],
                condition=models.Q(state="active"),
                name="one_active_character_per_player",
            ),
            models.CheckConstraint(
                condition=models.Q(stress__lte=ability_rules.STRESS_BOXES_MOST),
                name="stress_within_track",
            ),
            models.CheckConstraint(
                condition=models.Q(coin__lte=rules.COIN_MAX), name="coin_within_purse"
            ),
            models.CheckConstraint(
                condition=models.Q(stash__lte=rules.STASH_MAX), name="stash_within_limit"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def active(self) -> bool:
        return self.state == self.State.ACTIVE

    @property
    def crew_upgrades(self) -> dict[str, int]:
        # Read through the table, so the characters app needs nothing from crews.
        crew = getattr(self.table, "crew", None)  # a table whose crew is not made yet
        return crew.upgrades if crew else {}

    @property
    def crew_abilities(self) -> list[str]:
        crew = getattr(self.table, "crew", None)
        return crew.abilities if crew else []

    @property
    def ability_keys(self) -> frozenset[str]:
        """The keys of the special abilities taken (a Veteran's from another playbook too).
        Pages that show several characters prefetch them (`abilities__ability`)."""
        if "abilities" in getattr(self, "_prefetched_objects_cache", {}):
            return frozenset(row.ability.key for row in self.abilities.all())
        return frozenset(self.abilities.values_list("ability__key", flat=True))

    def ability_choice(self, key: str) -> str:
        """What the player chose with the ability `key` ("" when nothing, or without it)."""
        if "abilities" in getattr(self, "_prefetched_objects_cache", {}):
            return next((r.choice for r in self.abilities.all() if r.ability.key == key), "")
        found = self.abilities.filter(ability__key=key).values_list("choice", flat=True)
        return next(iter(found), "")

    @property
    def stress_max(self) -> int:
        """9 boxes, one more with the crew's Composed or Steady upgrade, one more with
        Survivor."""
        return ability_rules.stress_boxes(
            crew_rules.stress_boxes(self.crew_upgrades), self.ability_keys
        )

    @property
    def felt_harm(self) -> rules.Harm:
        """The harm whose penalties the character suffers (Tough as Nails lightens them)."""
        return ability_rules.felt_harm(self.harm, self.ability_keys)

    def load_bonus(self, carried: Iterable[int]) -> int:
        """Load the crew's Rigging upgrade carries for free, on every level, with these
        items (their loads) carried."""
        return rules.load_bonus(self.crew_upgrades, carried)

    @property
    def trauma_max(self) -> int:
        """4 boxes, one more with the crew's Hardened or Ordained upgrade."""
        return crew_rules.trauma_boxes(self.crew_upgrades)

    @property
    def ratings(self) -> dict[str, int]:
        return {action: getattr(self, action) for action in rules.ACTIONS}


class CharacterAbility(models.Model):
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="abilities")
    # RESTRICT for the same reason as Character.playbook: a custom playbook's ability
    # goes with its table.
    ability = models.ForeignKey(SpecialAbility, on_delete=models.RESTRICT, related_name="+")
    # What the player chose with it: Expertise's action ("Choose one of your action
    # ratings", 000).
    choice = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["character", "ability"], name="ability_taken_once")
        ]

    def __str__(self) -> str:
        return str(self.ability)


class Contact(models.Model):
    """One of the playbook's friends, as this character knows them."""

    class Stance(models.TextChoices):
        NONE = "", _("Acquaintance")
        FRIEND = "friend", _("Close friend")
        RIVAL = "rival", _("Rival")

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="contacts")
    name = models.CharField(max_length=80)
    role = models.CharField(max_length=80, blank=True)
    stance = models.CharField(max_length=10, choices=Stance.choices, blank=True, default="")

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.name


class CharacterItem(models.Model):
    """An item on the sheet; `checked` means carried on the current score."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="items")
    name = models.CharField(max_length=80)
    load = models.PositiveSmallIntegerField(default=1)
    armor = models.CharField(max_length=10, choices=Item.Armor.choices, blank=True, default="")
    special = models.BooleanField(default=False, help_text=_("From the playbook, not standard"))
    checked = models.BooleanField(default=False)

    class Meta:
        ordering = ["-special", "pk"]

    def __str__(self) -> str:
        return self.name


class GmNote(models.Model):
    """The GM's private notes on a character: a table of its own so that nothing that
    loads a character for a player can carry them along by accident."""

    character = models.OneToOneField(Character, on_delete=models.CASCADE, related_name="gm_note")
    text = models.TextField(blank=True)

    def __str__(self) -> str:
        return f"GM note on {self.character}"


# The creation wizard's steps, in the order the player meets them.
WIZARD_STEPS = (
    "playbook",
    "heritage",
    "background",
    "actions",
    "ability",
    "friends",
    "vice",
    "name",
)
# Answers that name something of the playbook: a new playbook starts them afresh.
PLAYBOOK_ANSWERS = ("ability", "close_friend", "rival")


class Draft(models.Model):
    """A character being made: the wizard's answers so far, one per player per table."""

    table = models.ForeignKey("table_sessions.Table", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    step = models.CharField(max_length=20, default="playbook")
    # The posted answers by name; the playbook by its id, as text.
    data = shapes.ShapedJSONField(
        default=dict,
        shape=shapes.Record(
            others=shapes.Anything(), playbook=shapes.OwnRef("characters.Playbook")
        ),
        label=gettext_noop("data"),
    )
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="one_draft_per_player")
        ]

    def __str__(self) -> str:
        return f"Draft by {self.user} at {self.table}"
