"""Form widgets shared by the web pages (the battle simulator and the campaign's order forms)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe


class FastSelect(forms.Select):
    """A ``<select>`` rendered in Python.

    Django renders every option through a template; with a few hundred options (ports, zones, navies,
    grades) that costs as much as the rest of the page. Same markup and behaviour, one string join.
    """

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None) -> SafeString:
        final = self.build_attrs(self.attrs, attrs)
        final["name"] = name
        if self.allow_multiple_selected:
            final["multiple"] = True
        parts: list[str] = [format_html("<select{}>", flatatt(final))]
        for group, options, _index in self.optgroups(name, self.format_value(value), final):
            if group:
                parts.append(format_html('<optgroup label="{}">', group))
            for option in options:
                parts.append(
                    format_html(
                        '<option value="{}"{}>{}</option>',
                        option["value"],
                        mark_safe(" selected") if option["selected"] else "",
                        option["label"],
                    )
                )
            if group:
                parts.append("</optgroup>")
        parts.append("</select>")
        return mark_safe("".join(parts))  # every part is escaped by format_html above


def use_fast_selects(form: forms.BaseForm) -> None:
    """Swap the plain ``Select`` widgets of ``form`` for :class:`FastSelect` (choices and attrs kept)."""
    for field in form.fields.values():
        widget = field.widget
        if type(widget) is forms.Select:
            fast = FastSelect(attrs=widget.attrs, choices=widget.choices)
            fast.is_required = widget.is_required
            field.widget = fast
