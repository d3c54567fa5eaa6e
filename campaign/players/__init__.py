"""Who plays which nation: invite by email, accept the signed link, replace a player; and co-GMs.

* ``services``  each one audited service used by the admin and by its command
* ``views``     the invitation link a player or co-GM follows
"""
