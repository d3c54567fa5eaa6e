"""Dispatches between nations (issue 16): services write, selectors read, thin views and API beside."""
