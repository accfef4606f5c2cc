"""The architecture as `ls solver/` shows it: packages in layers, imports only downward, no cycle, and
an import inside a function only for a heavy optional package, with its reason on the line."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.helpers.paths import ROOT

# lower numbers are lower layers; a package imports only from its own layer's package or lower layers
LAYERS = {"runtime": 0, "core": 1, "io": 2, "puzzle": 3, "game": 4, "openhand": 5, "analysis": 6, "view": 7,
          "play": 8, "app": 9, "studio": 10, "cli": 11}
PACKAGE = ROOT / "solver"


def modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def imports(path: Path, known: set[str]) -> list[tuple[str, int, bool, str]]:
    """(module imported, line, inside a function, the line's text) for every import of a solver module."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)
    out = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                names = [f"{child.module}.{a.name}" for a in child.names]
                target = next((n for n in names if n in known), child.module)
                out.append((target, child.lineno, in_function, lines[child.lineno - 1]))
            elif isinstance(child, ast.Import):
                for a in child.names:
                    out.append((a.name, child.lineno, in_function, lines[child.lineno - 1]))
            if not isinstance(child, ast.If) or not _type_checking(child):
                visit(child, inside)

    visit(tree, False)
    return out


def _type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, path in mods.items():
        for target, _, _, _ in imports(path, known):
            if target in known and target != m:
                edges[m].add(target)
    return edges


def test_every_module_belongs_to_a_layer():
    for m in modules():
        if m == "solver":
            continue
        assert layer_of(m) in LAYERS, f"{m} is not in a layer package: {sorted(LAYERS)}"
    assert not [p for p in PACKAGE.glob("*.py") if p.name != "__init__.py"], \
        "modules side by side at the top of solver/"


def test_imports_only_go_down():
    up = []
    for m, targets in graph().items():
        here = layer_of(m)
        for t in targets:
            there = layer_of(t)
            if there is None or here is None or there == here:
                continue
            if LAYERS[there] >= LAYERS[here]:
                up.append(f"{m} -> {t}")
    assert not up, "imports that go up or sideways:\n" + "\n".join(sorted(up))


def test_no_import_cycle():
    edges = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    cycles = []

    def strong(v):  # Tarjan
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in edges:
        if v not in index:
            strong(v)
    # a package's __init__ re-exporting one of its own modules is not a cycle of the architecture
    # (only that: any other circle, two modules of one package included, is one)
    cycles = [c for c in cycles if not (len(c) == 2 and (c[1].startswith(c[0] + ".") or c[0].startswith(c[1] + ".")))]
    assert not cycles, f"import cycles: {cycles}"


def test_the_command_line_reaches_analysis_and_play_only_through_app():
    """cli/ parses, calls app/ and prints: no import of analysis/ or play/ anywhere in it (at the top,
    inside a function, for types only, relative, or by name through importlib)."""
    found = []
    for path in sorted((PACKAGE / "cli").rglob("*.py")):
        package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package.rsplit(".", node.level - 1)[0] if node.level else ""
                module = ".".join(x for x in (base, node.module or "") if x)
                names = [module] + [f"{module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names = [node.value] if node.value.startswith("solver.") else []
            if any(n.split(".")[:2] in (["solver", "analysis"], ["solver", "play"]) for n in names):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, "the command line imports analysis/ or play/ (call app/ instead):\n" + "\n".join(found)


def test_imports_inside_functions_only_for_heavy_packages_with_a_reason():
    known = set(modules())
    bad = []
    for path in modules().values():
        for _, line, inside, text in imports(path, known):
            if inside and not any(word in text for word in ("# heavy", "# the optional")):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {text.strip()}")
    assert not bad, "imports inside functions without a reason:\n" + "\n".join(bad)


def test_the_command_is_not_a_generic_top_level_module():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["kakapo"] == "solver.cli:main"
    assert "py-modules" not in project["tool"]["setuptools"]


def test_every_package_travels_in_the_wheel():
    """setuptools lists packages by hand: a package left out installs a broken command."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "solver").rglob("__init__.py")}
    assert found <= listed, f"packages missing from pyproject.toml: {sorted(found - listed)}"


def test_no_test_reads_the_benchmarks():
    for path in sorted((ROOT / "tests").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        code = [ln for ln in text.splitlines() if not ln.strip().startswith(("#", '"""')) and "benchmarks/" in ln]
        opens = [ln for ln in code if "ROOT /" in ln or "open(" in ln or "glob(" in ln]
        assert not opens, f"{path.name} reads benchmarks/: {opens}"


def test_the_command_starts_without_heavy_imports():
    """`kakapo --help` and the light commands load no OR-Tools, Numba, pandas or matplotlib."""
    heavy = "('numba', 'ortools', 'pandas', 'matplotlib', 'distributed')"
    code = f"import sys, solver.cli; print(sorted(m for m in {heavy} if m in sys.modules))"
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stdout + r.stderr


def test_no_module_over_700_lines_and_no_page_script_over_500():
    long = [f"{p.relative_to(ROOT)}: {n}" for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 700]
    long += [f"{p.relative_to(ROOT)}: {n}" for p in (PACKAGE / "studio" / "static").glob("*.js")
             if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500]
    assert not long, "split these by what they are:\n" + "\n".join(long)


def test_the_page_is_es_modules_sharing_no_globals():
    static = PACKAGE / "studio" / "static"
    page = (static / "index.html").read_text(encoding="utf-8")
    assert '<script type="module" src="/static/main.js">' in page and page.count("<script") == 1
    for js in static.glob("*.js"):
        text = js.read_text(encoding="utf-8")
        assert "window." not in text.replace("window.location", "").replace("window.confirm", ""), js.name
        assert "innerHTML" not in text and "insertAdjacentHTML" not in text, js.name  # text is never HTML


def test_no_studio_router_imports_another():
    """The routers share what they need through the studio's own modules (the folder, the context),
    never through each other."""
    known = set(modules())
    routers = sorted((PACKAGE / "studio" / "routers").glob("*.py"))
    assert len(routers) > 5
    found = [f"{path.name}:{line}: {text.strip()}" for path in routers for target, line, _, text in imports(path, known)
             if target.startswith("solver.studio.routers.")]
    assert not found, "routers importing routers:\n" + "\n".join(found)


SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER)\b[^\n]*\b(FROM|INTO|SET|TABLE|WHERE)\b|\.execute\(")


def test_the_database_is_read_and_written_only_by_the_store():
    """The studio's SQL stays in its store (store.py and its parts, stored_*.py, the database):
    a router or the table asks the store, never the database."""
    studio = PACKAGE / "studio"
    stores = {"store.py", "database.py"} | {p.name for p in studio.glob("stored_*.py")}
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in sorted(studio.rglob("*.py")) if p.name not in stores
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if SQL.search(line)]
    assert not found, "SQL outside the store:\n" + "\n".join(found)
    assert SQL.search('db.execute("SELECT id FROM jobs ORDER BY rowid")')  # what it looks for


def test_the_package_keeps_small_rooms():
    """A room split by concern when it grows: no class over 300 lines, no module over 600."""
    big = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > 600:
            big.append(f"{path.relative_to(ROOT)}: {len(text.splitlines())} lines")
        big += [f"{path.relative_to(ROOT)}: class {n.name}, {n.end_lineno - n.lineno + 1} lines"
                for n in ast.walk(ast.parse(text)) if isinstance(n, ast.ClassDef) and n.end_lineno - n.lineno >= 300]
    assert not big, "split these by concern:\n" + "\n".join(big)


# the batch measurements' entry points and their commands, still positional: each goes keyword-only
# with its callers, and leaves this list then (it never grows)
STILL_POSITIONAL = {"solver/analysis/simulate.py:play_games"}
MOST_POSITIONAL = 8  # parameters a call may give by position: after the fourth, keyword-only


def long_positional(text: str) -> list[str]:
    """The functions of a module's text with more than MOST_POSITIONAL positional parameters (self
    and cls not counted)."""
    out = []
    for n in ast.walk(ast.parse(text)):
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef):
            names = [a.arg for a in n.args.posonlyargs + n.args.args if a.arg not in ("self", "cls")]
            if len(names) > MOST_POSITIONAL:
                out.append(n.name)
    return out


