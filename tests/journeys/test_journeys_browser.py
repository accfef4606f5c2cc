"""Two people's journeys walked end to end, through the command line and the page in headless
Chromium, with a catalog that breaks a bundled mission (red-5 drawn as ####: b09's pre-placed red-5
no longer fits).

The owner of the boxed game: draws the copy's pieces in the Pieces tab and saves the catalog,
enters missions of their own, measures the campaign (the bundled missions into box/campaign, one
skipped with why; their own missions into box/difficulty.json), lists both with the figures of that
campaign, and ladders and validates one of their missions: placed among "your campaign's"
missions, never among the bundled ones, never among them itself; the studio shows the same.

The fan designer: makes missions with other shapes (they say so: ``pieces_digest``) and shares one
as a link and one as a file; the player opens the link in their own studio, takes the catalog it
carries, saves the mission, measures the campaign of those shapes and validates and ladders the
designer's mission with the right catalog, compared with that campaign; a file shared without its
catalog is refused with the same message by every command."""

from __future__ import annotations

import json
import shutil

import httpx
import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.io.catalog import load_catalog
from solver.io.paths import mission_path
from tests.helpers.catalogs import other_catalog
from tests.helpers.studio import open_page, start_studio, stop, wait_text, wait_until
from tests.helpers.tabs import RED_5_PIECE, open_pieces, pressed, use_catalog

pytestmark = pytest.mark.slow  # a campaign, ladders and two studios each


def cli(*args):
    res = CliRunner().invoke(main, [str(a) for a in args])
    return res


def red_5(catalog) -> str:
    return catalog[next(c for c in catalog if str(c) == "red-5")].format()


def run_job(page, kind: str, games: int) -> str:
    """A job of the Editor's mission in the page, to its end: the result's words."""
    page.select_option("#j-kind", kind)
    page.fill("#j-games", str(games))
    page.click("#j-start")
    wait_until(page, "['done', 'failed', 'cancelled'].includes(document.getElementById('j-state').dataset.state)",
               timeout=300)
    assert page.get_attribute("#j-state", "data-state") == "done", page.text_content("#j-state")
    return page.text_content("#j-result") or ""


