"""Packs made by a test: a copy of the game with its own red-5, three missions made with it and the
campaign measured for it, and zip files member by member."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

from solver.io.catalog import load_catalog
from solver.io.difficulty import data_digest
from solver.io.paths import mission_path
from tests.helpers.catalogs import other_catalog

FAN = {"fan-b01": ("b01", "buddy", (2,)), "fan-b05": ("b05", "buddy", (2,)), "fan-p03": ("p03", "party", (3, 4))}


def fan_folder(tmp_path: Path) -> Path:
    """A copy of the game with a red-5 of its own: three missions made with it, and the campaign
    measured for it as `kakapo campaign` writes it (the figures are the test's own; the rows name
    the files' digests, so that they count)."""
    d = tmp_path / "box"
    d.mkdir()
    other_catalog(d)
    digest = load_catalog(d / "mine.toml").digest
    rows = []
    for k, (name, (mid, mode, counts)) in enumerate(FAN.items()):
        (d / f"{name}.toml").write_text(f'pieces_digest = "{digest}"\n' + mission_path(mid).read_text())
        for p in counts:
            rows.append({"mission": name, "mode": mode, "players": p, "games": 4, "seed": 1,
                         "digest": data_digest((d / f"{name}.toml").read_bytes()), "rates": {"greedy": 0.5},
                         "ceiling_rate": 1.0, "undecided": 0, "shortfall": 0.1 * (k + 1), "min_pieces": 2})
    (d / "difficulty.json").write_text(json.dumps({"pieces_digest": digest, "rows": rows, "order": list(FAN)}))
    return d


def zip_of(members: list[tuple[zipfile.ZipInfo | str, bytes]]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for info, data in members:
            zf.writestr(info, data)
    return out.getvalue()

