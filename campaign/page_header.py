"""The context every campaign page's header (``campaign/_campaign_header.html``) needs: the viewer, the
tabs' URLs (plain and with a GM's ``?nation=``) and the ready form's return path.

Its own module so that pages outside ``campaign.pages`` (the dispatches) build the same header without
importing the pages, which reach the turn.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, NmrPolicy, Turn
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


def names_in_words(names: list[str]) -> str:
    """Names as a sentence lists them: "Spain", "Spain and France", "Spain, France and Russia"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def turn_waits_for(viewer: Viewer) -> str:
    """What the turn is waiting for, in the players' words (issue 26), from what the viewer read (no
    query): "Resolving now", "Deadline passed — waiting for the GM to decide on Spain's missing orders",
    "Waiting for 2 nations to be ready"… "" when there is nothing to say (no turn, a campaign not
    running: its status is in the header already; a battle on the table says so itself)."""
    turn = viewer.turn
    if turn is None or viewer.campaign.status != Campaign.Status.ACTIVE:
        return ""
    if turn.status == Turn.Status.RESOLVING:
        return "Resolving now."
    if not turn.is_open:
        return ""
    played = [n for n in viewer.nations if n.player_id is not None]
    missing = [n.name for n in played if not getattr(n, "orders_given", False)]
    due = turn.deadline is not None and turn.deadline <= timezone.now()
    asks_gm = viewer.campaign.nmr_policy == NmrPolicy.ASK_GM and bool(missing)
    gm_line = f"waiting for the GM to decide on {names_in_words(missing)}'s missing orders"
    if due:
        return f"Deadline passed — {gm_line}." if asks_gm else "Deadline passed — resolving now."
    not_ready = sum(1 for n in played if not getattr(n, "ready", False))
    if not played:
        return "Resolves at the deadline."
    if not_ready:
        nations = "nation" if not_ready == 1 else "nations"
        return f"Waiting for {not_ready} {nations} to be ready, or the deadline."
    return f"Every nation is ready — {gm_line}." if asks_gm else "Every nation is ready — resolving now."


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
        "waits_for": turn_waits_for(viewer),
        **extra,
    }
