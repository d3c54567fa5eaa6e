"""What every part of the campaign app uses to reach the outside world safely.

* ``queueing``   handing work to the Celery workers after commit, when the broker may be down
* ``json_text``  checks on JSON from outside (API bodies, campaign files) before it is decoded
"""
