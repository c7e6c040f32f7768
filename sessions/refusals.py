"""The one place a `RuleError` is answered.

Views and actions raise it and never catch it (the action's transaction has rolled back,
so nothing changed). `RefusalMiddleware` turns it into a 422: drawn by the view's own
`@answers_refusals(draw)` (its fragment, with the message beside the control and what was
typed), or, for a view without one, the message as plain text, never a 500.
"""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from blades.rules.errors import RuleError

Draw = Callable[[HttpRequest, RuleError], HttpResponse]


def answers_refusals(draw: Draw):
    """Marks a view whose refusals `draw(request, error)` renders (status 422). The mark
    is an attribute, which the decorators above it (`login_required`...) carry along."""

    def mark(view):
        view.draw_refusal = draw
        return view

    return mark


class RefusalMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, RuleError):
            return None
        match = request.resolver_match
        draw = getattr(match.func, "draw_refusal", None) if match else None
        if draw is None:
            return HttpResponse(str(exception), status=422, content_type="text/plain")
        response = draw(request, exception)
        response.status_code = 422
        return response
