"""Every numbered point of the project's RULES.md is named by at least one test ("RULES.md §N")."""

import re

from tests.helpers.paths import ROOT


def test_every_rule_has_a_test():
    points = {int(n) for n in re.findall(r"^(\d+)\. ", (ROOT / "RULES.md").read_text(), re.M)}
    assert points == set(range(1, len(points) + 1)) and len(points) >= 20
    named = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        for group in re.findall(r"RULES\.md ((?:§\d+(?:, )?)+)", path.read_text()):
            named |= {int(n) for n in re.findall(r"§(\d+)", group)}
    assert points - named == set(), f"rules without a test: {sorted(points - named)}"
