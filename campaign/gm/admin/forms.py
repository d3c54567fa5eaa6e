"""The forms of the GM's admin pages: start and end a campaign, extend the deadline, edit the rules, and a
nation's pages (lay down a ship, invite or replace its player, adjust its treasury).

Each form checks what it can before any service runs, so a bad input is a form error naming what is
allowed, and nothing changes; the services check the rest.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import timezone

from campaign.models import Campaign, Nation, slug_validator
from campaign.players.services import account_by_email, campaign_people
from campaign.scenarios.loading import available_scenarios
from fleets.models import ShipClass
from ports.models import Port
from ports.names import validate_name
from rules.ruleset import SETTINGS, Setting


def new_campaign_slug(slug: str) -> str:
    """A slug a new campaign can take: valid, and no campaign's already (else a form error saying so)."""
    try:
        slug_validator(slug)
    except ValidationError as exc:
        raise forms.ValidationError(exc.messages) from None
    if Campaign.objects.filter(slug=slug).exists():
        raise forms.ValidationError(f"A campaign with the address {slug!r} exists already; choose another.")
    return slug


class RulesetForm(forms.Form):
    """One whole-number field per rule setting, bounded as the ruleset allows."""

    def __init__(self, *args: Any, current: dict[str, int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for setting in SETTINGS:
            self.fields[setting.key] = forms.IntegerField(
                label=setting.key,
                min_value=setting.minimum,
                max_value=setting.maximum,
                initial=current.get(setting.key, setting.default),
                help_text=setting.help,
            )

    def sections(self) -> list[tuple[str, list[tuple[Setting, forms.BoundField, bool]]]]:
        """Per rule section: each setting with its field and whether the campaign's value is a house rule."""
        grouped: dict[str, list[tuple[Setting, forms.BoundField, bool]]] = {}
        for setting in SETTINGS:
            field = self[setting.key]
            house = field.initial != setting.default
            grouped.setdefault(setting.section, []).append((setting, field, house))
        return list(grouped.items())


class StartCampaignForm(forms.Form):
    scenario = forms.ChoiceField(choices=(), help_text="The scenario data the campaign starts from.")
    name = forms.CharField(
        max_length=100, validators=[validate_name], help_text="The campaign's name, as players read it."
    )
    slug = forms.SlugField(
        max_length=49, help_text="Its address: lower-case letters, digits and hyphens, e.g. channel-1805."
    )
    seed = forms.IntegerField(
        min_value=0, max_value=2**63 - 1, required=False, help_text="Every die derives from it; empty for a random one."
    )
    first_deadline = forms.DateTimeField(
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text="When the first turn resolves, in your time zone.",
    )
    turn_length_days = forms.IntegerField(
        label="Deadline rhythm (days)",
        min_value=1,
        max_value=365,
        initial=7,
        help_text="Days from one turn's resolution to the next deadline.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        scenario = self.fields["scenario"]
        assert isinstance(scenario, forms.ChoiceField)
        scenario.choices = [(name, name) for name in available_scenarios()]

    def clean_slug(self) -> str:
        return new_campaign_slug(self.cleaned_data["slug"])

    def clean_first_deadline(self) -> Any:
        when = self.cleaned_data["first_deadline"]
        if when <= timezone.now():
            raise forms.ValidationError("The first deadline must be in the future.")
        return when


class StartClockForm(forms.Form):
    """Start a campaign being set up: its first deadline, and the GM's check list ticked."""

    first_deadline = forms.DateTimeField(
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text="When the first turn resolves, in your time zone; in the future.",
        error_messages={"invalid": "Enter a date and time, e.g. 2026-12-24 18:00."},
    )
    players_checked = forms.BooleanField(
        label="The players are invited, and I start with the nations listed above as they are.",
        error_messages={"required": "Tick this once the players are invited (see the list above)."},
    )
    rules_checked = forms.BooleanField(
        label="I have reviewed the campaign's rules.",
        error_messages={"required": "Tick this once you have reviewed the rules (Edit the rules)."},
    )

    def clean_first_deadline(self) -> Any:
        when = self.cleaned_data["first_deadline"]
        if when <= timezone.now():
            raise forms.ValidationError("That time has passed: the first deadline must be in the future.")
        return when


class DeleteCampaignForm(forms.Form):
    name = forms.CharField(
        max_length=100, label="The campaign's name", help_text="Type it exactly, to show you mean this campaign."
    )


class EndCampaignForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Why it ends now: told to everyone in the final mail and kept in the audit log.",
    )
    confirm = forms.BooleanField(label="Yes, end the campaign now: no more turns, orders close.")


class ExtendForm(forms.Form):
    days = forms.IntegerField(min_value=0, max_value=365, initial=1)
    hours = forms.IntegerField(min_value=0, max_value=23, initial=0)
    reason = forms.CharField(
        max_length=300, required=False, help_text="Why, for the audit log (e.g. “France asked for a weekend”)."
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("days") and not data.get("hours"):
            raise forms.ValidationError("Extend by at least one hour.")
        return data


class ImportCopyForm(forms.Form):
    """An export document uploaded as a copy: its new name and address, and who plays which nation."""

    document = forms.FileField(
        label="Export file", help_text="A campaign's export (.json), as the Export button downloads it."
    )
    name = forms.CharField(max_length=100, validators=[validate_name], help_text="The copy's name, as players read it.")
    slug = forms.SlugField(
        max_length=49, help_text="Its address: lower-case letters, digits and hyphens, e.g. channel-1805-copy."
    )
    players = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "cols": 40}),
        help_text="One line per nation: its code, =, the player's username or email, e.g. GB=nelson. "
        "Nations not named start without a player; you run the copy.",
    )

    def clean_slug(self) -> str:
        return new_campaign_slug(self.cleaned_data["slug"])

    def clean_players(self) -> dict[str, Any]:
        """Each line's nation code and its user, found by exact username or email."""
        found: dict[str, Any] = {}
        problems: list[str] = []
        users = get_user_model().objects
        for number, line in enumerate(self.cleaned_data["players"].splitlines(), start=1):
            if not line.strip():
                continue
            code, sep, who = (part.strip() for part in line.partition("="))
            if not sep or not code or not who:
                problems.append(f"Line {number} ({line.strip()!r}): write it as CODE=username, e.g. GB=nelson.")
                continue
            user = users.filter(username=who).first() or users.filter(email__iexact=who).first()
            if user is None:
                problems.append(f"Line {number}: no account with the username or email {who!r}.")
            elif code.upper() in found:
                problems.append(f"Line {number}: {code.upper()} is given a player twice.")
            else:
                found[code.upper()] = user
        if problems:
            raise forms.ValidationError(problems)
        return found


