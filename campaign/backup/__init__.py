"""A campaign's backup: the campaign document that ``export_campaign`` writes and ``import_campaign``
reads, and the turn snapshots and reverts built on it.

* ``document``    the export (a whole campaign, or its state as a turn opened) and the import's entry point
* ``restore``     writing a checked document's rows (the second half of the import)
* ``rows``        rebuilding one row from the document's record, for the import and the revert alike
* ``snapshots``   a turn's snapshot renamed to the rows an import wrote
* ``dispatches``, ``tabletop``   the dispatches' and the table battles' sections of the document
* ``schemas/``    the document's JSON Schema, generated from the models, and the checks between records

The turn takes its snapshot through ``document``; nothing here imports the turn, the pages, the API or
the GM's package (import contracts in pyproject.toml).
"""
