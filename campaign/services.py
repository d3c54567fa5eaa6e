"""Write-side use cases of the campaign app: the ledger, the ruleset, GM adjustments.

Every function is keyword-only, validates its input, and runs in a transaction; a refused call
raises and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q

from campaign.models import Campaign, DiplomaticOffer, LedgerEntry, Nation, Relation
from fleets.models import Ship
from fleets.selectors import navy_counts
from fleets.services import keel_create, ship_name_validate
from ports.models import LandUnit, Port
from rules.construction import ConstructionRefused, check_lay_down
from rules.ruleset import DEFAULTS, SHIP_CLASS_NAMES, Ruleset, validate_flat


class TreasuryError(ValueError):
    """A ledger change would take a treasury below zero."""


def _ledger_line_check(amount: int, reason: str) -> None:
    if amount == 0:
        raise ValueError("A ledger line must move the treasury: amount 0 is not allowed (rules §2).")
    if not reason.strip():
        raise ValueError("A ledger line needs a reason a player can read.")


def _ledger_balance(nation: Nation, amount: int, reason: str) -> int:
    balance = nation.treasury + amount
    if balance < 0:
        raise TreasuryError(
            f"{nation.code} has {nation.treasury} EP; {reason} needs {-amount} EP "
            f"({-balance} EP short). A treasury never goes below 0 (rules §2)."
        )
    return balance


@transaction.atomic
def ledger_post(*, nation: Nation, turn: int, amount: int, kind: str, reason: str) -> LedgerEntry:
    """Move ``nation``'s treasury by ``amount`` EP and write the ledger line (RULES.md §2).

    Locks the nation row so that concurrent posts serialise; the treasury and the balance on the
    line always agree. Refuses zero amounts and any change that would leave the treasury negative.
    ``nation.treasury`` is refreshed on the passed instance.
    """
    _ledger_line_check(amount, reason)
    locked = Nation.objects.select_for_update().get(pk=nation.pk)
    entry = _ledger_write(locked, turn=turn, amount=amount, kind=kind, reason=reason)
    nation.treasury = locked.treasury
    return entry


def _ledger_write(locked: Nation, *, turn: int, amount: int, kind: str, reason: str) -> LedgerEntry:
    """:func:`ledger_post`'s writes, for a caller inside a transaction that already holds ``locked``'s
    row lock and read it under that lock (a lay-down: locking and reading the row again would cost
    two more queries and a savepoint per order, for the same row)."""
    _ledger_line_check(amount, reason)
    balance = _ledger_balance(locked, amount, reason)
    locked.treasury = balance
    locked.save(update_fields=["treasury"])
    return LedgerEntry.objects.create(
        campaign_id=locked.campaign_id,
        nation=locked,
        turn=turn,
        kind=kind,
        amount=amount,
        reason=reason.strip()[:200],
        balance=balance,
    )


@dataclass(frozen=True)
class LedgerPost:
    """One line for :func:`ledger_post_many`."""

    nation_id: int
    amount: int
    kind: str
    reason: str
    unpaid: int = 0


@transaction.atomic
def ledger_post_many(*, turn: int, lines: Sequence[LedgerPost]) -> list[LedgerEntry]:
    """Post many lines at once, in the given order, with :func:`ledger_post`'s checks: all or nothing.

    Phase 9 books every nation's income and upkeep this way: the nations are locked in one query
    (in id order, as every other locker of several nations does), the lines inserted in one statement
    and the treasuries written in one, so the phase's cost does not grow with the number of nations.
    """
    for line in lines:
        _ledger_line_check(line.amount, line.reason)
    ids = sorted({line.nation_id for line in lines})
    nations = {n.pk: n for n in Nation.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    entries: list[LedgerEntry] = []
    for line in lines:
        nation = nations[line.nation_id]
        nation.treasury = _ledger_balance(nation, line.amount, line.reason)
        entries.append(
            LedgerEntry(
                campaign_id=nation.campaign_id,
                nation=nation,
                turn=turn,
                kind=line.kind,
                amount=line.amount,
                reason=line.reason.strip()[:200],
                balance=nation.treasury,
                unpaid=line.unpaid,
            )
        )
    LedgerEntry.objects.bulk_create(entries)
    Nation.objects.bulk_update(list(nations.values()), ["treasury"])
    return entries


def treasury_adjust(*, nation: Nation, amount: int, reason: str) -> LedgerEntry:
    """A GM's correction of a treasury: one ledger line of kind "adjustment"."""
    campaign = Campaign.objects.only("turn_number").get(pk=nation.campaign_id)
    return ledger_post(
        nation=nation,
        turn=campaign.turn_number,
        amount=amount,
        kind=LedgerEntry.Kind.ADJUSTMENT,
        reason=f"GM adjustment: {reason.strip()}",
    )


