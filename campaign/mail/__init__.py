"""Mail: each delivery recorded by ``campaign.outbox.mail`` rendered and sent, once.

* ``sending``  claiming due deliveries (conditional UPDATE), sending, retrying with backoff, failing
* ``messages`` one delivery → a multipart (text + HTML) message, from the event's own templates
* ``content``  what each event's mail says, read through the players' pages (fog of war as on the site)
"""
