"""Shapes of the webhooks API (issue 30): a registered hook, the body that registers one, and the
answer to a registration (the only one that carries the hook's secret)."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from rest_framework import serializers

from campaign.models import WebhookEvent, WebhookFormat

EVENTS_ALLOWED = ", ".join(WebhookEvent.values)


class WebhookSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.CharField(help_text="Where each delivery is posted.")
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=WebhookEvent.choices), help_text="The events the hook is told of."
    )
    format = serializers.ChoiceField(choices=WebhookFormat.choices)
    nation = serializers.CharField(
        source="nation.code",
        allow_null=True,
        default=None,
        help_text="The nation whose view the hook gets (its player's); null for a game master's campaign hook.",
    )
    active = serializers.BooleanField(help_text="False once switched off after failing again and again.")
    failures = serializers.IntegerField(help_text="Failed attempts in a row (0 after a success).")
    disabled_at = serializers.DateTimeField(allow_null=True)
    disabled_reason = serializers.CharField(help_text="Why it was switched off (empty while active).")
    created_at = serializers.DateTimeField()


class WebhookCreatedSerializer(WebhookSerializer):
    secret = serializers.CharField(
        help_text="Signs every JSON delivery (X-Admiralty-Signature). Shown only in this answer: keep it."
    )


class WebhookCreateSerializer(serializers.Serializer[Any]):
    """The body of a registration."""

    url = serializers.CharField(
        max_length=500,
        validators=[
            RegexValidator(r"^https?://\S+$", "The url must start with http:// or https:// and hold no spaces.")
        ],
        help_text="An absolute http:// or https:// address (for discord or slack: their incoming webhook).",
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(
            choices=WebhookEvent.choices,
            error_messages={"invalid_choice": f'"{{input}}" is not an event; choose from {EVENTS_ALLOWED}.'},
        ),
        min_length=1,
        max_length=len(WebhookEvent.values),
        help_text=f"One or more of {EVENTS_ALLOWED}.",
    )
    format = serializers.ChoiceField(
        choices=WebhookFormat.choices,
        default=WebhookFormat.JSON.value,
        help_text='json (signed, the payload below), discord ({"content": text}) or slack ({"text": text}).',
        error_messages={"invalid_choice": '"{input}" is not a format; choose json, discord or slack.'},
    )
