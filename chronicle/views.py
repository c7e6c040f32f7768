from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from sessions.access import access_table, require_gm

from .forms import DiscordForm
from .models import DiscordHook
from .stats import table_statistics


@login_required
@require_http_methods(["GET", "POST"])
def discord_settings(request: HttpRequest, table_id: int) -> HttpResponse:
    """The GM's webhooks. Only the GM ever gets this page: the URLs are secrets."""
    table, membership = access_table(request.user, table_id)
    require_gm(membership)
    hook = DiscordHook.objects.filter(table=table).first() or DiscordHook(table=table)
    form = DiscordForm(request.POST or None, instance=hook)
    if request.method == "POST":
        if form.is_valid():
            hook = form.save(commit=False)
            # New webhooks start without the old ones' warning.
            hook.last_error, hook.last_error_at = "", None
            hook.save()
            return redirect("discord_settings", table_id=table.pk)
        status = 422
    else:
        status = 200
    return render(
        request,
        "chronicle/discord.html",
        {"table": table, "form": form, "hook": hook},
        status=status,
    )


@login_required
@require_GET
def dice_statistics(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    people = table_statistics(table.pk, gm=membership.is_gm)
    return render(
        request,
        "chronicle/dice.html",
        {"table": table, "people": people, "is_gm": membership.is_gm},
    )