def test_the_owner_measures_the_campaign_of_their_copy_and_every_comparison_uses_it(browser, tmp_path):
    box = tmp_path / "box"
    box.mkdir()
    proc, url = start_studio(box)
    try:
        # 1. the pieces drawn as the printed copy has them: red-5 is a straight ####
        page = open_page(browser, url)
        open_pieces(page)
        page.click(RED_5_PIECE)
        page.click("[data-shape-toggle='1,0']")
        page.click("[data-shape-toggle='0,3']")
        assert pressed(page) == ["0,0", "0,1", "0,2", "0,3"]
        wait_until(page, "document.querySelectorAll('[data-piece-error]').length === 0")
        page.fill("#pc-file", "mine.toml")
        page.click("text=Save catalog")
        wait_text(page, "#pc-state", "saved as mine.toml")
        mine = load_catalog(box / "mine.toml")
        assert red_5(mine) == "####" and mine.digest != load_catalog().digest

        # 2. missions of their own (files): two fit the copy's shapes, one is b09's board (red-5 as the bundled L)
        for mid in ("b01", "b05", "b09"):
            shutil.copy(mission_path(mid), box / f"own_{mid}.toml")

        # 3. the campaign: the bundled missions (b09 does not fit: skipped, with why, the rest measured)
        res = cli("campaign", "--pieces", box / "mine.toml", "--out", box / "campaign", "--games", 1, "--players", 2,
                  "--workers", 2, "--json")
        assert res.exit_code == 0, res.output
        doc = json.loads(res.stdout)
        assert [s["mission"] for s in doc["skipped"]] == ["b09"] and "red-5" in doc["skipped"][0]["why"]
        assert sorted(r["mission"] for r in doc["rows"]) == [f"b{k:02d}" for k in range(1, 21) if k != 9]
        again = cli("campaign", "--pieces", box / "mine.toml", "--out", box / "campaign", "--games", 1, "--players",
                    2, "--workers", 2)  # the same command: the work kept, the skipped mission said in words
        assert again.exit_code == 0 and "skipped" in again.stdout and "b09: line 22" in again.stdout
        res = cli("campaign", box, "--pieces", box / "mine.toml", "--games", 2, "--workers", 2, "--json")
        assert res.exit_code == 0, res.output
        own = json.loads(res.stdout)
        assert sorted(r["mission"] for r in own["rows"]) == ["own_b01", "own_b05"]
        assert [s["mission"] for s in own["skipped"]] == ["own_b09"]

        # kakapo list --pieces: the bundled missions with the campaign measured into box/campaign
        listed = json.loads(cli("list", "--pieces", box / "mine.toml", "--json").stdout)
        rows = {r["id"]: r for r in listed["missions"]}
        measured = {r["mission"]: r["shortfall"] for r in doc["rows"]}
        assert listed["campaign"] == str(box / "campaign" / "difficulty.json")
        assert rows["b05"]["shortfall"]["2"] == round(measured["b05"], 4)
        assert rows["b09"]["fits"] is False and rows["b09"]["shortfall"]["2"] is None
        assert sum(v is not None for r in rows.values() for v in r["shortfall"].values()) == 19  # not 40 "-"
        mine_listed = json.loads(cli("list", box, "--pieces", box / "mine.toml", "--json").stdout)
        assert mine_listed["campaign"] == str(box / "difficulty.json")
        own_rows = {r["id"]: r for r in mine_listed["missions"]}
        assert set(own_rows) == {"own_b01", "own_b05", "own_b09"} and own_rows["own_b09"]["fits"] is False

        # ladder and validate of an own mission: among your campaign's missions, the same ones, never itself
        ladder = cli("ladder", box / "own_b05.toml", "--pieces", box / "mine.toml", "--games", 4, "--workers", 2,
                     "--json")
        assert ladder.exit_code == 0, ladder.output
        placed = json.loads(ladder.stdout)["difficulty"]
        assert placed["campaign"]["source"] == str(box / "difficulty.json") and placed["campaign"]["of"] == 1
        assert "own_b05" not in placed["campaign"]["between"] and "own_b01" in placed["campaign"]["between"]
        assert "your campaign's missions" in placed["campaign_text"] and "bundled" not in placed["campaign_text"]
        validated = cli("validate", box / "own_b05.toml", "--pieces", box / "mine.toml", "--games", 8,
                        "--ladder-games", 4, "--ceiling-games", 4, "--workers", 2, "--json")
        assert validated.exit_code == 0, validated.output
        (entry,) = json.loads(validated.stdout)["files"][0]["difficulty"]
        assert entry["campaign"]["source"] == placed["campaign"]["source"] and entry["campaign"]["of"] == 1
        assert "own_b05" not in entry["campaign"]["between"]
        text = cli("ladder", box / "own_b05.toml", "--pieces", box / "mine.toml", "--games", 4, "--workers", 2).stdout
        assert "in your campaign: " in text and "your campaign's missions" in text and "bundled" not in text

        # the studio shows the same: the figures of the lists, and the ladder placed among your campaign's
        use_catalog(page, "mine.toml")
        studio_rows = {(r["source"], r["id"]): r for r in httpx.get(url + "api/missions").json()}
        assert studio_rows[("bundled", "b05")]["shortfall"] == rows["b05"]["shortfall"]
        assert studio_rows[("dir", "own_b05")]["shortfall"] == own_rows["own_b05"]["shortfall"]
        assert studio_rows[("bundled", "b09")]["fits"] is False
        page.reload()  # the missions written since the page opened
        page.wait_for_selector("[data-cell=l12]")
        assert page.input_value("#catalog") == "mine.toml"
        page.wait_for_selector("#open option[value='own_b05']", state="attached")
        page.select_option("#open", "own_b05")
        wait_text(page, "#problems", "valid")
        said = run_job(page, "ladder", 4)
        assert "in your campaign: " in said and "your campaign's 1 other missions for 2 players" in said
        assert "bundled" not in said
        assert not page.errors
    finally:
        stop(proc)


