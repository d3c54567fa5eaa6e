"""The GM's desk for one campaign (issue 11): everything a GM checks before a deadline, on one page.

:func:`desk_for_gm` reads the open turn, a row per nation (player, orders entered and their last
change, ready, treasury, ships afloat), every nation's orders and last report, the mail that failed,
the invitations not yet accepted, and the nations without orders (the NMR list) — a fixed number of
queries however many nations, orders and reports the campaign holds (tested at two sizes). The whole
map without fog of war is :func:`campaign.pages.map.map_for_gm`. Permission is the caller's: the
admin view checks that the user runs the campaign.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Count, Max, Subquery
from django.utils import timezone

from campaign.models import Campaign, Delivery, Invitation, Nation, NationTurn, NmrPolicy, Order, Turn, TurnReport
from campaign.orders.describe import order_in_words
from campaign.orders.names import campaign_order_names
from campaign.players import INVITATION_MAX_AGE_DAYS
from fleets.models import Ship
from rules.turn_events import report_events


@dataclass
class DeskNation:
    pk: int
    code: str
    name: str
    player: str  # username, or "" for none
    player_email: str
    orders: int
    last_change: datetime | None
    submitted: bool
    ready: bool
    treasury: int
    ships: int
    order_lines: list[str] = field(default_factory=list)
    report_turn: int | None = None
    report_lines: list[str] = field(default_factory=list)

    @property
    def missing(self) -> bool:
        """No move received: a nation with a player that has entered no orders this turn."""
        return bool(self.player) and not self.submitted


@dataclass
class DeskDelivery:
    recipient: str
    event: str
    nation: str
    attempts: int
    error: str
    created_at: datetime


@dataclass
class DeskInvitation:
    """An invitation not yet accepted (nor revoked or replaced): who, for which nation, its newest link."""

    pk: int
    nation: str
    email: str
    sent_at: datetime
    expires_at: datetime
    expired: bool


@dataclass
class Desk:
    campaign: Campaign
    turn: Turn | None
    nations: list[DeskNation]
    failed_mail: list[DeskDelivery]
    failed_mail_total: int
    invitations: list[DeskInvitation] = field(default_factory=list)

    @property
    def missing(self) -> list[DeskNation]:
        return [n for n in self.nations if n.missing]

    @property
    def ready_count(self) -> int:
        return sum(1 for n in self.nations if n.ready)

    @property
    def nmr_waits(self) -> bool:
        """With the "GM is asked" policy, a due turn with missing nations waits for the GM."""
        return self.campaign.nmr_policy == NmrPolicy.ASK_GM and bool(self.missing)


#: Failed deliveries listed on the desk; the rest are counted and linked (the mail's admin page).
FAILED_MAIL_SHOWN = 20


def desk_for_gm(*, campaign: Campaign) -> Desk:
    """The desk of ``campaign`` (at most 10 queries, whatever its size)."""
    turn = Turn.objects.filter(campaign=campaign, status__in=[Turn.Status.OPEN, Turn.Status.RESOLVING]).first()
    if turn is None:
        turn = Turn.objects.filter(campaign=campaign).defer("snapshot", "dice_log").order_by("-number").first()
    # Counts per nation in their own grouped queries: joining orders and ships in one would multiply rows.
    order_stats = {
        row["nation_id"]: (row["count"], row["last"])
        for row in Order.objects.filter(turn=turn)
        .values("nation_id")
        .annotate(count=Count("pk"), last=Max("updated_at"))
    }
    ships = dict(
        Ship.objects.filter(campaign=campaign, condition__in=Ship.AFLOAT)
        .values("nation_id")
        .annotate(count=Count("pk"))
        .values_list("nation_id", "count")
    )
    states = {s.nation_id: s for s in NationTurn.objects.filter(turn=turn).only("nation_id", "ready", "submitted_at")}
    nations: dict[int, DeskNation] = {}
    for n in Nation.objects.filter(campaign=campaign).select_related("player").order_by("code"):
        count, last = order_stats.get(n.pk, (0, None))
        state = states.get(n.pk)
        nations[n.pk] = DeskNation(
            pk=n.pk,
            code=n.code,
            name=n.name,
            player=n.player.get_username() if n.player is not None else "",
            player_email=n.player.email if n.player is not None else "",
            orders=count,
            last_change=last,
            submitted=count > 0 or (state is not None and state.submitted_at is not None),
            ready=state is not None and state.ready,
            treasury=n.treasury,
            ships=ships.get(n.pk, 0),
        )
    orders = list(Order.objects.filter(turn=turn).order_by("nation_id", "position")) if turn is not None else []
    if orders:
        # In words, as the player's order page writes them: a GM reads names, not stored keys and ids.
        names = campaign_order_names(campaign=campaign)
        for order in orders:
            if order.nation_id in nations:
                nations[order.nation_id].order_lines.append(order_in_words(order, names))
    _last_reports(campaign, nations)
    failed = Delivery.objects.filter(campaign=campaign, state=Delivery.State.FAILED)
    shown = [
        DeskDelivery(
            recipient=d.recipient.get_username(),
            event=d.get_event_display(),
            nation=d.nation.name if d.nation is not None else "",
            attempts=d.attempts,
            error=d.error,
            created_at=d.created_at,
        )
        for d in failed.select_related("recipient", "nation").order_by("-created_at")[:FAILED_MAIL_SHOWN]
    ]
    total = len(shown) if len(shown) < FAILED_MAIL_SHOWN else failed.count()
    return Desk(campaign, turn, list(nations.values()), shown, total, _pending_invitations(campaign))


def _pending_invitations(campaign: Campaign) -> list[DeskInvitation]:
    """The invitations nobody has accepted yet and the GM has not revoked, by nation (one query)."""
    pending = Invitation.objects.filter(campaign=campaign, accepted_at__isnull=True, withdrawn_at__isnull=True)
    now, found = timezone.now(), []
    for invitation in pending.select_related("nation").order_by("nation__name", "-created_at"):
        sent = invitation.sent_at or invitation.created_at
        expires = sent + timedelta(days=INVITATION_MAX_AGE_DAYS)
        found.append(
            DeskInvitation(
                pk=invitation.pk,
                nation=invitation.nation.name,
                email=invitation.email,
                sent_at=sent,
                expires_at=expires,
                expired=expires <= now,
            )
        )
    return found


def _last_reports(campaign: Campaign, nations: dict[int, DeskNation]) -> None:
    """Each nation's report of the latest resolved turn, in words (one query)."""
    latest = Turn.objects.filter(campaign=campaign, status=Turn.Status.RESOLVED).order_by("-number").values("pk")[:1]
    for nation_id, number, body in TurnReport.objects.filter(turn_id__in=Subquery(latest)).values_list(
        "nation_id", "turn__number", "body"
    ):
        if nation_id in nations:
            nations[nation_id].report_turn = number
            nations[nation_id].report_lines = [event.text for event in report_events(body)]


__all__ = ["FAILED_MAIL_SHOWN", "Desk", "DeskDelivery", "DeskInvitation", "DeskNation", "desk_for_gm"]
