"""The studio's JSON API (docs/studio.md, "The JSON API") through Starlette's test client: every endpoint,
its errors, and the security rules. The answers are the command line's."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

pytest.importorskip("fastapi")
from starlette.testclient import TestClient

from solver.cli import main
from solver.studio.app import create_app
from tests.helpers.missiontext import board_text
from tests.helpers.paths import ROOT

B05 = (ROOT / "missions/buddy/b05.toml").read_text(encoding="utf-8")
ONE_BIRD = f'''name = "One bird"
mode = "buddy"
clear = 1
board = """
{board_text({5: "....rA......"})}
"""
'''


@pytest.fixture
def studio(tmp_path):
    app = create_app(tmp_path, None, 1, warm=False, bot_pace=0)
    with TestClient(app) as client:
        client.app_ctx = app.state.ctx
        client.folder = tmp_path
        yield client


def error_of(res):
    doc = res.json()
    assert set(doc) == {"error"} and set(doc["error"]) == {"message", "fix"}, doc
    return doc["error"]["message"]


def test_the_page_and_its_files_are_served(studio):
    res = studio.get("/")
    assert res.status_code == 200 and "text/html" in res.headers["content-type"]
    assert "/static/main.js" in res.text and "http" not in res.text.replace("http-equiv", "")  # nothing remote
    for name in ("main.js", "editor.js", "board.js", "studio.css"):
        assert studio.get(f"/static/{name}").status_code == 200
    assert studio.get("/static/../app.py").status_code == 404
    assert studio.get("/static/nothing.js").status_code == 404


def test_missions_list_bundled_and_folder(studio):
    (studio.folder / "mine.toml").write_text(ONE_BIRD, encoding="utf-8")
    (studio.folder / "broken.toml").write_text("name = ", encoding="utf-8")
    rows = studio.get("/api/missions").json()
    listed = json.loads(CliRunner().invoke(main, ["list", "--json"]).stdout)["missions"]
    bundled = [r for r in rows if r["source"] == "bundled"]
    assert [r["id"] for r in bundled] == [r["id"] for r in listed]
    assert {r["id"]: r["valid"] for r in rows if r["source"] == "dir"} == {"mine": True, "broken": False}
    doc = studio.get("/api/missions/mine").json()
    assert doc["source"] == "dir" and doc["text"] == ONE_BIRD
    doc = studio.get("/api/missions/b05").json()
    assert doc == {"id": "b05", "source": "bundled", "file": "b05.toml", "text": B05}
    for bad in ("nope", "..%2Fsecret", "b05.toml%00"):
        assert studio.get(f"/api/missions/{bad}").status_code == 404


def test_validate_gives_validates_items_with_lines_and_cells(studio):
    ok = studio.post("/api/validate", json={"text": ONE_BIRD}).json()
    assert ok["valid"] and ok["errors"] == [] and ok["mission"]["board"][4] == "....rA......"
    broken = ONE_BIRD.replace('"....rA......"', "").replace("....rA......", "r.....A.....")
    doc = studio.post("/api/validate", json={"text": broken, "name": "x.toml"}).json()
    assert doc["valid"] is False and doc["mission"] is None
    e = doc["errors"][0]
    assert e["line"] == 9 and "a5" in e["cells"] and "does not share an edge" in e["message"] and e["fix"]
    decoy = ONE_BIRD.replace("....rA......", "A...........")
    doc = studio.post("/api/validate", json={"text": decoy}).json()
    assert doc["valid"] and "decoy" in doc["warnings"][0]["message"] and doc["warnings"][0]["cells"] == ["a5"]


def test_validate_agrees_with_the_cli_on_errors(studio, tmp_path):
    text = ONE_BIRD.replace("clear = 1", "clear = 3")
    path = tmp_path / "three.toml"
    path.write_text(text, encoding="utf-8")
    cli = json.loads(CliRunner().invoke(main, ["validate", str(path), "--json"]).stdout)
    api = studio.post("/api/validate", json={"text": text, "name": "three.toml"}).json()
    cli_errors = cli[0]["errors"] if isinstance(cli, list) else cli["files"][0]["errors"]
    assert [(e["line"], e["message"]) for e in api["errors"]] == [(e["line"], e["message"]) for e in cli_errors]


@pytest.mark.slow
def test_solve_is_the_clis_answer(studio, tmp_path):
    doc = studio.post("/api/solve", json={"text": B05, "name": "b05.toml", "count": True}).json()
    cli = json.loads(CliRunner().invoke(main, ["solve", "b05", "--json"]).stdout)
    assert (doc["status"], doc["pieces_used"], doc["optimal"]) == (cli["status"], cli["pieces_used"], cli["optimal"])
    assert doc["placements"] and all(len(p["cells"]) > 0 for p in doc["placements"])
    assert doc["solution_count"] >= 1 and "count_complete" in doc
    # the board in front of you: pieces placed, rounds left
    mid = B05.replace("rounds = 6", "rounds = 4") + \
        '\n[[placed]]\npiece = "green-7"\ncells = ["c3", "d3", "c4", "d4", "e4"]\n'
    path = tmp_path / "mid.toml"
    path.write_text(mid, encoding="utf-8")
    cli = json.loads(CliRunner().invoke(main, ["solve", str(path), "--json"]).stdout)
    doc = studio.post("/api/solve", json={"text": mid, "name": "mid.toml"}).json()
    assert {k: doc[k] for k in ("status", "pieces_used", "optimal")} == \
        {k: cli[k] for k in ("status", "pieces_used", "optimal")}
    res = studio.post("/api/solve", json={"text": "name = 1"})
    assert res.status_code == 422 and error_of(res)


@pytest.mark.slow
def test_save_never_overwrites_unasked_and_stays_in_the_folder(studio):
    res = studio.post("/api/missions", json={"file": "new.toml", "text": ONE_BIRD})
    assert res.status_code == 200 and (studio.folder / "new.toml").read_text(encoding="utf-8") == ONE_BIRD
    res = studio.post("/api/missions", json={"file": "new.toml", "text": "changed"})
    assert res.status_code == 409 and (studio.folder / "new.toml").read_text(encoding="utf-8") == ONE_BIRD
    res = studio.post("/api/missions", json={"file": "new.toml", "text": B05, "overwrite": True})
    assert res.status_code == 200 and (studio.folder / "new.toml").read_text(encoding="utf-8") == B05
    for bad in ("../out.toml", "sub/x.toml", "x.txt", "..toml", "/etc/passwd.toml", "a\\b.toml", ""):
        res = studio.post("/api/missions", json={"file": bad, "text": ONE_BIRD})
        assert res.status_code in (400, 422), bad
        error_of(res)
    assert sorted(p.name for p in studio.folder.iterdir()) == [".kakapo", "new.toml"]  # and the studio's state
    # the saved file is one `kakapo validate` accepts
    assert CliRunner().invoke(main, ["validate", str(studio.folder / "new.toml"), "--games", "20",
                                     "--ladder-games", "0"]).exit_code == 0


def test_malformed_requests_are_4xx_with_a_json_error(studio):
    cases = [
        studio.post("/api/validate", content=b"{not json", headers={"content-type": "application/json"}),
        studio.post("/api/validate", json={"txt": "x"}),
        studio.post("/api/validate", json={"text": 5}),
        studio.post("/api/solve", json={"text": B05, "players": 9}),
        studio.post("/api/jobs", json={"kind": "dance", "text": B05}),
        studio.post("/api/jobs", json={"kind": "ladder", "text": B05, "games": -1}),
        studio.post("/api/jobs", json={"kind": "simulate", "text": B05, "players": 4}),
        studio.get("/api/jobs/j999"),
        studio.delete("/api/jobs/j999"),
        studio.get("/api/nothing"),
    ]
    for res in cases:
        assert 400 <= res.status_code < 500, (res.status_code, res.text)
        error_of(res)
    assert studio.get("/api/status").status_code == 200  # the server lives on


def test_security_host_origin_and_size(tmp_path):
    app = create_app(tmp_path, None, 1, warm=False, bot_pace=0)
    app.allow("127.0.0.1", 8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        assert client.get("/api/status").json()["kernels_progress"] == 1.0  # nothing to compile: ready
        assert client.get("/api/status", headers={"Host": "localhost:8765"}).status_code == 200
        res = client.get("/api/status", headers={"Host": "evil.example:8765"})
        assert res.status_code == 403 and error_of(res)
        assert client.get("/api/status", headers={"Host": "127.0.0.1:9999"}).status_code == 403
        own = {"Origin": "http://127.0.0.1:8765"}
        assert client.post("/api/validate", json={"text": ONE_BIRD}, headers=own).status_code == 200
        res = client.post("/api/validate", json={"text": ONE_BIRD}, headers={"Origin": "http://evil.example"})
        assert res.status_code == 403
        res = client.post("/api/missions", json={"file": "x.toml", "text": ONE_BIRD},
                          headers={"Origin": "http://127.0.0.1.evil.example:8765"})
        assert res.status_code == 403 and not (tmp_path / "x.toml").exists()
        assert client.get("/api/status", headers={"Origin": "http://evil.example"}).status_code == 200  # reads
        big = json.dumps({"text": "#" * 1_100_000})
        res = client.post("/api/validate", content=big, headers={"content-type": "application/json"})
        assert res.status_code == 413 and error_of(res)

        def chunks():
            for _ in range(12):
                yield b"#" * 100_000

        res = client.post("/api/validate", content=chunks(), headers={"content-type": "application/json"})
        assert res.status_code == 413


def test_hostile_text_comes_back_as_data(studio):
    evil = ONE_BIRD.replace('"One bird"', '"<img src=x onerror=alert(1)>"')
    doc = studio.post("/api/validate", json={"text": evil}).json()
    assert doc["mission"]["name"] == "<img src=x onerror=alert(1)>"  # JSON data: the page shows it as text
    assert "innerHTML" not in studio.get("/static/studio.js").text


def wait(client, job_id, timeout=120):
    t0 = time.time()
    while time.time() - t0 < timeout:
        doc = client.get(f"/api/jobs/{job_id}").json()
        if doc["state"] in ("done", "failed", "cancelled"):
            return doc
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} did not end")


def test_jobs_run_in_order_report_progress_and_cancel(studio):
    first = studio.post("/api/jobs", json={"kind": "simulate", "text": B05, "games": 200, "seed": 3}).json()["id"]
    second = studio.post("/api/jobs", json={"kind": "ceiling", "text": B05, "games": 3, "seed": 3}).json()["id"]
    third = studio.post("/api/jobs", json={"kind": "simulate", "text": B05, "games": 50_000}).json()["id"]
    assert studio.get(f"/api/jobs/{second}").json()["state"] in ("queued", "running", "done")
    doc = wait(studio, first)
    assert doc["state"] == "done" and doc["progress"] == 1.0, doc
    cli = json.loads(CliRunner().invoke(main, ["simulate", "b05", "--games", "200", "--seed", "3", "--json"]).stdout)
    assert doc["result"]["cleared"] == cli["cleared"] and doc["result"]["ci95"] == cli["ci95"]
    doc = wait(studio, second)
    assert doc["state"] == "done" and doc["result"]["games"] == 3
    while studio.get(f"/api/jobs/{third}").json()["state"] == "queued":
        time.sleep(0.1)
    assert studio.delete(f"/api/jobs/{third}").status_code == 200
    assert wait(studio, third)["state"] == "cancelled"
    # the events stream the same object until the job ends
    with studio.stream("GET", f"/api/jobs/{first}/events") as res:
        lines = [x for x in res.iter_lines() if x.startswith("data: ")]
    assert json.loads(lines[-1][6:])["state"] == "done"


@pytest.mark.slow
def test_a_ladder_job_gives_the_ladders_document(studio):
    job = studio.post("/api/jobs", json={"kind": "ladder", "text": B05, "name": "b05.toml", "games": 6,
                                          "seed": 2}).json()["id"]
    doc = wait(studio, job, timeout=300)
    assert doc["state"] == "done", doc
    cli = json.loads(CliRunner().invoke(main, ["ladder", "b05", "--games", "6", "--seed", "2", "--json"]).stdout)
    assert [r["cleared"] for r in doc["result"]["rungs"]] == [r["cleared"] for r in cli["rungs"]]
    assert doc["result"]["difficulty"] == cli["difficulty"] and "campaign" in doc["result"]["difficulty"]


def named_model(schema):
    """Whether a JSON answer's schema is one of the API's models (or a list of one), not "any JSON"."""
    if schema.get("type") == "array":
        return named_model(schema.get("items", {}))
    return schema.get("$ref", "").startswith("#/components/schemas/")


def undocumented(doc):
    """The operations whose 2xx answer has no model (JSON) or no declared file type (the others)."""
    out = []
    for path, operations in doc["paths"].items():
        for method, op in operations.items():
            ok = [body for code, body in op["responses"].items() if code.startswith("2")]
            content = {kind: body.get("schema") or {}
                       for answer in ok for kind, body in answer.get("content", {}).items()}
            good = content and all(named_model(schema) if kind == "application/json"
                                   else schema.get("type") == "string" and kind != "text/plain"
                                   for kind, schema in content.items())
            if not good:
                out.append(f"{method.upper()} {path}: {content}")
    return out


def test_the_openapi_document_says_what_every_endpoint_answers(studio):
    doc = studio.get("/api/openapi.json").json()
    assert len([op for ops in doc["paths"].values() for op in ops]) >= 40
    assert not undocumented(doc), "answers without a model:\n" + "\n".join(undocumented(doc))
    for path, operations in doc["paths"].items():
        for method, op in operations.items():
            assert {"403", "404", "422"} <= set(op["responses"]), (method, path)  # the refusals, as ErrorDoc
    binary = {path: kind for path, ops in doc["paths"].items() for op in ops.values()
              for kind, body in op["responses"]["200"]["content"].items() if body["schema"].get("format") == "binary"}
    assert binary == {"/api/print": "application/pdf", "/api/packs/folder": "application/zip"}
    # what it looks for: an answer of "any JSON" (a dict) is no model
    assert undocumented({"paths": {"/x": {"get": {"responses": {"200": {"content": {"application/json": {
        "schema": {"type": "object", "additionalProperties": True}}}}}}}}}) == [
        "GET /x: {'application/json': {'type': 'object', 'additionalProperties': True}}"]
    assert "/static/{name}" not in doc["paths"] and "/" not in doc["paths"]
