"""The "What's next" strip at the top of a player's dashboard (issue 28): what the turn asks of the
nation now — the deadline, the orders entered, the unread dispatches, the offers waiting for its
answer, last turn's headline and whether it is ready, with what ready means.

Built from what the dashboard already read (no query of its own, beyond the report summary's battle
facts when last turn had battles): the counts ride on the viewer's and the order list's reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from campaign.orders.offer_answers import ANSWER_KIND
from campaign.pages.diplomacy import DiplomacyPanel, PendingOffer
from campaign.pages.reports import ReportView
from campaign.viewer import Viewer

READY_MEANS = "the turn may resolve before the deadline once every nation is ready; changing an order clears it."


@dataclass(frozen=True)
class OfferToAnswer:
    """An offer made to the nation, and whether its accepting order is already in this turn's list."""

    offer: PendingOffer
    accepted: bool

    @property
    def answer_kind(self) -> str:
        return ANSWER_KIND.get(self.offer.kind, "")


@dataclass(frozen=True)
class NextStrip:
    turn_number: int | None
    turn_open: bool
    deadline: datetime | None
    orders_entered: int
    unread_dispatches: int
    offers: list[OfferToAnswer]
    ready: bool
    headline: str
    headline_turn: int | None

    @property
    def ready_means(self) -> str:
        return READY_MEANS


def next_strip(
    viewer: Viewer,
    *,
    orders_entered: int,
    answers_listed: frozenset[tuple[str, str]],
    dip: DiplomacyPanel,
    report: ReportView | None,
) -> NextStrip:
    """The strip for ``viewer``'s nation. ``answers_listed``: (order kind, nation code) of the
    diplomatic orders in this turn's list, so an offer already accepted says so."""
    turn = viewer.turn
    offers = [
        OfferToAnswer(o, (ANSWER_KIND.get(o.kind, ""), o.from_code) in answers_listed) for o in dip.offers if o.to_us
    ]
    return NextStrip(
        turn_number=turn.number if turn else None,
        turn_open=bool(turn and turn.is_open),
        deadline=turn.deadline if turn else None,
        orders_entered=orders_entered,
        unread_dispatches=viewer.unread_dispatches,
        offers=offers,
        ready=viewer.ready,
        headline=report.summary.headline if report else "",
        headline_turn=report.turn_number if report else None,
    )


__all__ = ["READY_MEANS", "NextStrip", "OfferToAnswer", "next_strip"]
