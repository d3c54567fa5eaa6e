"""The campaign's rules page: ``page`` fills in every number from the campaign's ruleset and builds the
tables; ``text`` holds the words.
"""
