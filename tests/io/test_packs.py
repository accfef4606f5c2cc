"""Packs: a folder of missions as one file (a zip) with the catalog they were made with, the campaign
measured for it and a README. Made and unpacked to the same files; read in memory by every command
that takes a folder (nothing written beside it); and a hostile pack (a member outside the folder,
a link, a bomb, too many or too large members, twice the same name) refused whole, naming the
member, before anything is written."""

from __future__ import annotations

import json
import stat
import struct
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.io.catalog import load_catalog
from solver.io.difficulty import data_digest
from solver.io.packs import MAX_MEMBERS, read_pack_bytes
from solver.io.paths import mission_path
from tests.helpers.packs import FAN, fan_folder, zip_of


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def test_a_folder_packs_into_one_file_and_unpacks_to_the_same_files(tmp_path):
    d = fan_folder(tmp_path)
    pack = tmp_path / "box.kakapo"
    res = run("pack", d, "--out", pack, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert sorted(doc["missions"]) == [f"{n}.toml" for n in FAN] and doc["catalogs"] == ["mine.toml"]
    with zipfile.ZipFile(pack) as zf:
        names = sorted(zf.namelist())
        readme = zf.read("README.md").decode()
    assert names == sorted(["README.md", "difficulty.json", "mine.toml", *(f"{n}.toml" for n in FAN)])
    assert all(f"{n}.toml" in readme for n in FAN) and "kakapo print" in readme
    # the same folder, the same bytes; an existing pack is kept without --force
    first = pack.read_bytes()
    assert run("pack", d, "--out", pack).exit_code == 2 and pack.read_bytes() == first
    assert run("pack", d, "--out", pack, "--force").exit_code == 0 and pack.read_bytes() == first
    out = tmp_path / "again"
    res = run("unpack", pack, "--out", out, "--json")
    assert res.exit_code == 0, res.output
    got = listing(out)
    assert {k: v for k, v in got.items() if k != "README.md"} == listing(d)  # every file, byte for byte
    # never over a file without --force: refused whole, nothing written
    (out / "fan-b01.toml").write_text("mine")
    res = run("unpack", pack, "--out", out)
    assert res.exit_code == 2 and "--force" in res.output and (out / "fan-b01.toml").read_text() == "mine"
    assert run("unpack", pack, "--out", out, "--force").exit_code == 0
    assert (out / "fan-b01.toml").read_bytes() == (d / "fan-b01.toml").read_bytes()
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no scratch left behind


def test_a_pack_carries_what_reads_and_what_measures_its_missions_as_they_are(tmp_path):
    d = fan_folder(tmp_path)
    for n in FAN:  # every mission changed since the campaign was measured
        (d / f"{n}.toml").write_text((d / f"{n}.toml").read_text() + "# changed\n")
    pack = tmp_path / "box.kakapo"
    res = run("pack", d, "--out", pack, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["campaign"] is None and any("difficulty.json" in note for note in doc["notes"])
    with zipfile.ZipFile(pack) as zf:
        assert "difficulty.json" not in zf.namelist()
    (d / "broken.toml").write_text('name = "Broken"\nmode = "buddy"\nclear = 1\nboard = "x"\n')
    res = run("pack", d, "--out", tmp_path / "again.kakapo")
    assert res.exit_code == 2 and "broken.toml" in res.output and "line" in res.output
    assert not (tmp_path / "again.kakapo").exists()


def test_unpack_never_writes_through_a_link(tmp_path):
    d = fan_folder(tmp_path)
    pack = tmp_path / "box.kakapo"
    assert run("pack", d, "--out", pack).exit_code == 0
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    (out / "fan-b01.toml").symlink_to(victim)
    res = run("unpack", pack, "--out", out, "--force")
    assert res.exit_code == 2 and "fan-b01.toml" in res.output and "link" in res.output
    assert victim.read_text() == "keep"


def test_every_command_that_takes_a_folder_takes_the_pack_and_writes_nothing_beside_it(tmp_path):
    d = fan_folder(tmp_path)
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    pack = shelf / "box.kakapo"
    assert run("pack", d, "--out", pack).exit_code == 0
    before = listing(shelf)
    pdf = tmp_path / "box.pdf"
    res = run("print", pack, "--pdf", pdf, "--json")
    assert res.exit_code == 0, res.output
    cards = {m["id"]: m for m in json.loads(res.output)["missions"]}
    assert set(cards) == set(FAN)
    assert cards["fan-b01"]["campaign"] == f"{pack}/difficulty.json"  # the pack's own campaign
    assert cards["fan-b01"]["difficulty"] == "easier than fan-b05, the easiest"
    assert cards["fan-b05"]["difficulty"] == "harder than fan-b01, the hardest"
    assert cards["fan-b01"]["catalog"].startswith("mine.toml (digest ")
    # one mission of the pack, where one is asked for: PACK/ID
    res = run("solve", f"{pack}/fan-b05", "--json")
    assert res.exit_code == 0 and json.loads(res.output)["mission"] == "fan-b05"
    res = run("solve", pack)
    assert res.exit_code == 2 and f"{pack}/fan-b01" in res.output  # three missions: name one
    res = run("print", f"{pack}/nope", "--pdf", tmp_path / "x.pdf")
    assert res.exit_code == 2 and "fan-b05" in res.output
    # listed with the catalog and the campaign it carries
    res = run("list", pack, "--json")
    assert res.exit_code == 0, res.output
    listed = json.loads(res.output)
    rows = {r["id"]: r for r in listed["missions"]}
    assert set(rows) == set(FAN) and all(r["fits"] for r in rows.values())
    assert listed["campaign"] == f"{pack}/difficulty.json"
    assert rows["fan-b01"]["shortfall"]["2"] is not None
    assert listing(shelf) == before  # read in memory: nothing unpacked beside the pack


@pytest.mark.slow  # every mission validated (its answers counted), a ladder and a campaign on few deals
def test_validate_the_ladder_and_the_campaign_take_a_pack(tmp_path):
    d = fan_folder(tmp_path)
    pack = tmp_path / "box.kakapo"
    assert run("pack", d, "--out", pack).exit_code == 0
    res = run("validate", pack, "--games", 0, "--json")
    assert res.exit_code == 0, res.output
    files = json.loads(res.output)["files"]
    assert [f["file"] for f in files] == [f"{pack}/{n}.toml" for n in FAN] and all(f["valid"] for f in files)
    res = run("validate", f"{pack}/fan-b01", "--games", 0, "--json")
    assert res.exit_code == 0 and json.loads(res.output)["files"][0]["min_pieces"] == 2
    res = run("ladder", f"{pack}/fan-b05", "--games", 2, "--workers", 1, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["difficulty"]["campaign"]["source"] == f"{pack}/difficulty.json"
    assert run("campaign", pack, "--games", 2).exit_code == 2  # a pack is measured into a folder of yours
    out = tmp_path / "measured"
    res = run("campaign", pack, "--out", out, "--players", 2, "--games", 2, "--workers", 1, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["pieces_digest"] == load_catalog(d / "mine.toml").digest
    assert sorted(r["mission"] for r in doc["rows"]) == ["fan-b01", "fan-b05"]
    written = json.loads((out / "difficulty.json").read_text())
    assert {r["digest"] for r in written["rows"]} == {data_digest((d / f"{n}.toml").read_bytes())
                                                     for n in ("fan-b01", "fan-b05")}


def link(name: str, target: str) -> tuple[zipfile.ZipInfo, bytes]:
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info, target.encode()


def lying_size(data: bytes, name: str, size: int) -> bytes:
    """A zip whose member says it holds ``size`` bytes (local header and directory alike)."""
    raw = bytearray(data)
    for sig, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = raw.find(sig)
        while at >= 0:
            struct.pack_into("<L", raw, at + offset, size)
            at = raw.find(sig, at + 4)
    return bytes(raw)


# ---------------------------------------------------------------- hostile packs
GOOD = ("m.toml", mission_path("b01").read_bytes())
BOMB = b"#" * 3_000_000  # a comment line three megabytes long, squeezed into a few kilobytes
HOSTILE = {
    "dotdot": ([GOOD, ("../evil.toml", b"x")], "../evil.toml"),
    "dotdot-deep": ([("a/../../evil.toml", b"x")], "a/../../evil.toml"),
    "absolute": ([("/etc/evil.toml", b"x")], "/etc/evil.toml"),
    "drive": ([("C:evil.toml", b"x")], "C:evil.toml"),
    "folder": ([("club/m.toml", b"x")], "club/m.toml"),
    "link": ([GOOD, link("l.toml", "/etc/passwd")], "l.toml"),
    "large": ([("big.toml", BOMB)], "big.toml"),
    "too-many-together": ([(f"m{k}.toml", b"#" * 900_000) for k in range(20)], ".toml"),
    "twice": ([GOOD, ("M.toml", b"x")], "M.toml"),
    "kind": ([("run.sh", b"rm -rf /")], "run.sh"),
    "hidden": ([(".evil.toml", b"x")], ".evil.toml"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_pack_is_refused_whole_naming_the_member(case, tmp_path):
    members, named = HOSTILE[case]
    pack = tmp_path / "hostile.kakapo"
    pack.write_bytes(zip_of(members))
    out = tmp_path / "out"
    res = run("unpack", pack, "--out", out)
    assert res.exit_code == 2, res.output
    assert named in res.output and "Traceback" not in res.output
    assert not out.exists()  # nothing written, not even the folder
    assert not (tmp_path / "evil.toml").exists()
    res = run("validate", pack, "--games", 0)
    assert res.exit_code == 2 and named in res.output


def test_a_bomb_with_a_lying_size_and_too_many_members_are_refused(tmp_path):
    bomb = lying_size(zip_of([("bomb.toml", BOMB)]), "bomb.toml", 100)
    with pytest.raises(Exception) as e:
        read_pack_bytes(bomb, "bomb.kakapo")
    assert "bomb.toml" in str(e.value)
    many = zip_of([(f"m{k}.toml", b"#") for k in range(MAX_MEMBERS + 1)])
    (tmp_path / "many.kakapo").write_bytes(many)
    res = run("unpack", tmp_path / "many.kakapo", "--out", tmp_path / "out")
    assert res.exit_code == 2 and str(MAX_MEMBERS) in res.output
    (tmp_path / "not.kakapo").write_text("hello")
    res = run("unpack", tmp_path / "not.kakapo", "--out", tmp_path / "out")
    assert res.exit_code == 2 and "not a pack" in res.output and not (tmp_path / "out").exists()
