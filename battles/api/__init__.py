"""The battle resources and the simulator of the REST API (README "API")."""