@transaction.atomic
def campaign_settings_update(*, campaign: Campaign, values: dict[str, object]) -> Campaign:
    """Change some of the campaign's rule settings; raises ``RulesetError`` naming each bad key.

    The campaign stores every setting (a full snapshot), so a later change of a default in the code
    never changes a running campaign.
    """
    clean = validate_flat({**campaign.settings, **values})
    campaign.settings = {**DEFAULTS, **clean}
    campaign.save(update_fields=["settings"])
    return campaign


def lay_down_port_check(*, nation: Nation, port: Port, turn: int) -> None:
    """RULES.md §1: only in an own port with a dockyard, not besieged, not taken this turn or last."""
    if port.campaign_id != nation.campaign_id:
        raise ConstructionRefused("port", f"{port.name} is not a port of this campaign.")
    if port.owner_id != nation.pk:
        raise ConstructionRefused(
            "port", f"Ships are laid down only in an own port (rules §1); {port.name} is not {nation.name}'s."
        )
    if not port.dockyard:
        raise ConstructionRefused("port", f"{port.name} has no dockyard; ships are laid down only where there is one.")
    if port.siege_turns > 0:
        raise ConstructionRefused("port", f"{port.name} is besieged; no ship can be laid down there (rules §1).")
    if port.taken_turn is not None and port.taken_turn >= turn - 1:
        raise ConstructionRefused(
            "port",
            f"{port.name} was taken in turn {port.taken_turn}; it can build again from turn "
            f"{port.taken_turn + 2} (rules §1, §7).",
            numbers={"taken_turn": port.taken_turn, "from_turn": port.taken_turn + 2},
        )


def raise_port_check(*, nation: Nation, port: Port, what: str = "land unit") -> None:
    """RULES.md §7: land units and siege trains are raised "in an own port that is not besieged".
    The one check, made by the raise order's check at submission and by :func:`land_unit_raise` in
    phase 2. Raises :class:`ConstructionRefused` with rule ``not_own_port`` or ``besieged``."""
    if port.owner_id != nation.pk:
        raise ConstructionRefused(
            "not_own_port", f"a {what} is raised only in an own port (rules §7); {port.name} is not {nation.name}'s"
        )
    if port.siege_turns > 0:
        raise ConstructionRefused("besieged", f"{port.name} is besieged; no {what} can be raised there (rules §7)")


@transaction.atomic
def ship_lay_down(
    *,
    nation: Nation,
    ship_class: str,
    name: str,
    port: Port,
    campaign: Campaign | None = None,
    ruleset: Ruleset | None = None,
) -> Ship:
    """Lay down a new ship now: check §1 limits, pay through the ledger, create the keel.

    Used by the GM's admin and by phase 2 of a turn. Locks the nation first, so two lay-downs
    against one treasury or one quota are settled one after the other. A refusal raises
    :class:`ConstructionRefused` (or ``ShipNameError``) and changes nothing. ``campaign`` and
    ``ruleset``: the nation's campaign and its ruleset, when the caller read them in this transaction
    already (phase 2: its turn number and year cannot change within the phase), else read here.
    """
    if campaign is None:
        campaign = Campaign.objects.get(pk=nation.campaign_id)
    locked = Nation.objects.select_for_update().get(pk=nation.pk)
    if ruleset is None:
        ruleset = campaign.ruleset
    turn = campaign.turn_number
    lay_down_port_check(nation=locked, port=port, turn=turn)
    cleaned_name = ship_name_validate(campaign_id=campaign.pk, original_nation_id=locked.pk, name=name)
    cost = check_lay_down(
        ruleset,
        navy=locked.navy,
        nation_name=locked.name,
        year=campaign.year,
        ship_class=ship_class,
        counts=navy_counts(nation_id=locked.pk),
        available_ep=locked.treasury,
    )
    if cost:
        # The nation's row is locked and read above, in this transaction: the ledger writes need not
        # lock it again.
        _ledger_write(
            locked,
            turn=turn,
            amount=-cost,
            kind=LedgerEntry.Kind.LAY_DOWN,
            reason=f"Laid down {SHIP_CLASS_NAMES[ship_class]} {cleaned_name} at {port.name}",
        )
    nation.treasury = locked.treasury
    return keel_create(
        ruleset=ruleset,
        nation_id=locked.pk,
        crew=locked.crew,
        port=port,
        ship_class=ship_class,
        name=cleaned_name,
        turn=turn,
    )


