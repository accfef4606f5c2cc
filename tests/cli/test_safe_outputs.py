"""Outputs that cannot be written are input errors (exit 2, the path named, no traceback), found
before the work where possible; a result already computed is printed first; a closed pipe ends
quietly (docs/reference.md, "Commands in common")."""

import json
import subprocess
import sys

from click.testing import CliRunner

from solver.cli import main
from tests.helpers.paths import ROOT

MISSION = str(ROOT / "tests/missions/buddy/b01.toml")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_unwritable_outputs_are_input_errors_before_the_work(tmp_path):
    missing = tmp_path / "no-such-folder"
    cases = [("solve", MISSION, "--png", missing / "a.png"),
             ("show", MISSION, "--png", missing / "a.png"),
             ("play", MISSION, "--log", missing / "a.jsonl"),
             ("simulate", MISSION, "--games", 10, "--results", missing / "a.csv"),
             ("ceiling", MISSION, "--games", 2, "--results", missing / "a.csv"),
             ("play", MISSION, "--log", tmp_path)]  # a folder where a file is wanted
    for args in cases:
        res = run(*args)
        assert res.exit_code == 2, (args, res.output)
        assert str(args[-1]) in res.output and "Traceback" not in res.output, (args, res.output)
    afile = tmp_path / "a-file"
    afile.write_text("keep me")
    for cmd in (("report", MISSION, "--games", 10), ("generate", "--mode", "buddy", "--band", "0.1-0.2")):
        res = run(*cmd, "--out", afile / "sub")
        assert res.exit_code == 2 and "Traceback" not in res.output, (cmd, res.output)
    assert afile.read_text() == "keep me"


def test_json_errors_are_one_document(tmp_path):
    res = run("solve", MISSION, "--json", "--png", tmp_path / "missing" / "a.png")
    assert res.exit_code == 2
    doc = json.loads(res.stdout)
    assert set(doc["error"]) == {"file", "line", "message", "fix"}
    assert doc["error"]["file"].endswith("a.png") and doc["error"]["fix"]
    broken = tmp_path / "broken.toml"
    broken.write_text("name = 'x'\nmode = \"buddy\"\nclear = 1\nboard = 3\n")
    res = run("solve", broken, "--json")
    assert res.exit_code == 2
    err = json.loads(res.stdout)["error"]
    assert err["file"] == str(broken) and err["message"]


def test_answer_is_printed_before_a_failed_picture(tmp_path, monkeypatch):
    import solver.view.plot

    def fail(*a, **k):
        raise PermissionError(13, "Permission denied", str(tmp_path / "x.png"))

    monkeypatch.setattr(solver.view.plot, "save_png", fail)
    res = run("solve", MISSION, "--png", tmp_path / "x.png")
    assert res.exit_code == 2 and "solvable with 2 new piece(s)" in res.output and "x.png" in res.output
    assert "Traceback" not in res.output


def test_closed_pipe_ends_quietly():
    code = f"import sys; sys.argv = ['kakapo', 'play', {MISSION!r}]; from solver.cli import main; main()"
    sh = f"{sys.executable} -c \"{code}\" | head -1"
    r = subprocess.run(["bash", "-c", sh], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.stdout.count("\n") == 1 and r.stderr == "", r.stderr[-1000:]