def test_parameters_after_the_fourth_are_keyword_only():
    """A call names what it passes: a function's parameters after the fourth are keyword-only
    (`def f(a, b, c, d, *, e)`), and a compiled kernel, which cannot have those, takes the arrays it
    passes along as tuples (game/fast/heuristic.py says which). At most 8 functions of the package
    take more than 8 positional parameters, besides the ones still listed."""
    found = [f"{path.relative_to(ROOT).as_posix()}:{name}" for path in sorted(PACKAGE.rglob("*.py"))
             for name in long_positional(path.read_text(encoding="utf-8"))]
    others = [name for name in found if name not in STILL_POSITIONAL]
    assert len(others) <= 8, "make their parameters after the fourth keyword-only:\n" + "\n".join(others)
    done = STILL_POSITIONAL - set(found)
    assert not done, "no longer positional: take them off STILL_POSITIONAL:\n" + "\n".join(sorted(done))


def test_long_positional_counts_positional_parameters_only():
    text = ("def nine(a, b, c, d, e, f, g, h, i): ...\n"
            "def keyword_only_after_eight(a, b, c, d, e, f, g, h, *, i, j): ...\n"
            "async def nine_waiting(a, /, b, c, d, e, f, g, h, i): ...\n"
            "class K:\n    def method(self, a, b, c, d, e, f, g, h): ...\n")
    assert long_positional(text) == ["nine", "nine_waiting"]


def test_the_page_holds_no_deck_and_writes_no_file_format():
    """The cards come from the server (GET /api/rules into deck.js); a file the page saves is written
    by the server from what the page sends."""
    static = PACKAGE / "studio" / "static"
    colours = re.compile(r'\[\s*"red",\s*"yellow"|\bv\s*<=\s*8\b|\[1, 2, 3, 4, 5, 6, 7, 8\]')
    toml = re.compile(r"`\[\$\{|\$\{[^}]*\} = \"")  # a table's header or a key = "value" line in a template
    for js in sorted(static.glob("*.js")):
        text = js.read_text(encoding="utf-8")
        assert not colours.search(text), f"{js.name} holds a deck of its own: take it from deck.js"
        assert not toml.search(text), f"{js.name} writes a file format: let the server write it"
    deck = (static / "deck.js").read_text(encoding="utf-8")
    assert "export function setDeck(colours, values)" in deck and "setDeck(r.colours, r.values)" in (
        static / "rules.js").read_text(encoding="utf-8")