def test_the_designer_shares_missions_made_with_other_shapes_and_they_are_measured_with_them(browser, tmp_path):
    designer, player = tmp_path / "designer", tmp_path / "player"
    designer.mkdir()
    player.mkdir()
    shapes = load_catalog(other_catalog(designer, "shapes.toml"))
    # a mission only these shapes make: a red-5 already on the board as a straight ####
    tower = mission_path("b01").read_text().replace('name = "Two tracks in the mud"', 'name = "The long perch"')
    tower = tower.replace("board =", f'pieces_digest = "{shapes.digest}"\nboard =', 1)
    (designer / "tower.toml").write_text(tower + '\n[[placed]]\npiece = "red-5"\ncells = ["i1", "j1", "k1", "l1"]\n')

    proc, url = start_studio(designer)
    try:
        page = open_page(browser, url)
        page.wait_for_selector("#catalog option[value='shapes.toml']", state="attached")
        use_catalog(page, "shapes.toml")
        # a second mission drawn from b05 with these shapes, saved: it says what it was made with
        page.select_option("#open", "b05")
        wait_text(page, "#problems", "valid")
        page.fill("#filename", "perch.toml")
        page.click("#save")
        wait_text(page, "#savemsg", "saved perch.toml")
        assert f'pieces_digest = "{shapes.digest}"' in (designer / "perch.toml").read_text()
        # the tower shared as a link: the link carries the catalog
        page.select_option("#open", "tower")
        wait_text(page, "#problems", "valid: no errors")
        page.click("[data-share]")
        wait_until(page, "document.getElementById('share-url').dataset.shareUrl !== undefined")
        link = page.get_attribute("[data-share-url]", "data-share-url")
        assert "&pieces=" in link
        assert not page.errors
    finally:
        stop(proc)

    # the player, with the bundled pieces: the link opened in their studio brings the designer's catalog
    proc, url = start_studio(player)
    try:
        page = open_page(browser, url + link[link.index("#"):])
        wait_text(page, "#made-with", f"made with another catalog \\(digest {shapes.digest}\\)")
        assert page.get_attribute("#problems", "data-valid") == "false"  # never read with the bundled shapes
        page.click("[data-use-catalog=carried]")
        wait_text(page, "#problems", "valid: no errors")
        page.fill("#filename", "tower.toml")
        page.click("#save")
        wait_text(page, "#savemsg", "saved tower.toml")
        assert not page.errors
    finally:
        stop(proc)
    carried = player / f"shared-{shapes.digest[:8]}.toml"
    assert load_catalog(carried).digest == shapes.digest
    shutil.copy(designer / "perch.toml", player / "perch.toml")  # the other mission shared as a file

    # no --pieces: each command reads the designer's missions with the catalog beside them, and says so
    res = cli("campaign", player, "--games", 2, "--workers", 2, "--json")
    assert res.exit_code == 0, res.output
    assert f"made with the catalog {carried.name} beside them" in res.stderr
    doc = json.loads(res.stdout)
    assert doc["pieces_digest"] == shapes.digest and doc["skipped"] == []
    assert sorted(r["mission"] for r in doc["rows"]) == ["perch", "tower"]
    ladder = cli("ladder", player / "tower.toml", "--games", 4, "--workers", 2, "--json")
    assert ladder.exit_code == 0, ladder.output
    assert f"tower.toml was made with the catalog {carried.name} beside it" in ladder.stderr
    placed = json.loads(ladder.stdout)["difficulty"]["campaign"]
    assert placed["source"] == str(player / "difficulty.json") and placed["of"] == 1 and "perch" in placed["between"]
    validated = cli("validate", player / "tower.toml", "--games", 8, "--ladder-games", 4, "--ceiling-games", 4,
                    "--workers", 2, "--json")
    assert validated.exit_code == 0, validated.output
    (entry,) = json.loads(validated.stdout)["files"][0]["difficulty"]
    assert entry["campaign"]["source"] == placed["source"] and entry["campaign"]["of"] == 1
    assert "tower" not in entry["campaign"]["between"]

    # a file shared without its catalog: refused with one message everywhere, naming the digest and the fix
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(designer / "tower.toml", alone / "tower.toml")
    messages = set()
    for args in (("solve",), ("validate", "--games", 0), ("ladder", "--games", 2)):
        res = cli(args[0], alone / "tower.toml", *args[1:], "--json")
        assert res.exit_code == 2, (args, res.output)
        out = json.loads(res.stdout)
        err = out["error"] if "error" in out else out["files"][0]["errors"][0]
        assert shapes.digest in err["message"] and "--pieces" in err["fix"]
        messages.add(err["message"])
    assert len(messages) == 1
    # given the catalog, it reads, compared with the campaign beside that catalog; with the designer's own
    # copy of the shapes (no campaign measured near it), nothing is compared, and it says so
    given = cli("ladder", alone / "tower.toml", "--pieces", carried, "--games", 2, "--workers", 2, "--json")
    assert given.exit_code == 0, given.output
    assert json.loads(given.stdout)["difficulty"]["campaign"]["source"] == str(player / "difficulty.json")
    bare = cli("ladder", alone / "tower.toml", "--pieces", designer / "shapes.toml", "--games", 2, "--workers", 2,
               "--json")
    difficulty = json.loads(bare.stdout)["difficulty"]
    assert difficulty["campaign"] is None and "no campaign measured for this catalog" in difficulty["campaign_text"]


