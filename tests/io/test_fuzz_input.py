"""Mangled mission and catalog files give an InputError (clear message), never another exception."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.core.errors import InputError
from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission
from tests.helpers.fuzzfiles import fuzz
from tests.helpers.paths import ROOT

MISSION = (ROOT / "tests/missions/buddy/b04.toml").read_text()
CATALOG = (ROOT / "missions/pieces.toml").read_text()
ALPHABET = st.sampled_from([*list('.#ABrgybp"=[]\n 0123456789-,/xall'), '"""', "[[placed]]", "clear", "cells"])


def mangle(text: str, data) -> str:
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 8)))
        text = text[:i] + "".join(data.draw(st.lists(ALPHABET, max_size=4))) + text[j:]
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mangled_mission_is_input_error_or_valid(tmp_path, catalog, data):
    path = tmp_path / "m.toml"
    path.write_text(mangle(MISSION, data))
    try:
        load_mission(path, catalog)
    except InputError as e:
        assert str(path) in str(e)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mangled_catalog_is_input_error_or_valid(tmp_path, data):
    path = tmp_path / "p.toml"
    path.write_text(mangle(CATALOG, data))
    try:
        load_catalog(path)
    except InputError as e:
        assert str(path) in str(e)


@pytest.mark.slow
def test_corpus_fuzzer_briefly():
    """The long fuzzer (benchmarks/fuzz_files.py: mutations and hostile generators over missions, catalogs and
    game logs), briefly."""
    escapes = []
    # "slow" here is 10x the slowest file measured on a quiet 2-core machine (about 1 s under a busy
    # test run): the time itself is benchmarks/fuzz_files.py's to measure, not this test's
    counts, slowest, _ = fuzz(500, 3, lambda n, text, e: escapes.append((n, repr(e))), slow_after=10.0)
    assert counts["escape"] == 0 and counts["slow"] == 0, (escapes[:3], slowest)
    assert counts["loaded"] > 0 and counts["input_error"] > 0
