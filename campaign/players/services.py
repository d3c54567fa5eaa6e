"""Who plays which nation: invite by email, accept the signed link, replace a player (issue 11).

Each is one service used by the admin and by its command (``invite_player``), audited. A player loses
a nation the moment the row changes: every page, the API and the admin ask ``Nation.player`` on each
request (campaign.permissions), so there is nothing else to revoke.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.contrib.auth.password_validation import validate_password
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from campaign.audit import audit_record
from campaign.models import Campaign, Invitation, Nation
from campaign.models.audit import AuditAction
from campaign.outbox.mail import invitation_record, nation_given_record, nation_taken_record

Actor = AbstractBaseUser | AnonymousUser | None

#: Signed links carry the invitation's id under this salt; older than this they are refused.
INVITATION_SALT = "admiralty.invitation"
INVITATION_MAX_AGE_DAYS = 30


class PlayerError(ValueError):
    """An invitation or a change of player that cannot be made (the message says why and what would do)."""


class InvitationClosed(PlayerError):
    """A link to an invitation that was accepted, revoked or replaced: it no longer gives anything."""


def campaign_people(campaign: Campaign) -> QuerySet[Any]:
    """The active accounts a GM of ``campaign`` may pick (as GM, co-GM or a nation's player): its own
    people — its GMs, its players and whoever was invited to it — never every account of the site."""
    people = (
        Q(campaigns_run=campaign)
        | Q(campaigns_co_run=campaign)
        | Q(nations__campaign=campaign)
        | Q(invitations__campaign=campaign)
    )
    ids = get_user_model().objects.filter(people).values("pk")
    return get_user_model().objects.filter(pk__in=ids, is_active=True).order_by("username")


def account_by_email(email: str) -> Any:
    """The active account whose address is exactly ``email`` (letter case aside), or None: how a GM
    finds someone not yet in the campaign without seeing every account."""
    found = list(get_user_model().objects.filter(email__iexact=email.strip(), is_active=True)[:2])
    return found[0] if len(found) == 1 else None


def invited_address(email: str) -> str:
    """The address as typed, checked and in lower case: mail servers treat addresses without regard to
    letter case in practice, so "Villeneuve@Example.ORG" is stored, compared and shown as
    "villeneuve@example.org". ``PlayerError`` for something that is not an address."""
    address = email.strip().lower()
    try:
        validate_email(address)
    except ValidationError:
        raise PlayerError(f"{email!r} is not an email address; give one such as name@example.org.") from None
    return address


def invitation_url(invitation: Invitation) -> str:
    """The site path of the invitation's signed link (the mail makes it absolute)."""
    token = signing.dumps(invitation.pk, salt=INVITATION_SALT, compress=True)
    return reverse("campaign:invitation", args=[token])


def invitation_from_token(token: str) -> Invitation:
    """The invitation a link names; ``PlayerError`` for a forged, mistyped, expired or used link."""
    try:
        pk = signing.loads(token, salt=INVITATION_SALT, max_age=INVITATION_MAX_AGE_DAYS * 86400)
    except signing.SignatureExpired:
        raise PlayerError(
            f"This invitation is older than {INVITATION_MAX_AGE_DAYS} days; ask the GM for a new one."
        ) from None
    except signing.BadSignature:
        raise PlayerError("This invitation link is not valid: check that it was copied whole.") from None
    invitation = Invitation.objects.select_related("campaign", "nation", "user").filter(pk=pk).first()
    if invitation is None:
        raise PlayerError("This invitation no longer exists; ask the GM for a new one.")
    if invitation.accepted_at is not None:
        raise InvitationClosed(
            f"This invitation was accepted already, on {_day(invitation.accepted_at)}; "
            + (
                f"{invitation.nation.name} has its player."
                if invitation.nation
                else "its co-GM helps run the campaign."
            )
        )
    if invitation.revoked:
        raise InvitationClosed(
            f"This invitation to {invitation.offered} in {invitation.campaign.name} was revoked by "
            f"the GM on {_day(invitation.withdrawn_at)}; "
            + (
                "it no longer gives the nation. Ask the GM if you should still play."
                if invitation.nation
                else "it no longer makes you a co-GM. Ask the GM if you should still help run it."
            )
        )
    if invitation.withdrawn_at is not None:
        raise InvitationClosed(
            "This invitation was withdrawn by the GM (another player was invited or given the nation)."
        )
    return invitation


def _day(when: datetime | None) -> str:
    """A date for the reader of a link (in the zone the request activated: theirs, or UTC)."""
    return date_format(timezone.localtime(when), "j F Y") if when is not None else "an earlier day"


def _username_for(email: str) -> str:
    """A free username from the address's local part (letters, digits, ``.-_``), numbered if taken."""
    users = get_user_model().objects
    base = re.sub(r"[^A-Za-z0-9._-]", "", email.split("@", 1)[0])[:30] or "player"
    name, n = base, 1
    while users.filter(username__iexact=name).exists():
        n += 1
        name = f"{base}{n}"
    return name


@transaction.atomic
def player_invite(*, nation: Nation, email: str, actor: Actor, now: datetime | None = None) -> Invitation:
    """Invite ``email`` to play ``nation``: the address's account (found, or made without a password) is
    mailed a signed link; the nation is given when the link is followed. An earlier open invitation to
    the nation is withdrawn."""
    now = now or timezone.now()
    address = invited_address(email)
    campaign = Campaign.objects.get(pk=nation.campaign_id)
    if campaign.status == Campaign.Status.ENDED:
        raise PlayerError(f"{campaign.name} has ended; nobody can be invited to it.")
    users = get_user_model().objects
    matches = list(users.filter(email__iexact=address).order_by("pk")[:2])
    if len(matches) > 1:
        raise PlayerError(
            f"Several accounts use {address}; give the nation to one of them directly (Replace the player)."
        )
    user = matches[0] if matches else users.create_user(_username_for(email.strip()), email=address)
    if user.pk == nation.player_id:
        raise PlayerError(f"{user.get_username()} ({address}) already commands {nation.name}.")
    other = Nation.objects.filter(campaign=campaign, player=user).exclude(pk=nation.pk).first()
    if other is not None:
        raise PlayerError(f"{user.get_username()} ({address}) already commands {other.name}; one nation each.")
    # One nation each holds for invitations too: an open link to another nation would be refused only
    # when followed, and stay on the desk as a dead invitation.
    elsewhere = (
        Invitation.objects.filter(
            campaign=campaign, user=user, nation__isnull=False, accepted_at__isnull=True, withdrawn_at__isnull=True
        )
        .exclude(nation=nation)
        .select_related("nation")
        .first()
    )
    if elsewhere is not None:
        raise PlayerError(
            f"{user.get_username()} ({address}) is already invited to {elsewhere.offered}; one nation "
            f"each. Revoke that invitation on the desk first to invite this address to {nation.name}."
        )
    Invitation.objects.filter(nation=nation, accepted_at__isnull=True, withdrawn_at__isnull=True).update(
        withdrawn_at=now
    )
    return _invitation_sent(
        campaign=campaign,
        nation=nation,
        address=address,
        user=user,
        actor=actor,
        now=now,
        action=AuditAction.PLAYER_INVITED,
        summary=f"{address} invited to command {nation.name}.",
    )


def _invitation_sent(
    *,
    campaign: Campaign,
    nation: Nation | None,
    address: str,
    user: Any,
    actor: Actor,
    now: datetime,
    action: AuditAction,
    summary: str,
) -> Invitation:
    """The invitation written, its mail recorded (sent after commit) and the GM's action audited: the
    same for a nation's player and for a co-GM (``nation`` None)."""
    invited_by = actor if actor is not None and actor.is_authenticated else None
    invitation = Invitation.objects.create(
        campaign=campaign,
        nation=nation,
        email=address,
        user=user,
        invited_by_id=invited_by.pk if invited_by else None,
        sent_at=now,
    )
    invitation_record(
        invitation_id=invitation.pk,
        campaign_id=campaign.pk,
        nation=nation,
        user_id=user.pk,
        url=invitation_url(invitation),
        now=now,
    )
    audit_record(
        campaign=campaign,
        actor=actor,
        action=action,
        summary=summary,
        after={"email": address, "account": user.get_username()},
    )
    return invitation


def _player_name(user_id: int | None) -> str | None:
    if user_id is None:
        return None
    return str(get_user_model().objects.get(pk=user_id).get_username())


@transaction.atomic
def player_replace(
    *, nation: Nation, player: AbstractBaseUser | None, actor: Actor, reason: str = "", now: datetime | None = None
) -> Nation:
    """Give ``nation`` to ``player`` (``None``: no player) at once. The old player loses it now and is
    told; the new one is told. Open invitations to the nation are withdrawn."""
    now = now or timezone.now()
    locked = Nation.objects.select_for_update().select_related("campaign").get(pk=nation.pk)
    old_id = locked.player_id
    new_id = player.pk if player is not None else None
    if old_id == new_id:
        who = player.get_username() if player is not None else "nobody"
        raise PlayerError(f"{who} already commands {locked.name}; choose another player.")
    if new_id is not None:
        other = Nation.objects.filter(campaign_id=locked.campaign_id, player_id=new_id).first()
        if other is not None:
            raise PlayerError(f"{player.get_username()} already commands {other.name}; one nation each.")  # type: ignore[union-attr]
    locked.player_id = new_id
    locked.save(update_fields=["player"])
    nation.player_id = new_id
    Invitation.objects.filter(nation=locked, accepted_at__isnull=True, withdrawn_at__isnull=True).update(
        withdrawn_at=now
    )
    if old_id is not None:
        nation_taken_record(nation=locked, old_player_id=old_id, now=now)
    nation_given_record(nation=locked, now=now)
    old, new = _player_name(old_id), _player_name(new_id)
    action = AuditAction.PLAYER_REPLACED if old_id is not None and new_id is not None else AuditAction.PLAYER_CHANGED
    audit_record(
        campaign=locked.campaign,
        actor=actor,
        action=action,
        summary=f"{locked.name}: player {old or 'none'} → {new or 'none'}.",
        before={"player": old},
        after={"player": new},
        reason=reason,
    )
    return locked


@transaction.atomic
def invitation_accept(
    *, invitation: Invitation, user: AbstractBaseUser, password: str | None = None, now: datetime | None = None
) -> Nation:
    """The invited account takes the nation. A new account (no password yet) sets ``password`` first,
    checked by the site's password validators. Only the invited account may accept."""
    now = now or timezone.now()
    locked = _invitation_taken(invitation=invitation, user=user, password=password)
    if locked.nation_id is None:
        raise PlayerError("This invitation is to help run the campaign, not to command a nation.")
    locked.accepted_at = now
    locked.save(update_fields=["accepted_at"])
    nation = Nation.objects.select_related("campaign").get(pk=locked.nation_id)
    other = Nation.objects.filter(campaign_id=nation.campaign_id, player_id=user.pk).exclude(pk=nation.pk).first()
    if other is not None:
        raise PlayerError(f"You command {other.name} in this campaign already; one nation each.")
    old_id = nation.player_id
    Nation.objects.filter(pk=nation.pk).update(player_id=user.pk)
    nation.player_id = user.pk
    if old_id is not None and old_id != user.pk:
        nation_taken_record(nation=nation, old_player_id=old_id, now=now)
    audit_record(
        campaign=nation.campaign,
        actor=user,
        action=AuditAction.PLAYER_JOINED,
        summary=f"{user.get_username()} accepted the invitation and commands {nation.name}.",
        before={"player": _player_name(old_id)},
        after={"player": user.get_username()},
    )
    return nation


def _invitation_taken(*, invitation: Invitation, user: AbstractBaseUser, password: str | None) -> Invitation:
    """The invitation, locked, once it is open and ``user`` is its account with a password (a new
    account sets ``password`` here, checked by the site's validators); ``PlayerError`` otherwise."""
    locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if not locked.open:
        raise PlayerError("This invitation was used or withdrawn already.")
    if user.pk != locked.user_id:
        raise PlayerError(
            f"This invitation is for {locked.email}; sign out and follow the link again, or ask the GM to "
            "invite this account's address."
        )
    if not user.has_usable_password():
        if not password:
            raise PlayerError("Choose a password for your new account.")
        try:
            validate_password(password, user)  # type: ignore[arg-type]  # any user model
        except ValidationError as exc:
            raise PlayerError(" ".join(exc.messages)) from None
        user.set_password(password)
        user.save(update_fields=["password"])
    return locked


@transaction.atomic
def co_gm_invite(*, campaign: Campaign, email: str, actor: Actor, now: datetime | None = None) -> Invitation:
    """Invite ``email`` to help run ``campaign``: the address's account (found, or made without a
    password) is mailed a signed link; it becomes a co-GM (and staff, to reach the admin) when the link
    is followed. Audited."""
    now = now or timezone.now()
    address = invited_address(email)
    if campaign.status == Campaign.Status.ENDED:
        raise PlayerError(f"{campaign.name} has ended; nobody can be invited to it.")
    users = get_user_model().objects
    matches = list(users.filter(email__iexact=address).order_by("pk")[:2])
    if len(matches) > 1:
        raise PlayerError(f"Several accounts use {address}; add one of them as a co-GM on the campaign's page.")
    user = matches[0] if matches else users.create_user(_username_for(email.strip()), email=address)
    if user.pk == campaign.gm_id or campaign.co_gms.filter(pk=user.pk).exists():
        raise PlayerError(f"{user.get_username()} ({address}) runs {campaign.name} already.")
    Invitation.objects.filter(
        campaign=campaign, user=user, nation__isnull=True, accepted_at__isnull=True, withdrawn_at__isnull=True
    ).update(withdrawn_at=now)
    return _invitation_sent(
        campaign=campaign,
        nation=None,
        address=address,
        user=user,
        actor=actor,
        now=now,
        action=AuditAction.CO_GM_INVITED,
        summary=f"{address} invited to help run the campaign as a co-GM.",
    )


@transaction.atomic
def co_gm_accept(
    *, invitation: Invitation, user: AbstractBaseUser, password: str | None = None, now: datetime | None = None
) -> Campaign:
    """The invited account becomes a co-GM of the campaign, and staff so that it reaches the admin (a
    co-GM sees and changes only the campaigns it runs). A new account sets ``password`` first."""
    locked = _invitation_taken(invitation=invitation, user=user, password=password)
    if locked.nation_id is not None:
        raise PlayerError("This invitation is to command a nation, not to help run the campaign.")
    locked.accepted_at = now or timezone.now()
    locked.save(update_fields=["accepted_at"])
    campaign = Campaign.objects.get(pk=locked.campaign_id)
    if not getattr(user, "is_staff", False):
        get_user_model().objects.filter(pk=user.pk).update(is_staff=True)
        user.is_staff = True  # type: ignore[attr-defined]  # any user model with is_staff
    campaign.co_gms.add(user)  # type: ignore[arg-type]  # any user model
    audit_record(
        campaign=campaign,
        actor=user,
        action=AuditAction.CO_GM_JOINED,
        summary=f"{user.get_username()} accepted the invitation and helps run the campaign as a co-GM.",
        after={"co_gm": user.get_username()},
    )
    return campaign


__all__ = [
    "INVITATION_MAX_AGE_DAYS",
    "InvitationClosed",
    "PlayerError",
    "account_by_email",
    "campaign_people",
    "co_gm_accept",
    "co_gm_invite",
    "invitation_accept",
    "invitation_from_token",
    "invitation_url",
    "player_invite",
    "player_replace",
]
