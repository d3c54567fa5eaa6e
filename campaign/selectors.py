"""Read-side queries of the campaign app."""
