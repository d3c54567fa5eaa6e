"""``{% seamap %}``: the map's SVG for ``campaign/_map_svg.html`` (see :mod:`campaign.pages.map.svg`).

It reads what the template read from its context: ``m`` (the map), ``linked``, ``map_title``,
``map_id``, ``paths`` and ``nq``; whatever is missing prints as the template printed it, empty.
"""

from __future__ import annotations

from django import template
from django.template.context import Context
from django.utils.safestring import SafeString

from campaign.pages.map.svg import map_svg

register = template.Library()


@register.simple_tag(takes_context=True)
def seamap(context: Context) -> SafeString:
    return map_svg(
        context.get("m"),
        linked=context.get("linked", ""),
        map_title=context.get("map_title", ""),
        map_id=context.get("map_id", ""),
        paths=context.get("paths", ""),
        nq=context.get("nq", ""),
    )