class DeadlineForm(forms.Form):
    """An exact new deadline, earlier or later, typed in the GM's own time zone, and why."""

    deadline = forms.DateTimeField(
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        label="New deadline",
        help_text="In your time zone; earlier or later than the current one, but in the future.",
        error_messages={"invalid": "Enter a date and time, e.g. 2026-12-24 18:00."},
    )
    reason = forms.CharField(max_length=300, help_text="Why, for the players' mail and the audit log.")

    def clean_deadline(self) -> Any:
        deadline = self.cleaned_data["deadline"]
        if deadline is not None and deadline <= timezone.now():
            raise ValidationError("That time has passed; choose one in the future (or resolve the turn now).")
        return deadline


class LayDownForm(forms.Form):
    ship_class = forms.ChoiceField(choices=ShipClass.choices, label="Class")
    name = forms.CharField(max_length=80, validators=[validate_name])
    port = forms.ModelChoiceField(queryset=Port.objects.none(), help_text="An own port with a dockyard.")

    def __init__(self, *args: Any, nation: Nation, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        port_field = self.fields["port"]
        assert isinstance(port_field, forms.ModelChoiceField)
        port_field.queryset = Port.objects.filter(owner=nation, dockyard=True).order_by("name")


class InviteForm(forms.Form):
    email = forms.EmailField(help_text="The player's address; an account with it is used, or one is made.")


class ReplacePlayerForm(forms.Form):
    player: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        queryset=None,
        required=False,
        help_text="One of the campaign's people (its GMs, players and invited); empty leaves the nation "
        "without a player.",
    )
    email = forms.EmailField(
        required=False,
        label="Or an account by email",
        help_text="The exact address of an existing account not yet in the campaign (or invite them instead).",
    )
    reason = forms.CharField(max_length=500, help_text="Why: kept in the audit log.")

    def __init__(self, *args: Any, nation: Nation, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = campaign_people(nation.campaign)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        email = data.get("email")
        if email:
            if data.get("player") is not None:
                raise ValidationError("Choose a player or give an address, not both.")
            account = account_by_email(email)
            if account is None:
                raise ValidationError(
                    {"email": f"No account has the address {email}: invite them from the nation's Invite page."}
                )
            data["player"] = account
        return data


# Treasuries, ledger amounts and balances are 32-bit integer columns: a larger number would reach
# the database as an error (a 500), so the form refuses it first.
TREASURY_MAX = 2**31 - 1


class AdjustTreasuryForm(forms.Form):
    amount = forms.IntegerField(
        min_value=-TREASURY_MAX, max_value=TREASURY_MAX, help_text="EP to add (negative to take away); not 0."
    )
    reason = forms.CharField(max_length=150, help_text="Shown to the player in the ledger.")

    def __init__(self, *args: Any, nation: Nation, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.nation = nation

    def clean_amount(self) -> int:
        amount: int = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError("An adjustment must change the treasury: enter a non-zero amount.")
        if self.nation.treasury + amount > TREASURY_MAX:
            raise forms.ValidationError(
                f"The treasury would be {self.nation.treasury + amount} EP; it holds at most {TREASURY_MAX} EP."
            )
        if self.nation.treasury + amount < 0:
            raise forms.ValidationError(
                f"{self.nation.code} has {self.nation.treasury} EP; taking {-amount} EP would leave it "
                f"{-(self.nation.treasury + amount)} EP short. A treasury never goes below 0 (rules §2)."
            )
        return amount


#: The largest orders file the GM may upload (a nation's orders are a few kilobytes).
MAIL_ORDERS_MAX_BYTES = 200_000


class MailOrdersForm(forms.Form):
    """A nation's orders that came by email: pasted as text (one order a line) or a JSON file."""

    text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "cols": 60, "spellcheck": "false"}),
        label="Orders as text",
        help_text="One order a line, as the desk writes them: “Channel Fleet: to sea → Bay of Biscay”, "
        "“Channel Fleet: blockade Brest”, “repair HMS Victory”, “declare war on Spain”. A JSON list may be "
        "pasted here too.",
    )
    upload = forms.FileField(
        required=False,
        label="Or a JSON file",
        help_text='A list of orders with names instead of ids, e.g. [{"kind": "move", "fleet": "Channel '
        'Fleet", "path": ["to sea", "Bay of Biscay"]}].',
    )
    late_reason = forms.CharField(
        required=False,
        max_length=300,
        label="Reason (after the deadline)",
        help_text="Needed only when the deadline has passed and the nation gave no orders.",
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("upload")
        text = (data.get("text") or "").strip()
        if upload is not None and text:
            raise forms.ValidationError("Paste the orders or upload a file, not both.")
        if upload is not None:
            if upload.size > MAIL_ORDERS_MAX_BYTES:
                raise forms.ValidationError(
                    f"The file is {upload.size:,} bytes; at most {MAIL_ORDERS_MAX_BYTES:,} are taken."
                )
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise forms.ValidationError("The file is not UTF-8 text; save it as UTF-8 JSON.") from exc
            data["as_json"] = True
        elif not text:
            raise forms.ValidationError("Paste the orders or choose a JSON file.")
        else:
            data["as_json"] = text.startswith(("[", "{"))
        data["payload"] = text
        return data