@transaction.atomic
def land_unit_raise(
    *, nation: Nation, port: Port, siege_train: bool, campaign: Campaign | None = None, ruleset: Ruleset | None = None
) -> LandUnit:
    """RULES.md §7: "Raise land unit" (3 EP) or "raise siege train" (5 EP) in an own port that is not
    besieged, joining its garrison; paid through the ledger. Refusals raise ``ConstructionRefused``.
    ``campaign`` and ``ruleset`` as for :func:`ship_lay_down`."""
    if campaign is None:
        campaign = Campaign.objects.get(pk=nation.campaign_id)
    if ruleset is None:
        ruleset = campaign.ruleset
    what = "siege train" if siege_train else "land unit"
    raise_port_check(nation=nation, port=port, what=what)
    cost = ruleset["economy.raise_siege_train_cost" if siege_train else "economy.raise_land_unit_cost"]
    if cost:
        try:
            ledger_post(
                nation=nation,
                turn=campaign.turn_number,
                amount=-cost,
                kind=LedgerEntry.Kind.RAISE,
                reason=f"Raised a {what} at {port.name}",
            )
        except TreasuryError as exc:
            raise ConstructionRefused("treasury", str(exc)) from exc
    return LandUnit.objects.create(
        campaign=campaign,
        nation=nation,
        siege_train=siege_train,
        state=LandUnit.State.GARRISON,
        port=port,
        raised_turn=campaign.turn_number,
    )


# --- diplomacy (RULES.md §10) ------------------------------------------------------------------------


@transaction.atomic
def relation_set(*, campaign: Campaign, a: Nation, b: Nation, state: str) -> Relation:
    """Set the relation between ``a`` and ``b`` (RULES.md §10), creating the row if it is missing.

    The row is stored once per pair with the lower nation id as ``a`` (a database constraint), and
    every offer between the pair is dropped: an offer answers the relation it was made in.
    """
    if a.pk == b.pk:
        raise ValueError("A nation has no relation with itself.")
    if state not in Relation.State.values:
        raise ValueError(f"Unknown relation {state!r}; allowed: {', '.join(Relation.State.values)}.")
    low, high = sorted((a.pk, b.pk))
    relation, _ = Relation.objects.update_or_create(campaign=campaign, a_id=low, b_id=high, defaults={"state": state})
    DiplomaticOffer.objects.filter(
        Q(from_nation=a, to_nation=b) | Q(from_nation=b, to_nation=a), campaign=campaign
    ).delete()
    return relation


def offer_store(*, campaign: Campaign, from_nation: Nation, to_nation: Nation, kind: str, turn: int) -> DiplomaticOffer:
    """Store (or renew) an offer of peace or alliance made in ``turn``; it can be taken up in the next."""
    offer, _ = DiplomaticOffer.objects.update_or_create(
        campaign=campaign, from_nation=from_nation, to_nation=to_nation, kind=kind, defaults={"turn": turn}
    )
    return offer


def offers_expire(*, campaign: Campaign, before_turn: int) -> int:
    """Drop the offers made before ``before_turn``: each can be taken up only in the turn after it."""
    deleted, _ = DiplomaticOffer.objects.filter(campaign=campaign, turn__lt=before_turn).delete()
    return deleted
