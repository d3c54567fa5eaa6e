"""``rule_links``: the rule citations in a text for players ("rules §4", "§5, §6", older stored texts'
"RULES.md §4") become links to those sections of the campaign's rules page.

Usage: ``{% load rule_links %}{{ text|rule_links:rules_url }}`` with the rules page's URL (relative on
the site, absolute in mail). The text is escaped first; only the links are markup.
"""

from __future__ import annotations

import re

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, SafeString, mark_safe

from campaign.pages.rulebook.text import ANCHORS

register = template.Library()

# "RULES.md" is how older stored reports cite the rules; players read "rules" instead.
_FILE = re.compile(r"RULES\.md(?=\s*§|\b)")
_SECTION = re.compile(r"§\s?(\d{1,2})")


def rule_citations_in_words(text: str) -> str:
    """The text with the rules file's name replaced by "rules" (for plain-text mail)."""
    return _FILE.sub("rules", text)


@register.filter(name="rule_links")
def rule_links(text: object, rules_url: str) -> SafeString:
    # Markup already made safe (a form's error list) keeps its tags; anything else is escaped.
    escaped = rule_citations_in_words(str(text) if isinstance(text, SafeData) else str(conditional_escape(str(text))))

    # format_html()'s escaping, with the URL escaped once: the rules page runs this ~340 times.
    url = conditional_escape(rules_url)

    def link(match: re.Match[str]) -> str:
        number = int(match.group(1))
        anchor = ANCHORS.get(number)
        if anchor is None:
            return match.group(0)
        return f'<a class="rule-link" href="{url}#{conditional_escape(anchor)}">§{number}</a>'

    return mark_safe(_SECTION.sub(link, escaped))


@register.filter(name="rules_in_words")
def rules_in_words(text: object) -> str:
    return rule_citations_in_words(str(text))
