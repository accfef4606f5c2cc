"""`kakapo list`: the missions of a folder, a pack or the bundled campaign, with the figures of the
campaign measured for the catalog in use, and with what tables found where a calibration says."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from solver.app.documents import Doc
from solver.app.inputs import missions_catalog
from solver.app.packs import pack_campaign_inputs
from solver.io.catalog import load_catalog
from solver.io.difficulty import campaign_listing, no_campaign_text, read_observed
from solver.io.missionfile import mission_files


@dataclass
class MissionList:
    """`kakapo list`: the missions with their figures (``io.difficulty.campaign_listing``'s rows),
    where the figures come from (``source``: "bundled", a campaign's file, or None when no campaign
    was measured for the catalog) and, then, that said in words (``no_campaign``)."""

    rows: list[Doc]
    source: str | None
    no_campaign: str

    def summary(self) -> Doc:
        """`kakapo list --json`'s document."""
        return {"missions": self.rows, "campaign": self.source,
                **({} if self.source else {"campaign_text": self.no_campaign})}


def mission_list(directory: str | None, pieces: str | None, observed: str | None = None,
                 noted: Callable[[str], None] | None = None) -> MissionList:
    """The missions of ``directory`` (a folder or a pack, listed with the catalog it carries; None:
    the bundled ones in campaign order) with the figures of the campaign measured for the catalog
    in use (``--pieces``, else the one the folder's missions were made with: ``noted(note)`` says
    so); with ``observed`` (a `kakapo calibrate --json` file), each mission's difficulty as tables
    found it, per table size."""
    folder = None if directory is None else Path(directory)
    notes: list[str] = []
    packed = pack_campaign_inputs(directory, pieces)  # a pack: listed with the catalog it carries
    if packed is not None:
        catalog = packed[0]
    elif folder is None:
        catalog = load_catalog(pieces)
    else:
        catalog = missions_catalog(mission_files(folder), pieces, notes)
    for note in notes:
        if noted is not None:
            noted(note)
    rows, campaign = campaign_listing(catalog, folder)
    seen = read_observed(observed) if observed else {}
    for r in rows if observed else ():
        r["observed"] = {str(p): seen.get((r["id"], p)) for p in r["players"]}
    return MissionList(rows, campaign.source, no_campaign_text(catalog))
