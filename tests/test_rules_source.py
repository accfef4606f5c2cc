"""One source of the game's rules: the page reads them from the server (`GET /api/rules`) and holds
none of its own; every command a module defines is reachable from the command group (and said in
the README); every one-ply policy has its own branch in the compiled players."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

from solver.app.rules import rules_doc
from solver.cli.group import COMMANDS, main
from solver.core.codes import ONE_PLY, PolicyId
from solver.core.spec import MODE_RULES

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "solver" / "studio" / "static"


def test_the_rules_document_says_every_mode_policy_and_job_once():
    doc = rules_doc()
    assert [m["name"] for m in doc["modes"]] == list(MODE_RULES)
    assert {m["name"]: m["players"] for m in doc["modes"]} == {k: list(v.players) for k, v in MODE_RULES.items()}
    assert [p["name"] for p in doc["policies"]] == [p.label for p in PolicyId]
    assert all(p["about"] and p["about"][0].islower() for p in doc["policies"])  # a plain sentence each
    assert doc["table_default"] in [p["name"] for p in doc["policies"]]
    assert {"ladder", "simulate", "ceiling", "review", "rate", "chance"} <= {j["name"] for j in doc["jobs"]}


def test_the_studio_serves_the_rules(tmp_path):
    pytest.importorskip("fastapi")
    from tests.test_studio_games import client_for

    res = client_for(tmp_path).get("/api/rules")
    assert res.status_code == 200 and res.json() == rules_doc()


def test_the_page_holds_no_rule_of_its_own():
    page = (STATIC / "index.html").read_text()
    for sel in ("f-mode", "j-kind", "t-trump", "g-players", "g-policy"):
        m = re.search(rf'<select id="{sel}">(.*?)</select>', page, re.S)
        assert m is not None and "<option" not in m.group(1), sel  # filled from GET /api/rules
    script = "\n".join(p.read_text() for p in STATIC.glob("*.js"))
    for name in [p.label for p in PolicyId] + list(MODE_RULES):
        assert f'"{name}"' not in script and f"'{name}'" not in script, name


def test_every_command_a_module_defines_is_in_the_command_group_and_the_readme():
    for module in set(COMMANDS.values()):
        importlib.import_module(f"solver.cli.{module}")
    assert set(main.commands) == set(COMMANDS), set(main.commands) ^ set(COMMANDS)
    readme = (ROOT / "README.md").read_text()
    said = set(re.findall(r"^\| `kakapo ([a-z]+)", readme, re.M))
    assert said == set(COMMANDS), said ^ set(COMMANDS)


def test_every_one_ply_policy_has_a_branch_in_the_compiled_players():
    from solver.game.fast import batch, policies

    source = inspect.getsource(policies.decide)
    fall_through = PolicyId.HEURISTIC  # what decide plays when no other branch is taken
    for p in ONE_PLY:
        if p != fall_through:
            assert re.search(rf"policy == {p.name}\b", source), f"{p.label} has no branch in fast.policies.decide"
    assert "PolicyId.SEARCH" in inspect.getsource(batch)  # the search player: its own kernels
    assert set(ONE_PLY) | {PolicyId.SEARCH} == set(PolicyId)
