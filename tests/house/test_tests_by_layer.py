"""The tests' own house: every test file in the folder of the layer it tests (the folders mirror the
packages of solver/, each a package so that two files may share a base name), what files share kept in
tests/helpers (no test file imports another, nor conftest), and the tests speak of the product, never
of a specification document or a tracker's issue numbers."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.helpers.paths import ROOT, TESTS

# the folders of tests/: one per package of solver/ that has tests, and three of their own
OWN_FOLDERS = {"page": "the pages in headless Chromium", "journeys": "people's journeys end to end",
               "house": "the whole tree"}
SHARED = {"helpers"}  # what the tests share; no test file lives there
DATA = {"golden", "missions"}  # data the tests read, no code


def layer_folders() -> set[str]:
    return {p.parent.name for p in (ROOT / "solver").glob("*/__init__.py")}


def all_test_files() -> list[Path]:
    return sorted(TESTS.rglob("test_*.py"))


def code_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if DATA.isdisjoint(p.relative_to(TESTS).parts))


def test_every_test_file_is_in_the_folder_of_its_layer():
    allowed = layer_folders() | set(OWN_FOLDERS)
    misplaced = [str(p.relative_to(TESTS)) for p in all_test_files()
                 if len(p.relative_to(TESTS).parts) != 2 or p.parent.name not in allowed]
    assert not misplaced, f"test files outside tests/<layer>/ ({sorted(allowed)}): {misplaced}"
    folders = {p.name for p in TESTS.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))}
    unknown = folders - allowed - SHARED - DATA
    assert not unknown, f"folders of tests/ that mirror no package of solver/: {sorted(unknown)}"
    # a package each (tests/ too): two test files in different folders may share a base name
    packages = (folders - DATA) | {"."}
    assert not [f for f in packages if not (TESTS / f / "__init__.py").exists()]


def test_the_folders_mirror_every_layer_of_solver():
    folders = {p.parent.name for p in all_test_files()}
    assert layer_folders() <= folders, f"packages of solver/ with no folder of tests: {layer_folders() - folders}"


def imported_test_files(path: Path, root: Path = ROOT) -> list[str]:
    """Where ``path`` (a file under ``root``/tests/) imports a test file or conftest: "line: module"."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(root).parent.parts)
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the file's own package up
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
            names = [str(node.args[0].value)]
        for name in names:
            parts = name.split(".")
            if parts[0] == "tests" and any(p.startswith("test_") or p == "conftest" for p in parts):
                found.append(f"{node.lineno}: {name}")
                break
    return found


def test_no_test_file_imports_another_test_file():
    found = [f"{p.relative_to(ROOT)}:{line}" for p in code_files() for line in imported_test_files(p)]
    assert not found, f"imports of test files (move what they share into tests/helpers): {found}"


def test_the_import_check_sees_every_way_of_importing_a_test_file(tmp_path):
    folder = tmp_path / "tests" / "studio"
    folder.mkdir(parents=True)
    lines = {"from tests.analysis.test_rate import bot_logs": True, "import tests.game.test_search": True,
             "from .test_studio_games import client_for": True, "from . import test_pool": True,
             "from tests.conftest import ROOT": True, "from tests import conftest": True,
             "importlib.import_module('tests.game.test_search')": True,
             "from tests.helpers.client import client_for": False, "from solver.game.state import deal": False,
             "import pytest": False}
    for k, (line, bad) in enumerate(lines.items()):
        path = folder / f"test_{k}.py"
        path.write_text(f"import importlib\n{line}\n")
        assert bool(imported_test_files(path, tmp_path)) == bad, line


# what names a specification document or an issue; written in parts, so that this file passes itself
FORBIDDEN = [re.compile(r"\b" + "SP" + r"EC\b"),  # the contract is said in words, or docs/*.md named
             re.compile(r"\b[Ii]" + r"ssues?\b\s*(?:#?\d|:|\"|\()"),  # an issue by number or by name
             re.compile(r"(?:^|[\s(\[,;])#\d{2,}\b(?![0-9a-fA-F])"),  # a tracker's number (not a colour)
             re.compile(r"\b(?:PR|[Pp]ull request)\s*#?\d+")]
NAME_WORDS = {"spec", "is" + "sue", "is" + "sues"}  # words of a test's name


def mentions(text: str) -> list[str]:
    out = [m.group(0).strip() for pattern in FORBIDDEN for m in pattern.finditer(text)]
    out += [name for name in re.findall(r"def (test_\w+)", text) if NAME_WORDS & set(name.split("_"))]
    return out


def test_the_tests_name_no_specification_document_nor_tracker_number():
    texts = [p for p in sorted(TESTS.rglob("*")) if p.suffix in (".py", ".md", ".toml") and p.is_file()]
    found = {str(p.relative_to(ROOT)): m for p in texts if (m := mentions(p.read_text(encoding="utf-8")))}
    assert not found, f"say the contract in words (or name docs/*.md), not a document or number: {found}"


def test_the_wording_check_finds_what_it_forbids():
    spec, issue = "SP" + "EC", "is" + "sue"
    for bad in (f'"""x ({spec}, validate)."""', f"as in {spec}.md", f"# see {issue} 53", f"({issue}: interruptions)",
                f'({issue} "Your copy of the game", item 1)', "fixed in #" + "58", "(#" + "61)", "P" + "R 12",
                f"def test_matches_{spec.lower()}_example():", f"def test_sizes_of_the_{issue}(catalog):"):
        assert mentions(bad), bad
    for good in ('fill="#555"', "spec = GameSpec.of(m, 2)", '"[[placed]] #1 (red-5)"', "moment_spec(m)",
                 'not in ("#fafafa", "#555")', "a token issued to the seat", "def test_a_spectator_sees(x):"):
        assert not mentions(good), good


def test_long_first_names_test_files_that_exist():
    """conftest.py hands these files out first (the longest): a file moved or renamed must be renamed
    there too, or its tests would start last."""
    tree = ast.parse((TESTS / "conftest.py").read_text(encoding="utf-8"))
    listed = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                  and any(getattr(t, "id", "") == "LONG_FIRST" for t in n.targets))
    assert len(listed) >= 10 and len(set(listed)) == len(listed)
    missing = [name for name in listed if not (TESTS / name).is_file() or not Path(name).name.startswith("test_")]
    assert not missing, f"LONG_FIRST names files that are not there: {missing}"
