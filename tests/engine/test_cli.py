"""``simulate_battle`` (CONTRACT.md): reports, odds, replays, and exit 2 with one line naming the
field on bad input. The command needs no database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from .test_spec import BODY, body

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, data: Any, name: str = "spec.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def run(*args: str) -> str:
    out = StringIO()
    call_command("simulate_battle", *args, stdout=out)
    return out.getvalue()


def fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as caught:
        call_command("simulate_battle", *args, stdout=StringIO())
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err.strip()


def test_the_json_report_has_the_contracts_keys(tmp_path):
    report = json.loads(run(write(tmp_path, BODY), "--seed", "7", "--json"))
    assert list(report)[:7] == ["type", "seed", "rounds", "winner", "outcome", "ships", "dice"]
    assert report["seed"] == 7
    assert set(report["ships"][0]) >= {"side", "name", "fate", "exploded", "captured_by"}
    assert set(report["dice"][0]) >= {"n", "round", "side", "die", "purpose", "raw", "mod", "result", "ship", "target"}


def test_a_seed_replays_identically(tmp_path):
    path = write(tmp_path, BODY)
    assert run(path, "--seed", "11", "--json") == run(path, "--seed", "11", "--json")


def test_hand_rolled_dice_replay_the_report_and_leftovers_are_reported(tmp_path, capsys):
    path = write(tmp_path, BODY)
    seeded = json.loads(run(path, "--seed", "5", "--json"))
    faces = ",".join(str(d["raw"]) for d in seeded["dice"])
    replay = json.loads(run(path, "--dice", faces, "--json"))
    assert replay["dice"] == seeded["dice"]
    assert replay["seed"] is None
    capsys.readouterr()
    run(path, "--dice", faces + ",4,4", "--json")
    assert capsys.readouterr().err.strip() == "warning: 2 unused dice: 4, 4"


def test_the_text_report_reads_round_by_round(tmp_path):
    text = run(write(tmp_path, BODY), "--seed", "3")
    assert text.startswith("Fast Fleet Action (seed 3), at most 6 rounds")
    assert "Round 1" in text and "Division 1" in text and "Initiative:" in text
    assert "Result:" in text and "Fates:" in text


def test_running_the_guns_reports_the_barrage_and_forts(tmp_path):
    spec = body(type="running_the_guns", port={"name": "Alexandria", "fortification": 3})
    report = json.loads(run(write(tmp_path, spec), "--seed", "2", "--json"))
    assert report["barrage"][0] == 15  # 15 fortification dice, floor(2 / 4) = 0 ship dice
    assert report["coastal_forts"] == 3
    assert "Barrage: 15 dice due" in run(write(tmp_path, spec), "--seed", "2")


def test_odds_are_fractions_of_the_runs_and_reproducible(tmp_path):
    path = write(tmp_path, BODY)
    odds = json.loads(run(path, "--runs", "200", "--seed", "1", "--json"))
    assert odds["runs"] == 200
    assert sum(odds["win"]) + odds["draw"] == pytest.approx(1)
    assert set(odds["mean_losses"][0]) == {"intact", "damaged", "disabled", "sunk", "captured"}
    assert sum(odds["mean_losses"][1].values()) == pytest.approx(2)
    assert run(path, "--runs", "200", "--seed", "1", "--json") == run(path, "--runs", "200", "--seed", "1", "--json")
    assert "British wins:" in run(path, "--runs", "50", "--seed", "1")


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (
            body(sides=[BODY["sides"][0], {**BODY["sides"][1], "ships": [{"name": "X", "class": "galleon"}]}]),
            "error: sides[1].ships[0].class: unknown class 'galleon'; allowed: four-decker, 1st, 2nd, 3rd-74, "
            "3rd-64, 4th, heavy-frigate, frigate, sloop, brig, fireship, transport",
        ),
        (body(type="duel"), "error: type: unknown type 'duel'"),
        (body(sides=[BODY["sides"][0]]), "error: sides: exactly two sides are needed, got 1"),
        (body(type="running_the_guns"), "error: port: running_the_guns needs a port"),
        ("{not json", "error: "),
    ],
)
def test_bad_specs_exit_2_with_one_line_naming_the_field(tmp_path, capsys, data, line):
    err = fails(capsys, write(tmp_path, data))
    assert err.startswith(line)


def test_dice_that_run_out_or_show_a_bad_face_exit_2(tmp_path, capsys):
    path = write(tmp_path, BODY)
    assert fails(capsys, path, "--dice", "3,4").startswith("error: --dice: scripted dice ran out: die 3")
    assert fails(capsys, path, "--dice", "9,1").startswith("error: --dice: scripted die 1 is 9, but a d6 shows 1..6")
    assert fails(capsys, path, "--dice", "3,x") == "error: --dice: die 2 is 'x', not a whole number"


def test_bad_options_exit_2(tmp_path, capsys):
    path = write(tmp_path, BODY)
    assert fails(capsys, path, "--runs", "0") == "error: --runs: must be at least 1, got 0"
    assert fails(capsys, path, "--seed", "abc") == "error: --seed: must be a whole number, got 'abc'"
    assert fails(capsys, path, "--runs", "5", "--dice", "1,2").startswith("error: --runs: cannot be combined")
    assert fails(capsys, str(tmp_path / "missing.json")).startswith("error: ")


def test_the_real_command_exits_2_with_one_line_on_stderr(tmp_path):
    """Through manage.py, as a user runs it: exit status 2, exactly one line on stderr."""
    bad = body(sides=[BODY["sides"][0], {**BODY["sides"][1], "navy": "XX"}])
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    done = subprocess.run(
        [sys.executable, "manage.py", "simulate_battle", write(tmp_path, bad)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "error: sides[1].navy: unknown navy 'XX'; allowed: GB, FR, ES, RU, OT, NL, DK, SE, PT, NA, US, PR, AT, EG"
    ]
    both = subprocess.run(
        [sys.executable, "manage.py", "simulate_battle", write(tmp_path, BODY), "--seed", "1", "--dice", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert both.returncode == 2
    assert len(both.stderr.splitlines()) == 1
