"""One source of the game's rules: the page reads them from the server (`GET /api/rules`) and holds
none of its own; every command a module defines is reachable from the command group (and said in
the README); every policy has its sentence, its player and its section in the docs, and every
one-ply policy its own branch in the compiled players; every job kind its own runner and words,
dispatched by the registry alone, and its row in the studio's API table. The steps of the change
guide (docs/architecture.md, "Where a change goes") that a test can tell."""

from __future__ import annotations

import importlib
import inspect
import re

import pytest

from solver.app.pagerules import rules_doc
from solver.app.registry import JOBS
from solver.cli.group import COMMANDS, main
from solver.core.codes import _POLICY_SUMMARY, ONE_PLY, PolicyId
from solver.core.spec import MODE_RULES
from tests.helpers.paths import ROOT

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
    from tests.helpers.client import client_for

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
    headings = [ln for ln in (ROOT / "docs" / "reference.md").read_text().splitlines() if ln.startswith("## ")]
    sections = {name for ln in headings for name in re.findall(r"`kakapo ([a-z]+)", ln)}
    assert sections == set(COMMANDS), f"docs/reference.md's sections: {sections ^ set(COMMANDS)}"


def test_every_one_ply_policy_has_a_branch_in_the_compiled_players():
    from solver.game.fast import batch, policies

    source = inspect.getsource(policies.decide)
    fall_through = PolicyId.HEURISTIC  # what decide plays when no other branch is taken
    for p in ONE_PLY:
        if p != fall_through:
            assert re.search(rf"policy == {p.name}\b", source), f"{p.label} has no branch in fast.policies.decide"
    assert "PolicyId.SEARCH" in inspect.getsource(batch)  # the search player: its own kernels
    assert set(ONE_PLY) | {PolicyId.SEARCH} == set(PolicyId)


def test_every_policy_has_its_sentence_its_player_and_its_section_in_the_docs():
    from solver.game.roster import make_policy

    assert set(_POLICY_SUMMARY) == set(PolicyId), "a policy without its sentence in core/codes.py"
    sections = set(re.findall(r"^## `([a-z-]+)`", (ROOT / "docs" / "policies.md").read_text(), re.M))
    for p in PolicyId:
        assert p.summary and p.summary[0].islower() and "\n" not in p.summary, p.label  # one plain sentence
        assert make_policy(p.label, 2).name == p.label, p.label  # game/roster.py knows its player
        assert p.label in sections, f"docs/policies.md has no section for {p.label}"


def test_every_job_kind_has_its_own_runner_and_words_and_only_the_registry_dispatches():
    runners = {k.name: k.run for k in JOBS.values()}
    words = {k.name: k.words for k in JOBS.values()}
    assert len(set(runners.values())) == len(JOBS), f"job kinds sharing a runner: {runners}"
    assert len(set(words.values())) == len(JOBS), f"job kinds sharing their words: {words}"
    for name, run in runners.items():
        assert list(inspect.signature(run).parameters)[:5] == ["request", "catalog", "workers", "progress", "shown"], \
            name
    chains = [f"{p.relative_to(ROOT)}:{n}" for p in sorted((ROOT / "solver" / "app").glob("*.py"))
              for n, line in enumerate(p.read_text().splitlines(), start=1)
              if re.search(r"""\bkind["'\]]*\s*(==|!=|\bin\b)\s*[("'{\[]""", line)]
    assert not chains, "dispatch by the job's kind goes through registry.JOBS, not a chain:\n" + "\n".join(chains)
    said = [ln for ln in (ROOT / "docs" / "studio.md").read_text().splitlines() if "POST /api/jobs" in ln]
    for name in JOBS:
        assert any(f'"{name}"' in ln for ln in said), f"docs/studio.md does not say how to ask for the job {name}"


def test_every_studio_tab_has_its_panel_and_its_words_in_the_docs():
    page = (STATIC / "index.html").read_text()
    tabs = re.findall(r'<button[^>]*role="tab"[^>]*data-tab="([a-z]+)"[^>]*>([^<]+)</button>', page)
    assert len(tabs) >= 7 and len(tabs) == page.count('role="tab"')
    studio = (ROOT / "docs" / "studio.md").read_text()
    for name, label in tabs:
        assert re.search(rf'<main id="{name}" data-view="{name}"', page), f"the {label} tab has no panel"
        assert f"the {label} tab" in studio, f"docs/studio.md does not name the {label} tab"
