"""The report's files: `report.csv`, `report.md`, `report.html` and the plots, from the rows
``analysis/report.py`` computes."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from solver.analysis.report import BAND_COLUMNS, CEILING_COLUMNS, COLUMNS, LADDER_COLUMNS, OBSERVED_COLUMNS
from solver.io.safefiles import write_output
from solver.view.report_html import html_page, markdown_page
from solver.view.report_plots import plots


def write_outputs(rows: list[dict], out_dir: Path, missions=None, meta=None) -> list[Path]:
    """report.csv, report.md, report.html and the plots; ``missions`` (id -> Mission) adds board
    pictures and stories, ``meta`` what the introduction says about the run."""
    extra = [c for c in BAND_COLUMNS + LADDER_COLUMNS + CEILING_COLUMNS + OBSERVED_COLUMNS if rows and c in rows[0]]
    df = pd.DataFrame(rows, columns=COLUMNS + extra).sort_values(["mode", "mission", "players"], kind="stable")
    df = df.reset_index(drop=True)
    for c in ("observed_games", "observed_tables"):  # counts, blank where no table played the row
        if c in df.columns:
            df[c] = df[c].astype("Int64")
    files = [out_dir / "report.csv", out_dir / "report.md", out_dir / "report.html"]
    write_output(files[0], df.to_csv(index=False))
    images = plots(df, out_dir)
    write_output(files[1], markdown_page(df, images, meta or {}))
    write_output(files[2], html_page(df, images, missions or {}, meta or {}))
    return files + images
