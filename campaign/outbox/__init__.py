"""What must be told of an event, recorded in the same transaction as the event itself.

* ``mail``      delivery rows for the mail an event calls for (a turn resolved or opened, a deadline
                near, a table battle's news …), sent after commit by ``campaign.mail``
* ``webhooks``  delivery rows for the webhooks told of it, posted after commit by ``campaign.webhooks``

The turn, the GM's actions and the players' services write here; nothing here renders or sends, so the
lowest layers may call it without reaching the pages that mail and webhooks read their words from.
"""
