from django import forms
from django.utils.translation import gettext_lazy as _

from .discord import valid_webhook
from .models import DiscordHook, PlaySession


class DiscordForm(forms.ModelForm):
    class Meta:
        model = DiscordHook
        fields = ["players_url", "gm_url"]
        widgets = {
            # The URL is a secret: kept out of the browser's autofill and history.
            "players_url": forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
            "gm_url": forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
        }
        help_texts = {
            "players_url": _(
                "Rolls, filled clocks and phase changes the players may see. In Discord: the "
                "channel's settings, Integrations, Webhooks, New Webhook, Copy Webhook URL."
            ),
            "gm_url": _(
                "Optional: secret rolls and GM-only clocks. Without it they are not posted."
            ),
        }

    def _webhook(self, name: str) -> str:
        url = self.cleaned_data[name].strip()
        if url and not valid_webhook(url):
            raise forms.ValidationError(
                _("Paste a Discord webhook URL: https://discord.com/api/webhooks/… ")
            )
        return url

    def clean_players_url(self) -> str:
        return self._webhook("players_url")

    def clean_gm_url(self) -> str:
        return self._webhook("gm_url")


class SessionForm(forms.ModelForm):
    class Meta:
        model = PlaySession
        fields = ["title", "gm_notes"]
        labels = {"title": _("Title")}
        help_texts = {"gm_notes": _("Yours alone: players never see them, here or in an export.")}
