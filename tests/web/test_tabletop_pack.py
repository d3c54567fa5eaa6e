"""The battle pack of a besieged-port battle at Gibraltar fought on the table (issue 15): its page
shows the six forts, the tide from given set-up dice and the wind from given dice; its PDF renders
(pages turned into PNGs by poppler's pdftoppm and looked at); the server's rolls go into the turn's
dice log; the result form refuses what cannot be.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from django.utils.html import escape

from battles.models import TabletopBattle
from campaign.models import Turn
from campaign.tabletop.services import TableResultRefused, table_mark, table_pack_roll, table_setup_dice_set
from ports.models import LandUnit
from rules.dice import SeededDice, derive_seed
from rules.tabletop import fire_combat, forts, tides, wind
from rules.tabletop.storming import fire_rolled_text
from tests.support.tabletop import (
    gibraltar_besieged,
    gibraltar_siege,
    gibraltar_storming,
    pack_pdf_printed,
    table_held,
    table_ships,
)
from tests.worlds import fleet, sea_world

pytestmark = pytest.mark.django_db

BLOCKADE_FIGHT_SEED = 1  # checked: the two squadrons in Biscay meet


def test_the_gibraltar_pack_shows_six_forts_the_tide_and_the_wind_from_given_dice(tmp_path: Path) -> None:
    world, table, client = gibraltar_siege()
    # Seed 001: the defender's last set-up die even (4): a moonless night, low water at the hour of
    # the attacker's initial die (3): 0300. Seed 004: initial wind 4 = NW; wind speed 5 and 2: 7, 5, 2.
    table_setup_dice_set(table=table, attacker=3, defender=[2, 4], wind_initial=[4], wind_speed=[5, 2])
    url = f"/campaigns/{world.campaign.slug}/table/{table.pk}/pack/"
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "6 coastal forts" in html  # as the campaign counts them: Gibraltar, 2 × FF 3
    assert "Forts of Gibraltar: 6 coastal forts, 1 artillery battery" in html  # BB&amp;IB sizes
    assert "Tides of the day (moonless night: low water at 0300)" in html
    assert "from the north-west (NW)" in html
    assert "7 (higher die 5, lower die 2)" in html
    for ship in ("Escadre de Cadix 1", "Mediterranean Fleet 1", "1st rate", "100", "B (crack)"):
        assert ship in html
    assert "Assault aid: storming Gibraltar" in html and "France: 2 land units" in html
    assert "seeds" not in html and "RULES.md" not in html  # users never see the documents' file names
    # Every table of the seeds, as the pack prints them (rows included).
    seeds_tables = [
        wind.initial_wind_table(),
        wind.wind_change_table(),
        wind.wind_speed_table(),
        tides.tide_timing_table(),
        tides.tide_cycle_table(),
        tides.tide_effect_table(),
        tides.tide_modifiers_table(),
        tides.grounding_table(),
        tides.marsh_passage_table(),
        forts.fort_sizes_table(),
        forts.fort_firing_table(),
        forts.fort_hits_table(),
        forts.fort_mapping_table(world.campaign.ruleset),
        forts.shore_battery_table(),
        fire_combat.fire_procedure_table(),
        fire_combat.fire_chart_table(),
    ]
    for t in seeds_tables:
        assert escape(t.title) in html, t.title
        for row in t.rows:
            assert "".join(f"<td>{escape(c)}</td>" for c in row) in html, (t.title, row)

    pdf = pack_pdf_printed(client, f"/campaigns/{world.campaign.slug}/table/{table.pk}/pack.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf", pdf.content[:500]
    body = pdf.content
    assert body.startswith(b"%PDF")
    path = tmp_path / "pack.pdf"
    path.write_bytes(body)
    subprocess.run(["pdftoppm", "-png", "-r", "50", str(path), str(tmp_path / "page")], check=True, timeout=120)
    pages = sorted(tmp_path.glob("page*.png"))
    assert len(pages) >= 2, "the pack runs to several pages"
    text = subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True, text=True, timeout=60)
    assert "6 coastal forts" in text.stdout and "low water at 0300" in text.stdout
    keep = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
    keep.mkdir(parents=True, exist_ok=True)
    for n, png in enumerate(pages[:3], start=1):
        (keep / f"table-pack-pdf-page-{n}.png").write_bytes(png.read_bytes())


def test_the_server_rolls_the_packs_dice_into_the_turns_dice_log() -> None:
    world, table, client = gibraltar_siege()
    response = client.post(f"/campaigns/{world.campaign.slug}/table/{table.pk}/", {"action": "roll"})
    assert response.status_code == 302
    table.refresh_from_db()
    purposes = [d["purpose"] for d in table.pack["dice"]]
    assert purposes[:2] in (["wind_initial", "wind_speed"], ["wind_initial", "wind_initial"])
    assert purposes.count("setup") == 3 and purposes[-1] == "tide_effect"
    log = Turn.objects.get(pk=world.turn.pk).dice_log
    pack_purposes = ("wind_initial", "wind_speed", "setup", "tide_effect")
    assert [d for d in log if d["purpose"] in pack_purposes] == table.pack["dice"]
    again = table_pack_roll(table=table)
    assert again.pack["dice"] == table.pack["dice"]  # asked twice: the same dice, logged once
    assert len(Turn.objects.get(pk=world.turn.pk).dice_log) == len(log)
    html = client.get(f"/campaigns/{world.campaign.slug}/table/{table.pk}/pack/").content.decode()
    assert "Rolled by the server" in html and "Tides of the day" in html


def test_the_server_rolls_the_tide_effect_die_and_names_attacker_and_defender() -> None:
    """Seed 001:48: "After terrain set up a die is rolled by the attacker and compared to the chart
    below to determine the effect of the tide cycle"; 001:13 names the attacker's and the defender's
    set-up dice. The server rolls the tide-effect die with the others, seeded and logged (bare: the
    modifiers are the table's), and the pack and the log say which side throws each die: at a
    besieged port the side in port defends."""
    world, table, client = gibraltar_siege()
    table_pack_roll(table=table)
    table.refresh_from_db()
    (effect,) = [d for d in table.pack["dice"] if d["purpose"] == "tide_effect"]
    assert effect["die"] == "d6" and 1 <= effect["raw"] <= 6 and effect["mod"] == 0
    setups = [d["detail"] for d in table.pack["dice"] if d["purpose"] == "setup"]
    html = client.get(f"/campaigns/{world.campaign.slug}/table/{table.pk}/pack/").content.decode()
    defender = html.split("the defender ")[1].split(":")[0]
    attacker = html.split("the attacker is ")[1].split(" and")[0]
    assert (attacker, defender) == ("Great Britain", "France")  # the French squadron is in port
    assert setups[0] == f"attacker's initial set-up die ({attacker})"
    assert setups[1:] == [f"defender's set-up die {n} ({defender})" for n in (1, 2)]
    assert f"thrown by the attacker ({attacker})" in effect["detail"]
    assert dict(table.pack["rolled"])["Tide effect"].startswith(f"1D6 {effect['raw']} for the first tide cycle")
    assert effect in Turn.objects.get(pk=world.turn.pk).dice_log


def test_the_result_form_refuses_a_captor_that_was_not_there_and_keeps_what_was_entered() -> None:
    world, table, client = gibraltar_siege()
    url = f"/campaigns/{world.campaign.slug}/table/{table.pk}/"
    page = client.get(url)
    assert page.status_code == 200 and "Enter the result" in page.content.decode()
    assert table.engagement is not None
    ships = {s.name: s for s in table_ships(table)}
    data = {f"fate-{s.pk}": "intact" for s in ships.values()}
    british = ships["Mediterranean Fleet 2"]
    data[f"fate-{british.pk}"] = "captured"
    data[f"captured_by-{british.pk}"] = "ES"
    data["held_field"] = "0"
    data["action"] = "enter"
    refused = client.post(url, data)
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "can only be captured by a nation of the other side that was there: France (FR)" in text
    assert 'value="captured" selected' in text  # the form keeps what was entered
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.WAITING and table.result == {}


def _row(*cells: object) -> str:
    return "".join(f"<td>{escape(str(c))}</td>" for c in cells)


def test_the_storming_pack_fills_in_the_forces_fire_factors_and_the_odds() -> None:
    world, table, client = gibraltar_storming()
    html = client.get(f"/campaigns/{world.campaign.slug}/table/{table.pk}/pack/").content.decode()
    assert "Battle pack: the storming of Gibraltar" in html
    assert "France: 3 land units, 1 of them siege train" in html and "Garrison: 1 land unit." in html
    # The besiegers: 2 units firing 6 and a siege train firing as a battery, 7: 19 against a garrison
    # unit behind the works (18): 19 to 18, rounded down the column 1–1.
    assert _row("France: land units", 2, 6, 12) in html
    assert _row("France: siege trains (as batteries)", 1, 7, 7) in html
    assert _row("Total", "", "", 19) in html
    assert "Fire defence of the target hex: 18 (behind fortified works" in html
    assert "Odds: 19 against 18 is 19 to 18; rounded down, read the column 1–1 of the fire combat chart." in html
    # The garrison, counted five times at Gibraltar, its six forts and its battery: 79 against a line
    # of fewer than seven increments in clear terrain (9): 79 to 9, rounded down past 6–1: 6–1.
    assert _row("Great Britain: land units (1 counted 5 times at Gibraltar)", 5, 6, 30) in html
    assert _row("Coastal forts", 6, 7, 42) in html and _row("Artillery batteries", 1, 7, 7) in html
    assert "Odds: 79 against 9 is 79 to 9; rounded down, read the column 6–1" in html
    assert "6 coastal forts" in html
    for t in (fire_combat.fire_procedure_table(), fire_combat.fire_chart_table(), forts.fort_sizes_table()):
        assert escape(t.title) in html
        for row in t.rows:
            assert _row(*row) in html, (t.title, row)
    assert "seed" not in html.lower() and "RULES.md" not in html  # users never see the documents' names
    # Nothing rolled yet: the first fires are left blank for the table's own dice.
    assert '<strong>Besiegers\' fire:</strong> dice <span class="blank">' in html.replace("&#x27;", "'")
    assert "Dice rolled by the server" not in html
    pdf = pack_pdf_printed(client, f"/campaigns/{world.campaign.slug}/table/{table.pk}/pack.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    page = client.get(f"/campaigns/{world.campaign.slug}/table/{table.pk}/").content.decode()
    assert "Have the server roll the first fires" in page


def test_the_server_rolls_a_stormings_first_fires_into_the_turns_dice_log(tmp_path: Path) -> None:
    """Asked, the server rolls the besiegers' fire (19 against 18: 1–1) and then the garrison's (79
    against 9: 6–1), tens then units, then the tide's set-up dice and the tide-effect die (issue 31:
    seed 001:48's die is rolled for stormings too, thrown by the attacker, the besiegers), with the dice
    seeded for phase 6 at the port; logged once."""
    world, table, client = gibraltar_storming()
    before = list(Turn.objects.get(pk=world.turn.pk).dice_log)
    url = f"/campaigns/{world.campaign.slug}/table/{table.pk}/"
    assert client.post(url, {"action": "roll"}).status_code == 302
    table.refresh_from_db()
    dice = SeededDice(derive_seed(world.campaign.seed, world.turn.number, 6, "gibraltar", "table"))
    faces = [dice.roll(6) for _ in range(8)]
    assert [(d["purpose"], d["place"], d["subject"], d["die"], d["raw"]) for d in table.pack["dice"][:4]] == [
        ("fire_combat", "gibraltar", "besiegers", "d6", faces[0]),
        ("fire_combat", "gibraltar", "besiegers", "d6", faces[1]),
        ("fire_combat", "gibraltar", "garrison", "d6", faces[2]),
        ("fire_combat", "gibraltar", "garrison", "d6", faces[3]),
    ]
    tide = [(d["purpose"], d["die"], d["raw"], d["detail"]) for d in table.pack["dice"][4:]]
    assert tide == [
        ("setup", "d6", faces[4], "attacker's initial set-up die (France)"),
        ("setup", "d6", faces[5], "defender's set-up die 1 (Great Britain)"),
        ("setup", "d6", faces[6], "defender's set-up die 2 (Great Britain)"),
        ("tide_effect", "d6", faces[7], "tide effect, first tide cycle, thrown by the attacker (France)"),
    ]
    assert table.pack["setup"] == {"attacker": faces[4], "defender": [faces[5], faces[6]], "rolled": True}
    timing = tides.tide_timing_for(attacker_first=faces[4], defender_dice=[faces[5], faces[6]])
    attack = fire_combat.fire_for(attack=19, defence=18, tens=faces[0], units=faces[1])
    sally = fire_combat.fire_for(attack=79, defence=9, tens=faces[2], units=faces[3])
    assert attack.column is not None and attack.column.label == "1\u20131"
    assert sally.column is not None and sally.column.label == "6\u20131"
    said = [
        ["Besiegers' fire", fire_rolled_text(attack)],
        ["Garrison's fire, with the port's guns", fire_rolled_text(sally)],
        ["Tide", f"{timing.anchor.label.lower()} at {tides.clock(timing.hour * 60)}"],
        [
            "Tide effect",
            f"1D6 {faces[7]} for the first tide cycle, thrown for the attacker (France); add the modifiers for "
            "the shore, the passage and the wind, then read the chart",
        ],
    ]
    assert table.pack["rolled"] == said
    assert said[0][1].startswith(f"dice {faces[0]} and {faces[1]} ({faces[0]}{faces[1]}), column 1\u20131: ")
    log = Turn.objects.get(pk=world.turn.pk).dice_log
    assert log == [*before, *table.pack["dice"]]  # the turn's canonical dice log, appended once
    again = table_pack_roll(table=table)
    assert again.pack["dice"] == table.pack["dice"] and again.pack["rolled"] == said
    assert client.post(url, {"action": "roll"}).status_code == 302  # asked twice: nothing changes
    assert Turn.objects.get(pk=world.turn.pk).dice_log == log
    html = client.get(url + "pack/").content.decode().replace("&#x27;", "'")
    for name, words in said:
        assert f"<strong>{name}:</strong> {escape(words)}" in html
    assert "Dice rolled by the server" in html and "19 against 18: tens" in html
    assert f"Set-up dice: attacker's initial set-up die {faces[4]}, defender's {faces[5]}, {faces[6]}" in html
    assert escape(tides.tide_schedule_table(timing).title) in html
    page = client.get(url).content.decode().replace("&#x27;", "'")
    assert f"<li>Besiegers' fire: {escape(said[0][1])}</li>" in page and "roll the first fires" not in page
    pdf = pack_pdf_printed(client, url + "pack.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    path = tmp_path / "storming.pdf"
    path.write_bytes(pdf.content)
    text = subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True, text=True, timeout=60)
    assert f"dice {faces[0]} and {faces[1]} ({faces[0]}{faces[1]})" in text.stdout


def test_the_storming_pack_offers_the_inshore_set_up() -> None:
    """Issue 31: the inshore set-up (seed 001, written for "landings ... attacks on offshore island or
    coastal towns") is offered for a storming too, naming attacker (the besiegers) and defender (the
    port's owner) for the tide's dice (001:13, 001:48)."""
    world, table, client = gibraltar_storming()
    html = client.get(f"/campaigns/{world.campaign.slug}/table/{table.pk}/pack/").content.decode()
    assert "Inshore: tides and the naval set-up" in html
    assert "the attacker is France (the besiegers) and the defender Great Britain" in html
    for t in (tides.tide_timing_table(), tides.tide_effect_table(), tides.grounding_table()):
        assert escape(t.title) in html, t.title


def test_a_storming_not_waiting_at_the_table_has_no_dice_rolled() -> None:
    world = gibraltar_besieged()
    table = table_mark(campaign=world.campaign, place="gibraltar", kind="storming")
    with pytest.raises(TableResultRefused, match="only for a storming waiting at the table; this one is"):
        table_pack_roll(table=table)
    table.refresh_from_db()
    assert table.pack == {} and Turn.objects.get(pk=world.turn.pk).dice_log == []


def test_the_storming_pack_reads_the_factors_from_the_campaigns_table_settings() -> None:
    factors = {"table.land_unit_fire_factor": 4, "table.battery_fire_factor": 5}
    world, table, client = gibraltar_storming(settings=factors)
    html = client.get(f"/campaigns/{world.campaign.slug}/table/{table.pk}/pack/").content.decode()
    assert _row("France: land units", 2, 4, 8) in html and _row("France: siege trains (as batteries)", 1, 5, 5) in html
    assert "Odds: 13 against 18 is 13 to 18; rounded down, read the column 1–1.5" in html
    rules = client.get(f"/campaigns/{world.campaign.slug}/rules/").content.decode()
    assert "fire factor of a land unit in a storming fought on the table" in rules


def test_the_storming_result_form_refuses_a_port_taken_while_the_garrison_stands() -> None:
    world, table, client = gibraltar_storming()
    url = f"/campaigns/{world.campaign.slug}/table/{table.pk}/"
    page = client.get(url).content.decode()
    assert "The storming of Gibraltar" in page and "Garrison units lost (of 1)" in page
    assert "France: units lost (of 3; siege trains are lost last)" in page
    data = {"action": "enter", "as_gm": "1", "garrison_lost": "0", "besiegers_lost-FR": "1", "port_taken": "yes"}
    refused = client.post(url, data)
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "the port cannot be taken while 1 garrison unit is left" in text
    assert 'value="1"' in text and 'value="yes" checked' in text  # the form keeps what was entered
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.WAITING and table.result == {}
    data.update(garrison_lost="1")
    assert client.post(url, data).status_code == 302
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.CONFIRMED
    assert table.result == {"garrison_lost": 1, "besiegers_lost": {"FR": 1}, "port_taken": True}
    assert client.post(url, {"action": "approve"}).status_code == 302
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.APPLIED
    lost = LandUnit.objects.filter(campaign=world.campaign, state=LandUnit.State.LOST).select_related("nation")
    assert sorted((u.nation.code, u.siege_train) for u in lost) == [("FR", False), ("GB", False)]


def test_a_blockade_fight_at_sea_off_a_port_gets_the_inshore_set_up() -> None:
    """Issue 31: the inshore set-up (seed 001, "at a narrow straits ... river mouth, anchorage or port")
    is offered for a blockade fight at sea off a port too, not only for a battle at a port: a French
    squadron at sea in Biscay meets the British squadron blockading Brest. Brest is French, so France
    defends and Britain, blockading, attacks."""
    world = sea_world(seed=BLOCKADE_FIGHT_SEED)
    fleet(
        world,
        world.gb,
        "Inshore Squadron",
        "biscay",
        [("3rd-74", 3), ("frigate", 3)],
        posture="blockade",
        blockade_port=world.brest,
    )
    fleet(world, world.fr, "Escadre", "biscay", [("3rd-74", 3), ("frigate", 3)])
    table, client = table_held(world, "biscay")
    assert table.engagement is not None and table.engagement.port is None  # a fight at sea
    table_pack_roll(table=table)
    table.refresh_from_db()
    assert [d["purpose"] for d in table.pack["dice"]].count("setup") == 3
    html = client.get(f"/campaigns/{world.campaign.slug}/table/{table.pk}/pack/").content.decode()
    assert "Inshore: tides and the naval set-up" in html and "Tides of the day" in html
    assert "off Brest, the attacker is Great Britain and the defender France" in html
    assert "Forts and batteries" not in html  # at sea, out of the forts' reach
