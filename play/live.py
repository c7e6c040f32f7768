"""What the table sees change when the phase does: sent through sessions.live."""

from django.template.loader import render_to_string

from sessions import live

from .models import Phase


def push_phase(phase: Phase) -> None:
    """The phase line everyone sees, and a signal that makes each open phase page fetch
    its own view again (each member's controls differ). Drawn after the commit, from the
    phase as committed."""
    phase_id = phase.pk

    def render() -> str:
        committed = Phase.objects.filter(pk=phase_id).first()
        if committed is None:
            return ""
        return render_to_string("play/phase.html#phase-push", {"phase": committed, "oob": True})

    live.push_to_table(phase.table_id, render)
