"""Shapes of the dispatches API (issue 16): a dispatch as its reader sees it, and the body of a send."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class RevisionSerializer(serializers.Serializer[Any]):
    body = serializers.CharField(help_text="The text before a correction.")
    replaced_at = serializers.DateTimeField()


class DispatchSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    conversation = serializers.IntegerField(source="conversation_id", help_text="Its conversation's id.")
    sender = serializers.CharField(
        help_text='The sender as the reader may know it: a nation\'s name, "The Admiralty" or "a foreign power".'
    )
    sender_code = serializers.CharField(allow_null=True, help_text="The sender's nation code, null when not known.")
    own = serializers.BooleanField(help_text="Sent by the caller's nation (by The Admiralty, for a GM).")
    body = serializers.CharField(allow_null=True, help_text="Plain text; null when the GM hid it from players.")
    turn = serializers.IntegerField(help_text="The turn it was sent in.")
    stamp = serializers.CharField(help_text='The turn and season it was sent in, e.g. "Turn 3, Autumn 1805".')
    sent_at = serializers.DateTimeField()
    edited_at = serializers.DateTimeField(allow_null=True)
    revisions = RevisionSerializer(many=True, help_text="Earlier texts, oldest first.")
    hidden = serializers.BooleanField(help_text="Hidden from players by the GM (kept).")
    unread = serializers.BooleanField(help_text="Arrived for the caller's nation and not yet marked read.")
    in_transit_to = serializers.ListField(
        child=serializers.CharField(), help_text="Nations it has not reached yet (shown to its sender only)."
    )


class SendSerializer(serializers.Serializer[Any]):
    """Reply in ``conversation``, or start one: ``to`` names nations by code, or ``public`` writes to all."""

    conversation = serializers.IntegerField(
        required=False, min_value=1, help_text="Reply to everyone in this conversation."
    )
    to = serializers.ListField(
        child=serializers.CharField(max_length=3),
        required=False,
        max_length=50,
        help_text="Start a conversation with these nations (codes): one for a private dispatch, several for a group.",
    )
    public = serializers.BooleanField(required=False, default=False, help_text="Start a public proclamation to all.")
    subject = serializers.CharField(
        required=False, allow_blank=True, max_length=1000, help_text="A new conversation's subject."
    )
    body = serializers.CharField(allow_blank=True, max_length=100_000, trim_whitespace=False)


class ReadSerializer(serializers.Serializer[Any]):
    dispatch = serializers.IntegerField()
    read = serializers.BooleanField()
