"""What the table sees change when the phase does: sent through sessions.live."""

from django.template.loader import render_to_string

from sessions import live

from .models import Phase


def push_phase(phase: Phase) -> None:
    """The phase line everyone sees, and a signal that makes each open phase page fetch
    its own view again (each member's controls differ). Drawn after the commit, from the
    phase as committed. The line names the score's target, which the GM may keep hidden:
    one render per audience."""
    phase_id = phase.pk

    def render(is_gm: bool) -> str:
        committed = Phase.objects.filter(pk=phase_id).first()
        if committed is None:
            return ""
        context = {"phase": committed, "oob": True, "is_gm": is_gm}
        return render_to_string("play/phase.html#phase-push", context)

    live.push(phase.table_id, gm=lambda: render(True), players=lambda: render(False))
