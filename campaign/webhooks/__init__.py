"""Webhooks (issue 30): registering hooks, what each delivery says, and posting it once, signed.

The records of what must be posted are written by ``campaign.outbox.webhooks`` where the events happen.
"""
