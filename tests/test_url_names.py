"""Every URL name names one URL: `reverse` would otherwise build whichever pattern comes
first with matching arguments, and a page's button would post to another app's view."""

from collections import Counter

from django.urls import URLPattern, URLResolver, get_resolver


def _names(patterns) -> list[str]:
    names = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            names += _names(pattern.url_patterns)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.append(pattern.name)
    return names


def test_no_url_name_is_used_twice():
    counts = Counter(_names(get_resolver().url_patterns))
    assert [name for name, count in counts.items() if count > 1] == []
