import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from blades.rules import clocks as clock_rules
from blades.rules.dice import Outcome
from blades.rules.dice import Roll as DiceRoll
from blades.rules.rolls import RollKind

from .fields import WordsField
from .shapes import Faces, ShapedJSONField, dice_fit_pool


def new_invite_token() -> str:
    # 192 bits from the OS's CSPRNG: not guessable, not enumerable.
    return secrets.token_urlsafe(24)


class Table(models.Model):
    """A campaign: one GM, its players, and everything they share."""

    name = models.CharField(max_length=80)
    gm = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    invite_token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    invite_active = models.BooleanField(default=True)
    created = models.DateTimeField(auto_now_add=True)
    # The engagement roll "sets the starting position of the score": the score's first
    # action roll starts there (set by the phase app, taken by the first roll, then "").
    opening_position = models.CharField(max_length=10, blank=True, default="")
    # What the whole table shares (the shared screen, its overlays, the journal, Discord)
    # is in this one language, the GM's pick among settings.LANGUAGES; each person's own
    # pages are in their own.
    language = models.CharField(max_length=10, default="en")

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        GM = "gm", _("GM")
        PLAYER = "player", _("Player")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="one_membership_per_table")
        ]
        ordering = ["joined"]

    # A member may act at the table; only the shared screen (access.SCREEN) shows and
    # offers nothing. Asked of every viewer, a member or an access.Audience.
    acts = True

    def __str__(self) -> str:
        return f"{self.user} at {self.table} ({self.role})"

    @property
    def is_gm(self) -> bool:
        return self.role == self.Role.GM


class Clock(models.Model):
    class Kind(models.TextChoices):
        DANGER = "danger", _("Danger")
        RACING = "racing", _("Racing")
        LINKED = "linked", _("Linked")
        MISSION = "mission", _("Mission")
        TUG_OF_WAR = "tug", _("Tug-of-war")
        PROJECT = "project", _("Long-term project")
        FACTION = "faction", _("Faction")

    class Visibility(models.TextChoices):
        EVERYONE = "everyone", _("Everyone")
        # Players know the clock is there (its name and size), not how far it has run.
        KNOWN = "known", _("Everyone, progress hidden")
        GM = "gm", _("GM only")
        # A player's own clock, kept from the other players.
        OWNER = "owner", _("Its owner and the GM")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="clocks")
    name = models.CharField(max_length=80)
    segments = models.PositiveSmallIntegerField(default=4)
    filled = models.PositiveSmallIntegerField(default=0)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.DANGER)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.EVERYONE
    )
    # The GM lets players tick this clock (never a hidden one: see `players_may_tick`).
    players_tick = models.BooleanField(default=False)
    # The player who made the clock (None: the GM's); they tick it (sessions.access).
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="own_clocks",
    )
    # A linked clock: this one, once full, opens `unlocks`, which is locked until then.
    unlocks = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="unlocked_by"
    )
    # A racing clock's opponent; each of the two names the other (sessions.actions).
    rival = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(segments__gte=clock_rules.CLOCK_MIN)
                & models.Q(segments__lte=clock_rules.CLOCK_MAX),
                name="clock_segments_in_range",
            ),
            models.CheckConstraint(
                condition=models.Q(filled__lte=models.F("segments")),
                name="clock_filled_within_segments",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def hidden(self) -> bool:
        """Kept from the players at large: the GM's secret, or a player's own private clock
        (its owner sees it through sessions.access, never through a players' rendering)."""
        return self.visibility in (self.Visibility.GM, self.Visibility.OWNER)

    @property
    def progress_hidden(self) -> bool:
        """Players at large see less than its ticks (sessions.access.can_see_progress)."""
        return self.visibility != self.Visibility.EVERYONE

    @property
    def full(self) -> bool:
        return clock_rules.is_full(self.filled, self.segments)

    @property
    def players_may_tick(self) -> bool:
        return (
            self.players_tick
            and self.visibility == self.Visibility.EVERYONE
            and self.kind != self.Kind.FACTION
        )

    @property
    def tug_of_war(self) -> bool:
        return self.kind == self.Kind.TUG_OF_WAR

    @property
    def locked_by(self) -> "Clock | None":
        """The clock still to fill before this one opens (None: it is open). Reads
        `unlocked_by`, which the table's queries prefetch."""
        unlockers = list(self.unlocked_by.all())
        if not clock_rules.is_locked((c.filled, c.segments) for c in unlockers):
            return None
        return next(c for c in unlockers if not c.full)


class Roll(models.Model):
    """A stored roll. Dice are made on the server; nothing here is ever taken from a form."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rolls")
    roller = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # Set when the roll was made from a character sheet, so the log can name the scoundrel.
    # The name as it was, not a key: sheets live in an app above this one, and a line of
    # the log only shows who rolled.
    character_name = models.CharField(max_length=80, blank=True)
    kind = models.CharField(max_length=20, choices=[(k.value, k.label) for k in RollKind])
    pool = models.SmallIntegerField()
    dice = ShapedJSONField(shape=Faces(), label=gettext_noop("dice"))
    outcome = models.CharField(max_length=10, choices=[(o.value, o.label) for o in Outcome])
    # Words, read in the reader's language (sessions.fields); the note is often the
    # players' own text.
    summary = WordsField()
    note = WordsField(blank=True, default=str)
    secret = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.kind} {self.pool}d: {self.summary}"

    def clean(self) -> None:
        dice_fit_pool(self.pool, self.dice)

    @property
    def as_dice(self) -> DiceRoll:
        return DiceRoll(pool=self.pool, dice=tuple(self.dice))

    @property
    def kind_label(self) -> str:
        return roll_kind_label(self.kind)

    @property
    def outcome_label(self) -> str:
        return gettext(Outcome(self.outcome).label)


def roll_kind_label(kind: str) -> str:
    """A kind of roll in the reader's language (the rules mark their English labels)."""
    return gettext(RollKind(kind).label)


class Presence(models.Model):
    """One open websocket. Shared through the database so every process sees it. Its
    language is the one its reader reads: a push is drawn in each language a row of the
    table names (sessions.live.push), and in no other."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="presences")
    # None: a shared-screen link's socket, which nobody signed in opened.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", null=True
    )
    channel_name = models.CharField(max_length=200, unique=True)
    seen = models.DateTimeField()
    language = models.CharField(max_length=8, default=settings.LANGUAGE_CODE)

    def __str__(self) -> str:
        return f"{self.user} at {self.table}"
