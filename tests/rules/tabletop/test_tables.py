"""The pack's sections of static tables (rules/tabletop/tables.py) and the printable-table shape."""

from __future__ import annotations

import pytest

from rules.ruleset import DEFAULT_RULESET
from rules.tabletop.printable import PrintableTable, signed, span
from rules.tabletop.tables import Section, all_tables, section_tables


def test_every_section_prints_its_tables_in_order() -> None:
    keys = {s: [t.key for t in section_tables(s, DEFAULT_RULESET)] for s in Section}
    assert keys == {
        Section.WIND: ["wind_initial", "wind_change", "wind_speed"],
        Section.INSHORE: ["tide_timing", "tide_cycle", "tide_effect", "tide_modifiers", "grounding", "marsh_passage"],
        Section.FORTS: ["fort_mapping", "fort_sizes", "fort_firing", "fort_hits", "shore_batteries"],
        Section.ASSAULT: ["fire_procedure", "fire_chart"],
    }
    assert len(all_tables(DEFAULT_RULESET)) == 16


def test_every_table_names_its_seed_and_a_readable_source() -> None:
    seeds = {"wind": "004", "inshore": "001", "forts": "002", "assault": "003"}
    for section in Section:
        for table in section_tables(section, DEFAULT_RULESET):
            # The forts section also prints seed 004's shore batteries for Grenada-rules groups.
            assert table.seed == ("004" if table.key == "shore_batteries" else seeds[section.value])
            assert table.rows and table.title and table.source
            assert "seeds/" not in table.source and "RULES.md" not in table.source
            for row in table.rows:
                assert all(isinstance(cell, str) and cell for cell in row), (table.key, row)
            assert not any("RULES.md" in n or "../shared" in n for n in table.notes)


def test_a_row_must_have_one_cell_per_column() -> None:
    with pytest.raises(ValueError, match="table 'x': row 2 has 1 cells but there are 2 columns"):
        PrintableTable("x", "X", "source", "000", ("a", "b"), (("1", "2"), ("3",)))
    with pytest.raises(ValueError, match="at least one column"):
        PrintableTable("x", "X", "source", "000", (), ())


def test_signed_and_span_print_with_true_minus_signs_and_en_dashes() -> None:
    assert (signed(2), signed(-1), signed(0)) == ("+2", "\u22121", "0")
    assert (span(3, 3), span(1, 3), span(-2, -1)) == ("3", "1\u20133", "\u22122\u2013\u22121")
