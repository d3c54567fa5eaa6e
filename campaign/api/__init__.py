"""The campaign resources of the REST API (``/api/v1/campaigns/...``; README "API")."""
