"""The studio prints and shares: `POST /api/print` answers the mission's card or blank game sheet as
a PDF; `GET /api/packs/folder` the folder as a pack; `POST /api/packs` joins a pack's missions,
catalogs and campaign to the folder, holding what is there already and overwriting nothing; a
hostile pack is refused naming the member, with nothing written."""

from __future__ import annotations

import io
import zipfile

import pytest

pytest.importorskip("fastapi")
from starlette.testclient import TestClient

from solver.io.packs import read_pack_bytes
from solver.studio.app import create_app
from tests.helpers.packs import FAN, fan_folder, zip_of
from tests.helpers.paths import ROOT
from tests.helpers.printed import pdf_text

B05 = (ROOT / "missions/buddy/b05.toml").read_text(encoding="utf-8")


@pytest.fixture
def studio(tmp_path):
    folder = tmp_path / "studio"
    folder.mkdir()
    app = create_app(folder, None, 1, warm=False, bot_pace=0)
    with TestClient(app) as client:
        client.folder = folder
        yield client


def test_the_editors_mission_prints_as_a_card_and_as_a_game_sheet(studio, tmp_path):
    res = studio.post("/api/print", json={"text": B05, "name": "b05.toml"})
    assert res.status_code == 200 and res.headers["content-type"] == "application/pdf"
    assert res.content.startswith(b"%PDF") and "b05-card.pdf" in res.headers["content-disposition"]
    (tmp_path / "card.pdf").write_bytes(res.content)
    text = " ".join(pdf_text(tmp_path / "card.pdf").split())
    assert "Short night" in text and "Fewest new pieces 3" in text and "between b0" in text
    res = studio.post("/api/print", json={"text": B05, "name": "b05.toml", "sheet": True, "players": 2,
                                          "paper": "letter"})
    assert res.status_code == 200
    (tmp_path / "sheet.pdf").write_bytes(res.content)
    sheet = pdf_text(tmp_path / "sheet.pdf")
    assert "mission: b05" in sheet and "players:" in sheet and "left:" in sheet
    # a mission the table's size does not fit, a paper there is none of, a broken mission: 422
    for body in ({"text": B05, "sheet": True, "players": 3}, {"text": B05, "paper": "a3"},
                 {"text": "name = 1"}):
        res = studio.post("/api/print", json=body)
        assert res.status_code == 422 and res.json()["error"]["message"], body


def test_the_folder_downloads_as_a_pack(studio, tmp_path):
    box = fan_folder(tmp_path)
    for f in box.iterdir():
        (studio.folder / f.name).write_bytes(f.read_bytes())
    res = studio.get("/api/packs/folder")
    assert res.status_code == 200 and res.headers["content-type"] == "application/zip"
    assert res.headers["content-disposition"].endswith('studio.kakapo"')
    pack = read_pack_bytes(res.content, "download")
    assert sorted(f.name for f in pack.missions) == [f"{n}.toml" for n in FAN]
    assert [f.name for f in pack.catalogs] == ["mine.toml"] and pack.difficulty is not None
    (studio.folder / "broken.toml").write_text('name = "x"\n')
    res = studio.get("/api/packs/folder")
    assert res.status_code == 422 and "broken.toml" in res.json()["error"]["message"]


def test_a_pack_joins_the_folder_holding_what_is_there_and_overwriting_nothing(studio, tmp_path):
    box = fan_folder(tmp_path)
    data = zip_of([(f.name, f.read_bytes()) for f in sorted(box.iterdir())])
    res = studio.post("/api/packs", content=data, headers={"Content-Type": "application/zip"})
    assert res.status_code == 200, res.text
    doc = res.json()
    assert sorted(doc["missions"]) == [f"{n}.toml" for n in FAN] and doc["catalogs"] == ["mine.toml"]
    assert doc["campaign"] == "difficulty.json" and doc["held"] == [] and doc["refused"] == []
    listed = {m["id"]: m for m in studio.get("/api/missions").json() if m["source"] == "dir"}
    assert set(listed) == set(FAN)
    assert "mine.toml" in {c["file"] for c in studio.get("/api/catalogs").json()}
    # the same pack again: everything is held; a file of the folder with other bytes is never replaced
    (studio.folder / "fan-b01.toml").write_text("# mine now\n" + (box / "fan-b01.toml").read_text())
    mine = (studio.folder / "fan-b01.toml").read_bytes()
    doc = studio.post("/api/packs", content=data).json()
    assert doc["missions"] == [] and "fan-b01.toml" not in doc["held"]
    assert [r["file"] for r in doc["refused"]] == ["fan-b01.toml"] and "overwritten" in doc["refused"][0]["why"]
    assert (studio.folder / "fan-b01.toml").read_bytes() == mine
    assert sorted(doc["held"]) == sorted(["difficulty.json", "fan-b05.toml", "fan-p03.toml", "mine.toml"])


def test_a_hostile_pack_is_refused_naming_the_member_and_writes_nothing(studio):
    before = sorted(p.name for p in studio.folder.iterdir())
    for members, named in (([("../evil.toml", b"x")], "../evil.toml"), ([("a.toml", b"#" * 2_000_000)], "a.toml")):
        res = studio.post("/api/packs", content=zip_of(members))
        assert res.status_code == 422 and named in res.json()["error"]["message"]
    res = studio.post("/api/packs", content=b"not a zip")
    assert res.status_code == 422 and "not a pack" in res.json()["error"]["message"]
    assert sorted(p.name for p in studio.folder.iterdir()) == before
    assert not (studio.folder.parent / "evil.toml").exists()
    big = io.BytesIO()
    with zipfile.ZipFile(big, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("x.toml", b"#" * 9_000_000)
    assert studio.post("/api/packs", content=big.getvalue()).status_code == 413


def test_only_the_host_opens_or_downloads_packs(tmp_path):
    app = create_app(tmp_path, None, 1, warm=False, bot_pace=0, host_token="secret")
    with TestClient(app) as client:
        assert client.get("/api/packs/folder").status_code == 403
        assert client.post("/api/packs", content=b"x").status_code == 403
        assert client.get("/api/packs/folder", headers={"Authorization": "token secret"}).status_code in (200, 422)
