"""Orders close at the deadline (issue 26), whatever the campaign's missing-orders policy.

With "standing orders hold" or "fleets return to port" the turn resolves at its deadline (the sweep
claims it within seconds): until then nobody changes orders. With "the GM is asked" the turn waits
after its deadline for the nations that gave no orders ("missing": no submission by the deadline);
then only a GM of the campaign (or the command line) may enter a missing nation's orders, never its
player nor any other nation's. Each order the GM enters then is marked late: who entered it and the
reason the GM gives, shown on the desk, in the audit log and in the nation's turn report.

A missing nation is one whose last submission (``NationTurn.submitted_at``) is empty or later than the
deadline — after it only the GM's late entries can have set it — so a nation the GM is working on
stays "missing" until the turn resolves.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils import timezone

from campaign.audit import CommandLine, actor_label
from campaign.models import Campaign, Nation, NationTurn, NmrPolicy, Turn
from campaign.orders.errors import OrderRefused, RefusalCode
from campaign.page_header import names_in_words
from campaign.permissions import runs_campaign
from campaign.plumbing.json_text import text_fault

#: The body key (API) and form field (web) with the GM's reason for a late order.
LATE_REASON_FIELD = "late_reason"
#: Stored reasons are at most this long (the column's length).
LATE_REASON_MAX = 300


@dataclass(frozen=True)
class LateEntry:
    """Who enters orders after the deadline (the GM's name as the audit log writes it) and why."""

    by: str
    reason: str


class DeadlinePassed(OrderRefused):
    """A change of orders after the turn's deadline by someone who may not make it; nothing changed.
    The API answers it 409 with the stable code ``deadline_passed``."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code=RefusalCode.DEADLINE_PASSED)


def deadline_passed(turn: Turn, campaign: Campaign) -> bool:
    """The turn's deadline has passed while its campaign runs: a paused campaign's clock stands still
    (resuming moves the deadline on by the pause), so its orders stay open."""
    return turn.deadline is not None and turn.deadline <= timezone.now() and campaign.status == Campaign.Status.ACTIVE


def _is_gm(actor: AbstractBaseUser | AnonymousUser | CommandLine | None, campaign_id: int) -> bool:
    if isinstance(actor, CommandLine):
        return True
    return actor is not None and bool(actor.is_authenticated) and runs_campaign(actor, campaign_id)


def missing_at_deadline(*, turn: Turn, nation_id: int) -> bool:
    """Whether the nation had given no orders by the turn's deadline (one query)."""
    submitted = NationTurn.objects.filter(turn=turn, nation_id=nation_id).values_list("submitted_at", flat=True)
    at = next(iter(submitted), None)
    return at is None or (turn.deadline is not None and at > turn.deadline)


def missing_names(*, turn: Turn) -> list[str]:
    """The names of the nations with a player that gave no orders by the deadline, by name (one query)."""
    on_time = NationTurn.objects.filter(turn=turn, submitted_at__isnull=False)
    if turn.deadline is not None:
        on_time = on_time.filter(submitted_at__lte=turn.deadline)
    return list(
        Nation.objects.filter(campaign_id=turn.campaign_id, player__isnull=False)
        .exclude(pk__in=on_time.values("nation_id"))
        .order_by("name")
        .values_list("name", flat=True)
    )


def closed_for_players(turn: Turn, campaign: Campaign) -> str:
    """What a player reads when the deadline has passed: orders are closed, and what the turn waits for."""
    if campaign.nmr_policy != NmrPolicy.ASK_GM:
        return f"The deadline of turn {turn.number} has passed: orders are closed and the turn resolves now."
    names = missing_names(turn=turn)
    if not names:
        return f"The deadline of turn {turn.number} has passed: orders are closed and the turn resolves now."
    return (
        f"The deadline of turn {turn.number} has passed: orders are closed. The turn waits for the GM to decide "
        f"on {names_in_words(names)}'s missing orders; only the GM can enter them now."
    )


def deadline_gate(
    *,
    turn: Turn,
    nation: Nation,
    actor: AbstractBaseUser | AnonymousUser | CommandLine | None,
    late_reason: str = "",
    entering: bool = True,
) -> LateEntry | None:
    """Refuse a change of ``nation``'s orders after ``turn``'s deadline unless a GM makes it for a
    missing nation under the "GM is asked" policy; ``entering``: the change stores an order (then the
    GM must give a reason). Returns the late mark for the orders stored, or None before the deadline.
    Called by every order service under the turn's lock."""
    campaign = turn.campaign
    if not deadline_passed(turn, campaign):
        return None
    if campaign.nmr_policy != NmrPolicy.ASK_GM or not _is_gm(actor, campaign.pk):
        raise DeadlinePassed(closed_for_players(turn, campaign))
    if not missing_at_deadline(turn=turn, nation_id=nation.pk):
        raise DeadlinePassed(
            f"The deadline of turn {turn.number} has passed and {nation.name} gave its orders in time: they stand "
            "as given. After the deadline only a missing nation's orders can be entered."
        )
    reason = " ".join(late_reason.split())
    if entering and not reason:
        raise OrderRefused(
            f"The deadline of turn {turn.number} has passed: say why you enter {nation.name}'s orders late "
            f"(the reason is shown to {nation.name} and kept in the audit log).",
            code=RefusalCode.LATE_REASON_REQUIRED,
            field=LATE_REASON_FIELD,
        )
    fault = text_fault(reason)
    if fault:
        raise OrderRefused(
            f"The reason for late orders holds {fault}; write it in plain text.",
            code=RefusalCode.BAD_TEXT,
            field=LATE_REASON_FIELD,
        )
    if len(reason) > LATE_REASON_MAX:
        raise OrderRefused(
            f"The reason for late orders is {len(reason)} characters long; at most {LATE_REASON_MAX} are allowed.",
            code=RefusalCode.OUT_OF_RANGE,
            field=LATE_REASON_FIELD,
        )
    return LateEntry(by=actor_label(None if isinstance(actor, CommandLine) else actor)[:150], reason=reason)


def late_entry_open(*, turn: Turn | None, nation: Nation, campaign: Campaign, is_gm: bool) -> tuple[bool, str]:
    """For a page: (whether the viewer enters orders late — the form asks for a reason, the message that
    orders are closed to the viewer or ""). Before the deadline: (False, "")."""
    if turn is None or not deadline_passed(turn, campaign):
        return False, ""
    if not is_gm or campaign.nmr_policy != NmrPolicy.ASK_GM:
        return False, closed_for_players(turn, campaign)
    if not missing_at_deadline(turn=turn, nation_id=nation.pk):
        return False, (
            f"The deadline of turn {turn.number} has passed and {nation.name} gave its orders in time: "
            "they stand as given."
        )
    return True, ""
