"""Names people type and read — campaigns, nations, fleets, ships (issue 27, items 9 and 11).

A name goes into mail headers (a subject names the campaign and the nation) and is compared with the
other names of its kind (a navy's ships, a nation's fleets). So a name is kept in one form — Unicode's
NFKC, in which a full-width "Ｖｉｃｔｏｒｙ" or a ligature "ﬁ" is the plain letters it looks like — and
refused if it holds a character that is not seen as written: a control character (a line break would
end a mail header and start another), or an invisible or direction-changing one (a zero-width space or
a right-to-left override would make a second "Victory" that looks like the first).

Pure Python: the model field, the forms, the order checks and the import's checks all call these.
"""

from __future__ import annotations

import unicodedata

#: Unicode categories refused anywhere in a name: controls (Cc: CR, LF, NUL, BEL…), format characters
#: (Cf: zero-width spaces and joiners, bidi marks, overrides and isolates, the BOM, soft hyphen), line
#: and paragraph separators, private-use, surrogate and unassigned code points.
REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible or text-direction character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
    "Co": "a private-use character",
    "Cs": "a surrogate",
    "Cn": "an unassigned character",
}

#: The same refusal as a PostgreSQL regular expression, for the tables' CHECK constraints: the
#: database has no Unicode categories, so it lists the ranges that matter (every control character,
#: and the invisible and direction characters of Cf and Z[lp]). NUL cannot be in a text column at all.
REFUSED_PATTERN = (
    "[\\x01-\\x1f\\x7f-\\x9f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\ufeff\\ufff9-\\ufffb]"
)

ALLOWED = "letters, digits, spaces and punctuation"


def name_nfkc(text: str) -> str:
    """``text`` in NFKC, as typed otherwise (a line break stays, for :func:`name_fault` to refuse)."""
    return unicodedata.normalize("NFKC", text)


def name_normalised(text: str) -> str:
    """``text`` in NFKC with its runs of whitespace made single spaces and its ends trimmed: the form a
    name is stored and compared in."""
    return " ".join(name_nfkc(text).split())


def name_fault(text: str) -> str | None:
    """What makes ``text`` unfit for a name, in words (the first such character, by its code point and
    Unicode name), or None."""
    for position, char in enumerate(text, start=1):
        category = unicodedata.category(char)
        what = REFUSED_CATEGORIES.get(category)
        if what is not None:
            label = unicodedata.name(char, "")
            shown = f"U+{ord(char):04X}" + (f" {label}" if label else "")
            return f"character {position} is {what} ({shown}); a name may hold only {ALLOWED}"
    return None
