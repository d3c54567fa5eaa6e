"""The dispatch forms: they collect what was typed; the services decide (and name what is wrong)."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms

from campaign.dispatches.services import MAX_MUTE_TURNS, MAX_REASON, MAX_SUBJECT
from campaign.models import Nation


def counted_without_cutting(field: forms.Field, limit: int, *, help_text: str | None = None) -> None:
    """Show a live count against ``limit`` (static/js/char-counter.js) instead of the browser's
    ``maxlength``: a browser silently cuts pasted text at ``maxlength``, so a long letter pasted into
    the box lost its end without a word. Over the limit, the service refuses it and says by how much,
    and the form comes back with the whole text in it."""
    field.widget.attrs.pop("maxlength", None)
    field.widget.attrs["data-max-chars"] = str(limit)
    if help_text is not None:
        field.help_text = help_text


#: The "to" choice that makes a dispatch a public proclamation.
ALL = "ALL"


class StartForm(forms.Form):
    to = forms.MultipleChoiceField(
        label="To",
        widget=forms.CheckboxSelectMultiple,
        help_text="One nation for a private dispatch, several for a group, or all nations for a public proclamation.",
    )
    subject = forms.CharField(label="Subject", max_length=MAX_SUBJECT)
    body = forms.CharField(label="Dispatch", widget=forms.Textarea(attrs={"rows": 6}))

    def __init__(
        self, *args: object, recipients: Sequence[Nation], public_only: bool, max_length: int, **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        everyone = [(ALL, "All nations — a public proclamation")]
        field = self.fields["to"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = everyone if public_only else everyone + [(n.code, n.name) for n in recipients]
        counted_without_cutting(self.fields["subject"], MAX_SUBJECT)
        counted_without_cutting(
            self.fields["body"], max_length, help_text=f"Plain text, at most {max_length:,} characters."
        )

    def recipients(self) -> list[str] | None:
        """The codes written to, or None for a public proclamation."""
        chosen = list(self.cleaned_data["to"])
        return None if ALL in chosen else chosen

    def clean_to(self) -> list[str]:
        chosen = list(self.cleaned_data["to"])
        if ALL in chosen and len(chosen) > 1:
            raise forms.ValidationError("Choose either all nations (a public proclamation) or named nations, not both.")
        return chosen


class BodyForm(forms.Form):
    body = forms.CharField(label="Dispatch", widget=forms.Textarea(attrs={"rows": 5}))

    def __init__(self, *args: object, max_length: int, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        counted_without_cutting(
            self.fields["body"], max_length, help_text=f"Plain text, at most {max_length:,} characters."
        )


class ReasonForm(forms.Form):
    reason = forms.CharField(label="Reason", max_length=MAX_REASON)


class MuteForm(forms.Form):
    nation = forms.ChoiceField(label="Nation")
    turns = forms.IntegerField(label="Turns", min_value=1, max_value=MAX_MUTE_TURNS, initial=1)
    reason = forms.CharField(label="Reason", max_length=MAX_REASON)

    def __init__(self, *args: object, nations: Sequence[Nation], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = self.fields["nation"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(n.code, n.name) for n in nations]
