from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from sessions import shapes


class DiscordHook(models.Model):
    """A table's Discord webhooks. The URLs are secrets (anyone holding one can post to
    the channel): only the GM's settings page shows them, and no export carries them."""

    table = models.OneToOneField(
        "table_sessions.Table", on_delete=models.CASCADE, related_name="discord"
    )
    players_url = models.CharField(_("Players' webhook"), max_length=300, blank=True)
    gm_url = models.CharField(_("GM-only webhook"), max_length=300, blank=True)
    # The last delivery that failed for good, shown to the GM as a small warning; cleared
    # by the next delivery that goes through.
    last_error = models.CharField(max_length=200, blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return gettext("Discord for %(table)s") % {"table": self.table}


class PlaySession(models.Model):
    """One evening of play, from the GM's start to their end. The journal of a session is
    written from what the table's rows say happened between the two."""

    table = models.ForeignKey(
        "table_sessions.Table", on_delete=models.CASCADE, related_name="play_sessions"
    )
    title = models.CharField(max_length=120, blank=True)
    # The GM's own: never in a player's journal or export.
    gm_notes = models.TextField(_("GM notes"), blank=True)
    started = models.DateTimeField(default=timezone.now)
    ended = models.DateTimeField(null=True, blank=True)
    # The step of the loop the table was at when play began: the journal's first heading.
    start_step = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["-started", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(ended=None), name="one_open_session_per_table"
            )
        ]

    def __str__(self) -> str:
        return self.title or gettext("Session of %(day)s") % {"day": f"{self.started:%Y-%m-%d}"}

    @property
    def open(self) -> bool:
        return self.ended is None


class Learned(models.Model):
    """A player's own line in a session's journal: what we learned."""

    session = models.ForeignKey(PlaySession, on_delete=models.CASCADE, related_name="learned")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    text = models.CharField(max_length=300)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.text


class Happening(models.Model):
    """A change no other row keeps a time for, heard through a signal so the journal can
    place it: the phase moving on, a clock filling, a faction's status, harm, trauma, xp
    and advances, payoff, heat, the entanglement, a downtime activity, stress the rules
    mark where no roll tells it.

    It stores references, never names: each journal names the clock or faction for its
    audience from the object as it is when the journal is read.
    """

    class Kind(models.TextChoices):
        PHASE = "phase", _("Phase")
        CLOCK_FILLED = "clock_filled", _("Clock filled")
        FACTION_STATUS = "faction_status", _("Faction status")
        HARM = "harm", _("Harm")
        TRAUMA = "trauma", _("Trauma")
        XP = "xp", _("Xp")
        ADVANCE = "advance", _("Advance")
        PAYOFF = "payoff", _("Payoff")
        HEAT = "heat", _("Heat")
        ENTANGLEMENT = "entanglement", _("Entanglement")
        DOWNTIME = "downtime", _("Downtime activity")
        FLASHBACK = "flashback", _("Flashback")
        STRESS = "stress", _("Stress")

    table = models.ForeignKey(
        "table_sessions.Table", on_delete=models.CASCADE, related_name="happenings"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    created = models.DateTimeField(default=timezone.now, db_index=True)
    clock = models.ForeignKey(
        "table_sessions.Clock", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    faction = models.ForeignKey(
        "crews.Faction", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    character = models.ForeignKey(
        "characters.Character", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    score = models.ForeignKey("play.Score", on_delete=models.SET_NULL, null=True, related_name="+")
    activity = models.ForeignKey(
        "play.DowntimeActivity", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # The numbers and words of the change (a step, a status, harm text, an xp track).
    data = shapes.ShapedJSONField(
        default=dict,
        shape=shapes.MapOf(shapes.Text(), shapes.Anything()),
        label=gettext_noop("data"),
    )

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at {self.created:%H:%M}"
