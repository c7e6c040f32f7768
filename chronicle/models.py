from django.db import models


class DiscordHook(models.Model):
    """A table's Discord webhooks. The URLs are secrets (anyone holding one can post to
    the channel): only the GM's settings page shows them, and no export carries them."""

    table = models.OneToOneField(
        "table_sessions.Table", on_delete=models.CASCADE, related_name="discord"
    )
    players_url = models.CharField("Players' webhook", max_length=300, blank=True)
    gm_url = models.CharField("GM-only webhook", max_length=300, blank=True)
    # The last delivery that failed for good, shown to the GM as a small warning; cleared
    # by the next delivery that goes through.
    last_error = models.CharField(max_length=200, blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Discord for {self.table}"
