"""The TOML the page shows is the server's: the page's writer (static/editor.js ``toml``), run by
node on the state document the server gives for each bundled mission, writes byte for byte what
io/missionwrite.mission_toml writes (the rules it needs, the modes' defaults, from GET /api/rules)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from solver.app.pagerules import rules_doc
from solver.app.solving import editable
from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission
from solver.io.missionfile import made_with as declared_digest
from solver.io.missionwrite import mission_toml
from solver.io.paths import MISSIONS
from tests.helpers.paths import ROOT

STATIC = ROOT / "solver" / "studio" / "static"
RUN = """
import { readFileSync } from "node:fs";
const { RULES } = await import(process.argv[2] + "/gamerules.js");
const { toml } = await import(process.argv[2] + "/editor.js");
const input = JSON.parse(readFileSync(0, "utf-8"));
for (const m of input.rules.modes) RULES.modes[m.name] = m;
process.stdout.write(JSON.stringify(input.states.map((s) => toml(s))));
"""


def test_the_pages_toml_is_the_servers_on_every_bundled_mission(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (the page's writer is run by node)")
    catalog = load_catalog()
    files = [p for folder in ("buddy", "party") for p in sorted((MISSIONS / folder).glob("*.toml"))]
    missions = [load_mission(p, catalog) for p in files]
    # and one that says which catalog it was made with (pieces_digest)
    made_with = files[0].read_text().replace("board =", f'pieces_digest = "{catalog.digest}"\nboard =', 1)
    missions.append(load_mission(tmp_path / "made-with.toml", catalog, text=made_with))
    assert declared_digest(missions[-1]) == catalog.digest
    script = tmp_path / "run.mjs"
    script.write_text(RUN)
    res = subprocess.run([node, str(script), STATIC.as_uri()], capture_output=True, text=True, timeout=60,
                         input=json.dumps({"rules": rules_doc(), "states": [editable(m) for m in missions]}))
    assert res.returncode == 0, res.stderr
    written = json.loads(res.stdout)
    assert len(written) == len(missions) >= 30
    for m, text in zip(missions, written, strict=True):
        assert text == mission_toml(m), m.id
