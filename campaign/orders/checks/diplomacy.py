"""Checks of the diplomatic orders (RULES.md §10): declare war, offer peace, propose or leave an alliance."""

from __future__ import annotations

from campaign.orders.checks.result import Checked
from campaign.orders.context import OrderContext
from campaign.orders.errors import CheckFailed, OrderCheck, RefusalCode
from campaign.orders.schema import Fields


def diplomacy_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §10: towards another nation of the campaign, from the relation the order starts from,
    one diplomatic order towards a nation a turn."""
    code = f.text("nation")
    chk.subject = code
    other = ctx.board.nations.get(code)
    if other is None:
        chk.refuse(f"there is no nation {code!r} in this campaign", code=RefusalCode.UNKNOWN_NATION, field="nation")
    chk.subject = other.name  # a refusal names the nation, as players read it ("declare war, France")
    try:
        ctx.board.diplomacy_check(kind=chk.kind, nation=ctx.nation, other=other)
    except CheckFailed as failed:
        chk.refuse_failed(failed, field="nation")
    earlier = ctx.listed.diplomacy.get(other.code)
    if earlier is not None:
        chk.refuse(
            f"order {earlier} is already a diplomatic order towards {other.name}; give one per nation a turn",
            code=RefusalCode.ONE_PER_TURN,
            field="nation",
        )
    return {"nation": other.code}, None, 0
