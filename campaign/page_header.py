"""The context every campaign page's header (``campaign/_campaign_header.html``) needs: the viewer, the
tabs' URLs (plain and with a GM's ``?nation=``) and the ready form's return path.

Its own module so that pages outside ``campaign.pages`` (the dispatches) build the same header without
importing the pages, which reach the turn.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from campaign.viewer import Viewer


def with_nation(url: str, viewer: Viewer, **params: str) -> str:
    """``url`` with the query a GM needs to keep looking through the same nation."""
    query = {**({"nation": viewer.nation.code} if viewer.is_gm else {}), **params}
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def page_paths(viewer: Viewer) -> dict[str, str]:
    """The campaign's page URLs without a query (``nq`` in the context adds a GM's nation)."""
    slug = viewer.campaign.slug
    paths = {
        "dashboard": reverse("campaign:dashboard", args=[slug]),
        "map": reverse("campaign:map", args=[slug]),
        "map_move": reverse("campaign:map_move", args=[slug]),
        "map_order": reverse("campaign:map_order", args=[slug]),
        "map_withdraw": reverse("campaign:map_withdraw", args=[slug]),
        "table": reverse("campaign:tables", args=[slug]),
        "rules": reverse("campaign:rules", args=[slug]),
        "turns": reverse("campaign:turns", args=[slug]),
        "ready": reverse("campaign:ready", args=[slug]),
    }
    paths["orders"] = reverse("campaign:orders", args=[slug])
    paths["battles"] = reverse("battles:list", args=[slug])
    paths["simulator"] = reverse("campaign:simulator", args=[slug])
    paths["dispatches"] = reverse("campaign:dispatches", args=[slug])
    return paths


def page_context(request: HttpRequest, viewer: Viewer, tab: str, **extra: Any) -> dict[str, Any]:
    """What every campaign page's template needs: the viewer, ``paths`` (plain URLs), ``links``
    (the same with a GM's ``?nation=``), ``nq`` (``nation=XX&`` for a GM, to prefix other
    parameters) and the current path for the ready form's return."""
    paths = page_paths(viewer)
    return {
        "v": viewer,
        "paths": paths,
        "links": {name: with_nation(url, viewer) for name, url in paths.items()},
        "nq": f"nation={viewer.nation.code}&" if viewer.is_gm else "",
        "tab": tab,
        "here": request.get_full_path(),
        **extra,
    }
