"""A person's own settings, whatever campaigns they take part in.

* ``preferences``  time zone, mail choices per campaign and event, unsubscribe tokens, calendar address
* ``time_zone``    the viewer's time zone: the middleware, the cookie, the zone names
* ``api_tokens``   personal API tokens: made, listed and revoked by their owner; checked for ``Bearer``
"""
