"""A person's own copy of the game: the bundled catalog with red-5 drawn otherwise (b09's pre-placed
red-5 no longer fits), a folder of missions beside it, and missions made with a catalog."""

from __future__ import annotations

import shutil

from solver.io.catalog import DEFAULT_CATALOG
from solver.io.paths import MISSIONS, mission_path

RED_5 = '5 = "###/#.."       # L tetromino'  # the bundled catalog's line for red-5
B01 = MISSIONS / "buddy" / "b01.toml"


def other_catalog(folder, name="mine.toml"):
    """The bundled catalog with red-5 drawn as an I tetromino: b09's pre-placed red-5 no longer fits."""
    text = DEFAULT_CATALOG.read_text()
    assert RED_5 in text
    path = folder / name
    path.write_text(text.replace(RED_5, '5 = "####"'))
    return path


def made_with(folder, digest, name="made.toml"):
    """b01 as a mission made with the catalog of ``digest``."""
    path = folder / name
    path.write_text(B01.read_text().replace("board =", f'pieces_digest = "{digest}"\nboard =', 1))
    return path


def folder_with_catalog(tmp_path):
    """``copy/``: b01 and b05 beside ``mine.toml`` (red-5 drawn as an I tetromino)."""
    d = tmp_path / "copy"
    d.mkdir()
    for mid in ("b01", "b05"):
        shutil.copy(mission_path(mid), d / f"{mid}.toml")
    (d / "mine.toml").write_text(DEFAULT_CATALOG.read_text().replace(RED_5, '5 = "####"'))
    return d
