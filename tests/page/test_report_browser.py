"""The report page in a real browser (headless Chromium): it loads, its pictures are embedded, and
its script sorts the table. Skipped only where Chromium is not installed (.ci/run installs it)."""

import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from solver.cli import main
from tests.helpers.missiontext import board_text, mission_text
from tests.helpers.paths import ROOT

pytestmark = pytest.mark.slow  # the full suite only (CI runs it)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_report_page_in_headless_chromium(tmp_path, write):
    hostile = write("x.toml", mission_text(board_text({5: ".....r......", 6: "....bAy....."}),
                                           extra='story = "<script>alert(1)</script> | bars"\n').replace(
        'name = "Test"', 'name = "<img src=x onerror=alert(2)>"'))
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["report", str(ROOT / "tests/missions/buddy/b01.toml"),
                                    str(ROOT / "tests/missions/party"),
                                    str(hostile), "--games", "100", "--workers", "1", "--out", str(out),
                                    "--players", "2,4"])
    assert res.exit_code == 0, res.output
    page = (out / "report.html").read_text()
    assert "<script>alert(1)" not in page and "<img src=x" not in page and "&lt;script&gt;" in page
    assert 'src="data:image/png;base64,' in page and 'src="clear_rate.png"' not in page  # self-contained

    def dom(fragment=""):
        r = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
                            (out / "report.html").as_uri() + fragment], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr[-1000:]
        return r.stdout

    def order(html, column):
        rows = re.findall(r"<tr>(.*?)</tr>", html.split("<tbody>")[1], re.S)
        return [re.findall(r'data-v="([^"]*)"', row)[column] for row in rows]

    column = 5  # the clear rate
    loaded = dom()
    assert "kakapo difficulty report" in loaded
    assert loaded.count("<script") == 1 and "<img src=\"x\"" not in loaded  # the names stayed text
    rates = [float(x) for x in order(dom(f"#sort={column}"), column)]
    assert rates == sorted(rates) and len(rates) == 1 + 3 + 1
    shot = tmp_path / "shot.png"
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1200,1600",
                    f"--screenshot={shot}", (out / "report.html").as_uri()], capture_output=True, timeout=120)
    assert shot.stat().st_size > 20000  # a rendered page, not a blank one
