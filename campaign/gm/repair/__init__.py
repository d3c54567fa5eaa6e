"""The GM's repairs of a campaign (issue 11): revert to the start of a turn, re-run the open turn,
re-fight one battle — services in :mod:`campaign.gm.repair.services` (the revert and what the three
share), :mod:`campaign.gm.repair.rerun` and :mod:`campaign.gm.repair.refight`, the in-place restore of a turn's
snapshot in :mod:`campaign.gm.repair.restore`, the admin's pages in :mod:`campaign.gm.repair.admin`."""