# a rating of games played with another catalog, as the server answers it: b05 from the campaign
# measured for that catalog, b09 (does not fit) and b02 (not measured) without a figure, and why
RATED = {"games": 3, "seats": [0, 1], "best": {"policy": "planner", "samples": None},
         "plausible": [{"policy": "planner", "samples": None}], "told_apart": True, "rungs": [],
         "predictions": [
             {"mission": "b05", "players": 2, "rung": "planner", "clear_rate": 0.62, "ci95": [0.5, 0.7],
              "source": "/box/campaign/difficulty.json", "shortfall": 0.125},
             {"mission": "b09", "players": None, "rung": None, "clear_rate": None, "ci95": None, "source": None,
              "shortfall": None, "why": "it does not fit the catalog the games were played with: line 22: red-5"},
             {"mission": "b02", "players": 2, "rung": None, "clear_rate": None, "ci95": None, "source": None,
              "shortfall": None,
              "why": "the campaign measured for this catalog (/box/campaign/difficulty.json) has no row for b02"}]}

SHOW = """async (doc) => {
  const { showRating } = await import("/static/rate.js");
  await showRating(doc);
  return document.getElementById("rt-expected").textContent + " | " + document.getElementById("rt-why").textContent;
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_rate_this_table_shows_the_figures_it_has_and_says_why_for_the_others(browser, served, width):
    url, _ = served
    page = open_page(browser, url, width=width, height=844)
    page.click("[data-tab=play]")
    text = page.evaluate(SHOW, RATED)
    assert "62 % (50\u201370 %)" in text and "no figure" in text  # an en dash between the bounds
    # the shortfall beside it is the one of the campaign measured for the games' pieces, not the studio's catalog's
    assert page.text_content("#rt-expected [data-mission=b05]").startswith("b0520.125")
    assert page.text_content("#rt-expected [data-mission=b02]").startswith("b022-")
    assert page.get_attribute("#rt-expected [data-mission=b09]", "data-why").startswith("it does not fit")
    assert "no figure for b09: it does not fit" in text and "no figure for b02: the campaign measured" in text
    assert "figures: /box/campaign/difficulty.json" in text
    assert not page.errors
