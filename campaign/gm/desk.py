"""The GM's desk for one campaign (issue 11): everything a GM checks before a deadline, on one page.

:func:`desk_for_gm` reads the open turn, a row per nation (player, orders entered and their last
change, ready, treasury, ships afloat), every nation's orders and last report, the mail that failed,
the invitations not yet accepted, and the nations without orders (the NMR list) — a fixed number of
queries however many nations, orders and reports the campaign holds (tested at two sizes). The whole
map without fog of war is :func:`campaign.pages.map.page.map_for_gm`. Permission is the caller's: the
admin view checks that the user runs the campaign.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import Count, F, Max, Subquery
from django.utils import timezone

from battles.models import TabletopBattle
from campaign.models import (
    Campaign,
    Delivery,
    Invitation,
    Nation,
    NationTurn,
    NmrPolicy,
    Order,
    Turn,
    TurnReport,
    Webhook,
)
from campaign.orders.describe import order_in_words
from campaign.orders.names import campaign_order_names
from campaign.players.services import INVITATION_MAX_AGE_DAYS
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
    """An invitation not yet accepted (nor revoked or replaced): who, for which nation (none: a co-GM's),
    what it offers in words ("command France", "help run the campaign as a co-GM"), its newest link."""

    pk: int
    nation: str
    offered: str
    email: str
    sent_at: datetime
    expires_at: datetime
    expired: bool


@dataclass
class DeskTable:
    """A battle (or storming) on the table that the GM has to answer: a player's request, or one held
    at the table (waiting, entered, disputed or confirmed)."""

    pk: int
    kind: str  # TabletopBattle.Kind
    status: str  # TabletopBattle.Status
    status_text: str
    place: str
    turn: int
    requested_by: str
    dispute: str

    @property
    def what(self) -> str:
        return (
            f"the storming of {self.place}"
            if self.kind == TabletopBattle.Kind.STORMING
            else f"the battle at {self.place}"
        )


@dataclass
class NeedsYou:
    """One line of the desk's "Needs you" list: what waits for the GM, in words, and which buttons
    answer it (``kind`` picks them in the template; the ids say what they act on)."""

    kind: str  # setup | failed_turn | nmr | table | request | dispute | confirmed | mail | invitation | webhook
    text: str
    error: str = ""
    turn_pk: int | None = None
    table_pk: int | None = None
    invitation_pk: int | None = None
    email: str = ""  # whom to write to (a switched-off webhook's owner)


#: An invitation not accepted this close to the end of its link's life is listed as "expiring".
INVITATION_EXPIRING = timedelta(days=2)


@dataclass
class DeskHook:
    """A webhook switched off after failing again and again: it posts nothing until registered again."""

    owner: str
    owner_email: str
    whose: str  # the nation's name, or "the campaign" for a GM's hook
    host: str
    reason: str


#: Switched-off webhooks listed among the desk's "Needs you" lines, the latest first.
SWITCHED_OFF_HOOKS_SHOWN = 10


@dataclass
class Desk:
    campaign: Campaign
    turn: Turn | None
    nations: list[DeskNation]
    failed_mail: list[DeskDelivery]
    failed_mail_total: int
    invitations: list[DeskInvitation] = field(default_factory=list)
    tables: list[DeskTable] = field(default_factory=list)
    switched_off_hooks: list[DeskHook] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """The turn's resolution failed (it keeps its error); the sweep stops retrying at TURN_MAX_ATTEMPTS."""
        return self.turn is not None and self.turn.status == Turn.Status.RESOLVING and bool(self.turn.error)

    @property
    def gave_up(self) -> bool:
        return self.failed and self.turn is not None and self.turn.attempts >= settings.TURN_MAX_ATTEMPTS

    @property
    def requests(self) -> list[DeskTable]:
        return [t for t in self.tables if t.status == TabletopBattle.Status.REQUESTED]

    @property
    def disputes(self) -> list[DeskTable]:
        return [t for t in self.tables if t.status == TabletopBattle.Status.DISPUTED]

    @property
    def at_table(self) -> list[DeskTable]:
        return [t for t in self.tables if t.status in TabletopBattle.OUTSTANDING]

    @property
    def needs_you(self) -> list[NeedsYou]:
        """Everything waiting for the GM, the most urgent first (read from what the desk holds: no query)."""
        needs: list[NeedsYou] = []
        turn = self.turn
        if self.campaign.status == Campaign.Status.SETUP:
            needs.append(
                NeedsYou(
                    "setup",
                    f"{self.campaign.name} is being set up: its clock does not run yet. Invite the players, "
                    "review the rules, then start it.",
                )
            )
        if turn is not None and self.failed:
            if self.gave_up:
                text = (
                    f"The resolution of turn {turn.number} failed {_times(turn.attempts)} and stopped: "
                    "fix the cause, then retry it (finished phases are not repeated)."
                )
            else:
                text = (
                    f"The resolution of turn {turn.number} failed ({_times(turn.attempts)}); the sweep tries it again."
                )
            needs.append(NeedsYou("failed_turn", text, error=turn.error, turn_pk=turn.pk))
        if turn is not None and turn.status == Turn.Status.OPEN and self.nmr_waits:
            needs.append(NeedsYou("nmr", self._missing_orders_text(turn), turn_pk=turn.pk))
        for t in self.tables:
            if t.status == TabletopBattle.Status.REQUESTED:
                who = t.requested_by or "A player"
                needs.append(
                    NeedsYou(
                        "request", f"{who} asks for {t.what} (turn {t.turn}) to be fought at the table.", table_pk=t.pk
                    )
                )
            elif t.status == TabletopBattle.Status.DISPUTED:
                needs.append(
                    NeedsYou(
                        "dispute",
                        f"The result of {t.what} (turn {t.turn}) is disputed: {t.dispute}",
                        table_pk=t.pk,
                    )
                )
            elif t.status == TabletopBattle.Status.CONFIRMED:
                needs.append(
                    NeedsYou(
                        "confirmed", f"The result of {t.what} (turn {t.turn}) awaits your approval.", table_pk=t.pk
                    )
                )
            elif t.status in TabletopBattle.OUTSTANDING:
                needs.append(
                    NeedsYou("table", f"Turn {t.turn} waits for {t.what}: {t.status_text.lower()}.", table_pk=t.pk)
                )
        if self.failed_mail_total:
            n = self.failed_mail_total
            needs.append(NeedsYou("mail", f"{n} mail{'s' if n != 1 else ''} could not be sent."))
        now = timezone.now()
        for i in self.invitations:
            if i.expires_at - now <= INVITATION_EXPIRING:
                # In the reader's time zone: the desk page's (the GM's setting) or the digest mail's.
                when = timezone.localtime(i.expires_at)
                state = "has expired" if i.expired else f"expires {when:%a %-d %b %H:%M} ({when.tzname()})"
                needs.append(
                    NeedsYou(
                        "invitation",
                        f"The invitation of {i.email} to {i.offered} is not accepted and its link {state}.",
                        invitation_pk=i.pk,
                    )
                )
        needs.extend(self._switched_off_hook_needs())
        return needs

    def _switched_off_hook_needs(self) -> list[NeedsYou]:
        """Each switched-off webhook: its owner was mailed, but a player's bot or the group's channel
        hears nothing more until it is registered again, which the GM may want to chase."""
        return [
            NeedsYou(
                "webhook",
                f"The webhook of {h.owner} ({h.whose}) to {h.host} was switched off after failing "
                f"{settings.WEBHOOK_MAX_FAILURES} times in a row ({h.reason.rstrip('.')}); it posts nothing "
                "until its owner registers it again.",
                email=h.owner_email,
            )
            for h in self.switched_off_hooks
        ]

    @property
    def missing(self) -> list[DeskNation]:
        return [n for n in self.nations if n.missing]

    @property
    def ready_count(self) -> int:
        return sum(1 for n in self.nations if n.ready)

    def _missing_orders_text(self, turn: Turn) -> str:
        """What "the GM is asked" waits for: the missing nations' orders, or the GM's word once entered late."""
        names = ", ".join(n.name for n in self.missing)
        entered = [n.name for n in self.missing if n.orders] if self.deadline_passed else []
        if entered:
            others = [n.name for n in self.missing if not n.orders]
            return (
                f"Turn {turn.number} waits for you: you entered late orders for {', '.join(entered)}; "
                "resolve it now once they are complete"
                + (f" (no orders yet from {', '.join(others)})" if others else "")
                + ", or set a later deadline."
            )
        when = (
            "its deadline has passed and it waits for you"
            if self.deadline_passed
            else "at its deadline it will wait for you"
        )
        return (
            f"Turn {turn.number} has no orders from {names}; {when}: enter orders for "
            f"{'it' if len(self.missing) == 1 else 'them'}, set a later deadline, or resolve it now."
        )

    @property
    def deadline_passed(self) -> bool:
        return self.turn is not None and self.turn.deadline is not None and self.turn.deadline <= timezone.now()

    @property
    def nmr_waits(self) -> bool:
        """With the "GM is asked" policy, a due turn with missing nations waits for the GM."""
        return self.campaign.nmr_policy == NmrPolicy.ASK_GM and bool(self.missing)


#: Failed deliveries listed on the desk; the rest are counted and linked (the mail's admin page).
FAILED_MAIL_SHOWN = 20


def desk_for_gm(*, campaign: Campaign) -> Desk:
    """The desk of ``campaign`` (at most 10 queries, whatever its size)."""
    turn = Turn.objects.filter(
        campaign=campaign, status__in=[Turn.Status.OPEN, Turn.Status.RESOLVING, Turn.Status.TABLE]
    ).first()
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
            submitted=_orders_given(turn, count, state.submitted_at if state is not None else None),
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
                line = order_in_words(order, names)
                if order.late_by:  # issue 26: entered by a GM after the deadline, with the reason given
                    line += f" — entered after the deadline by {order.late_by}: {order.late_reason}"
                nations[order.nation_id].order_lines.append(line)
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
    return Desk(
        campaign,
        turn,
        list(nations.values()),
        shown,
        total,
        pending_invitations(campaign),
        _open_tables(campaign),
        _switched_off_hooks(campaign),
    )


def _switched_off_hooks(campaign: Campaign) -> list[DeskHook]:
    """The campaign's webhooks switched off after failing, the latest first (one query)."""
    rows = (
        Webhook.objects.filter(campaign=campaign, active=False)
        .select_related("owner", "nation")
        .order_by("-disabled_at", "-pk")[:SWITCHED_OFF_HOOKS_SHOWN]
    )
    return [
        DeskHook(
            owner=h.owner.get_username(),
            owner_email=h.owner.email,
            whose=h.nation.name if h.nation is not None else "the campaign",
            host=urlsplit(h.url).hostname or h.url,
            reason=h.disabled_reason or "no reason recorded",
        )
        for h in rows
    ]


def _orders_given(turn: Turn | None, count: int, submitted_at: datetime | None) -> bool:
    """Whether a nation has given this turn's orders: any, before the deadline; after it, only those
    given by the deadline count (the GM's late entries leave it missing, as the players' header says,
    and the turn waits for the GM under "the GM is asked")."""
    if turn is not None and turn.deadline is not None and turn.deadline <= timezone.now():
        return submitted_at is not None and submitted_at <= turn.deadline
    return count > 0 or submitted_at is not None


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


def _open_tables(campaign: Campaign) -> list[DeskTable]:
    """The battles on the table the GM has to answer: requests, and those the turn waits for (one query)."""
    wanted = (TabletopBattle.Status.REQUESTED, *TabletopBattle.OUTSTANDING)
    rows = TabletopBattle.objects.filter(campaign=campaign, status__in=wanted).select_related(
        "turn", "sea_zone", "port", "requested_by"
    )
    return [
        DeskTable(
            pk=t.pk,
            kind=t.kind,
            status=t.status,
            status_text=t.get_status_display(),
            place=t.port.name if t.port is not None else t.sea_zone.name,
            turn=t.turn.number,
            requested_by=t.requested_by.name if t.requested_by is not None else "",
            dispute=t.dispute,
        )
        for t in rows.order_by("turn__number", "place")
    ]


def pending_invitations(campaign: Campaign) -> list[DeskInvitation]:
    """The invitations nobody has accepted yet and the GM has not revoked: the players' by nation, then
    the co-GMs' (one query)."""
    pending = Invitation.objects.filter(campaign=campaign, accepted_at__isnull=True, withdrawn_at__isnull=True)
    now, found = timezone.now(), []
    by_nation = F("nation__name").asc(nulls_last=True)
    for invitation in pending.select_related("nation").order_by(by_nation, "-created_at"):
        sent = invitation.sent_at or invitation.created_at
        expires = sent + timedelta(days=INVITATION_MAX_AGE_DAYS)
        found.append(
            DeskInvitation(
                pk=invitation.pk,
                nation=invitation.nation.name if invitation.nation else "",
                offered=invitation.offered,
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


__all__ = [
    "FAILED_MAIL_SHOWN",
    "Desk",
    "DeskDelivery",
    "DeskInvitation",
    "DeskNation",
    "DeskTable",
    "NeedsYou",
    "desk_for_gm",
]
