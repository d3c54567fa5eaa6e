"""Words, not keys (issue 13): the text a person reads on a page, and the keys and codes of a campaign
that must never appear in it — shared by the scan of a played campaign's pages and the tests of the
messages shown after an order."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from campaign.models import Campaign, Nation
from ports.models import Port, SeaZone
from rules.ruleset import SHIP_CLASSES


class _Text(HTMLParser):
    """The text a person reads: no tags, scripts or styles, no attribute values, and nothing marked
    ``aria-hidden`` (a map symbol such as a nation's letter beside its name in the legend); a textarea
    holds what a player types (the simulator's ship lists), not what the site says."""

    VOID = frozenset({"br", "img", "input", "meta", "link", "hr", "wbr", "source", "col", "area", "base"})
    BREAKS = frozenset({"br", "td", "th", "li", "p", "div", "option", "dd", "dt", "h1", "h2", "h3", "h4", "tr"})

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._stack: list[bool] = []  # per open element: is its text hidden?

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.BREAKS:
            self.parts.append("\n")
        if tag in self.VOID:
            return
        # The time zone list is IANA's names ("GB" is a zone there), not the game's codes.
        hidden = (
            tag in ("script", "style", "textarea") or ("aria-hidden", "true") in attrs or ("name", "time_zone") in attrs
        )
        self._stack.append(hidden or (bool(self._stack) and self._stack[-1]))

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID and self._stack:
            self._stack.pop()
        self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not (self._stack and self._stack[-1]):
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return re.sub(r"[ \t]+", " ", "".join(parser.parts))


def forbidden_words(campaign: Campaign) -> list[tuple[str, re.Pattern[str]]]:
    """(what, pattern) for every key or code that would be a leak in a player's text."""
    keys = {key for key, name in SeaZone.objects.filter(campaign=campaign).values_list("key", "name") if key != name}
    keys |= {key for key, name in Port.objects.filter(campaign=campaign).values_list("key", "name") if key != name}
    patterns: list[tuple[str, re.Pattern[str]]] = []
    if keys:
        # One alternation for the few hundred keys rather than a pattern each: a played campaign's
        # pages were searched once per key (the scan's slowest part). Longest first, so that a key
        # that begins another ("gulf" in "gulf-of-lion") is tried after it; the match names the key.
        alternation = "|".join(re.escape(k) for k in sorted(keys, key=lambda k: (-len(k), k)))
        patterns.append(("a zone or port key", re.compile(rf"(?<![\w-])(?:{alternation})(?![\w-])")))
    codes = "|".join(Nation.objects.filter(campaign=campaign).values_list("code", flat=True))
    patterns.append(("a nation code alone", re.compile(rf"(?<![\w/-])({codes})(?![\w/-])")))
    classes = "|".join(re.escape(c) for c in SHIP_CLASSES if "-" in c and c != "four-decker")
    patterns.append(("a ship class code", re.compile(rf"(?<![\w-])({classes})(?![\w-])")))
    patterns.append(("a snake_case value", re.compile(r"(?<![\w.@/-])[a-z]+_[a-z_]+(?![\w.@/-])")))
    patterns.append(("the rules file", re.compile(r"RULES\.md")))
    patterns.append(
        (
            "a singular count with a plural noun",
            re.compile(r"(?<![\d.,])1 (ships|dice|fleets|turns|units|orders|battles|ports|days|rounds)\b"),
        )
    )
    patterns.append(("a side by number", re.compile(r"\b(Winner|Side|side) [12]\b")))
    return patterns
