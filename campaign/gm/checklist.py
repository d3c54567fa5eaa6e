"""What the GM checks before pressing Start (the Start page): each nation's player, or the invitation
not yet accepted, and how many house rules the campaign has."""

from __future__ import annotations

from dataclasses import dataclass

from campaign.gm.desk import pending_invitations
from campaign.models import Campaign, Nation
from rules.ruleset import SETTINGS


@dataclass(frozen=True)
class SetupNation:
    """One nation on the Start check list: who plays it, or whose invitation waits, or nobody."""

    name: str
    player: str  # username, or ""
    invited: str  # the address of an open invitation, or ""

    @property
    def ok(self) -> bool:
        return bool(self.player)


@dataclass(frozen=True)
class SetupChecklist:
    nations: list[SetupNation]
    house_rules: int  # how many rule settings differ from the rules' own numbers

    @property
    def unplayed(self) -> list[SetupNation]:
        return [n for n in self.nations if not n.ok]


def setup_checklist(*, campaign: Campaign) -> SetupChecklist:
    """What the GM checks before pressing Start: each nation's player (or the invitation not yet
    accepted), and how many house rules the campaign has (two queries)."""
    invited: dict[str, str] = {}
    for invitation in pending_invitations(campaign):  # the newest first
        if invitation.nation:  # a co-GM's invitation is for no nation
            invited.setdefault(invitation.nation, invitation.email)
    nations = [
        SetupNation(name=n.name, player=n.player.get_username() if n.player else "", invited=invited.get(n.name, ""))
        for n in Nation.objects.filter(campaign=campaign).select_related("player").order_by("name")
    ]
    flat = campaign.ruleset.flat
    house = sum(1 for setting in SETTINGS if flat.get(setting.key, setting.default) != setting.default)
    return SetupChecklist(nations=nations, house_rules=house)
