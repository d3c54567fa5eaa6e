"""The open turn an order change works on, locked for the change's transaction, and the check that
the writer's list is still the one it read: the first steps of every change of a nation's order list
(:mod:`campaign.orders.services`).
"""

from __future__ import annotations

from campaign.models import Campaign, Nation, Turn
from campaign.orders.errors import ListChanged, OrderRefused, RefusalCode, TurnClosed
from campaign.orders.selectors import order_list_version

_CLOSED = RefusalCode.TURN_CLOSED


#: The fields of the locked turn and its campaign an order change reads (the turn's number, year and
#: status, the campaign's name, status and settings — its ruleset); any other is read if asked for.
TURN_FIELDS = (
    "campaign",
    "number",
    "year",
    "season",
    "status",
    "deadline",
    "campaign__name",
    "campaign__slug",
    "campaign__status",
    "campaign__settings",
    "campaign__nmr_policy",
    "campaign__year",
    "campaign__season",
    "campaign__turn_number",
)


def turn_locked(*, campaign_id: int, turn_id: int | None = None, named: int | None = None) -> Turn:
    """The open turn, locked until the end of the transaction (a claim waits for us, we for it), with
    its campaign read in the same query (only the turn row is locked); the order context reads the
    campaign from it rather than again.

    ``named``: the turn the writer read (a form's hidden ``turn``, the API's ``"turn"`` or ETag). A
    page kept open over a resolution names a turn that is no longer open: :class:`TurnClosed`, so
    the write never lands in the next turn (issue 26)."""
    # Only what an order change reads of the two rows (the snapshot and dice log are large JSON blobs):
    # building the query for every column of both was most of the cost of this read, done per change.
    turns = (
        Turn.objects.select_for_update(of=("self",))
        .select_related("campaign")
        .only(*TURN_FIELDS)
        .filter(campaign_id=campaign_id)
    )
    # Unordered: a pk matches one row, and a campaign has at most one unresolved turn (a constraint);
    # Meta's ordering by "campaign" would join it to sort by its name.
    turns = turns.filter(pk=turn_id) if turn_id is not None else turns.filter(status=Turn.Status.OPEN)
    turn = next(iter(turns.order_by()[:1]), None)
    campaign = turn.campaign if turn is not None else Campaign.objects.get(pk=campaign_id)
    if campaign.status == Campaign.Status.ENDED:
        raise OrderRefused(f"{campaign.name} has ended; orders are closed.", code=_CLOSED)
    if named is not None and (turn is None or turn.status != Turn.Status.OPEN or turn.number != named):
        open_number = (
            Turn.objects.filter(campaign_id=campaign_id, status=Turn.Status.OPEN)
            .values_list("number", flat=True)
            .first()
        )
        raise TurnClosed(asked=named, open_turn=open_number)
    if turn is not None and turn.status == Turn.Status.OPEN:
        return turn
    if turn is not None and turn.status == Turn.Status.RESOLVED:
        raise OrderRefused(f"Turn {turn.number} has been resolved; its orders are closed.", code=_CLOSED)
    if turn is not None or Turn.objects.filter(campaign_id=campaign_id, status=Turn.Status.RESOLVING).exists():
        raise OrderRefused("The turn is being resolved; orders are closed.", code=_CLOSED)
    raise OrderRefused(f"{campaign.name} has no open turn; orders are closed.", code=_CLOSED)


def list_unchanged(*, nation: Nation, turn: Turn, version: str | None) -> None:
    """With ``version`` (the list version the writer read, from the API's If-Match), refuse a change
    of a list that changed meanwhile; checked under the turn lock, so of two writers racing with the
    same version one wins and the other is refused."""
    if version is not None and order_list_version(nation_id=nation.pk, turn_id=turn.pk) != version:
        raise ListChanged()
