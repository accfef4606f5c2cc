"""`/api/pieces` and `/api/catalogs`: the piece catalog the studio uses (drawn in the page), and
choosing it among the bundled one and the catalogs in ``--dir`` (each checked as `--pieces` is)."""

from __future__ import annotations

from fastapi import APIRouter

from solver.app.documents import Doc
from solver.core.cards import ALL_CARDS
from solver.core.errors import InputError
from solver.io.catalog import Catalog, is_catalog_text, load_catalog
from solver.io.safefiles import UnsafeTarget, read_plain_file
from solver.studio.context import Ctx, StudioContext
from solver.studio.errors import StudioError, refused
from solver.studio.models import CatalogChoice
from solver.studio.responses import ERRORS, CatalogRow, PiecesDoc

router = APIRouter(prefix="/api", tags=["catalogs"], responses=ERRORS)
MAX_CATALOG = 1_000_000


def pieces_doc(catalog: Catalog, file: str | None) -> Doc:
    """The catalog as `kakapo pieces --json` lists it, with the file it comes from (null: bundled)."""
    return {"file": file, "pieces": [{"piece": str(c), "cells": len(catalog[c].cells), "shape": catalog[c].format()}
                                     for c in ALL_CARDS]}


def read_dir_catalog(ctx: StudioContext, name: str) -> Catalog:
    """A catalog of ``--dir`` by its plain file name, read without following a link; InputError or
    StudioError when it is not one."""
    if "/" in name or "\\" in name or name.startswith(".") or not name.endswith(".toml") \
            or any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise StudioError(400, f"{name[:60]!r} is not a catalog file name", "give a plain name ending in .toml")
    try:
        data = read_plain_file(ctx.directory, name, MAX_CATALOG)
    except FileNotFoundError:
        raise StudioError(404, f"no file {name[:60]!r} in the folder", "see GET /api/catalogs") from None
    except (UnsafeTarget, OSError) as e:
        raise StudioError(409, f"{name[:60]} cannot be read: {getattr(e, 'strerror', None) or e}", "") from None
    return load_catalog(name, data.decode("utf-8", "replace"))


@router.get("/pieces", response_model=PiecesDoc)
def pieces(ctx: Ctx) -> Doc:
    return pieces_doc(ctx.catalog, ctx.catalog_file)


@router.get("/catalogs", response_model=list[CatalogRow])
def catalogs(ctx: Ctx) -> list[Doc]:
    """The bundled catalog and every file of the folder that reads as one (those that look like a
    catalog but do not load are listed with the reason)."""
    out: list[Doc] = [{"file": None, "name": "the bundled catalog", "valid": True, "error": None,
                       "current": ctx.catalog_file is None}]
    for path in sorted(ctx.directory.glob("*.toml")):
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_CATALOG:
            continue
        try:
            head = read_plain_file(ctx.directory, path.name, MAX_CATALOG).decode("utf-8", "replace")
        except OSError:
            continue
        if not is_catalog_text(head):  # a mission, not a catalog
            continue
        row: Doc = {"file": path.name, "name": path.stem, "valid": True, "error": None,
                    "current": ctx.catalog_file == path.name}
        try:
            read_dir_catalog(ctx, path.name)
        except InputError as e:
            row.update({"valid": False, "error": f"line {e.line}: {e.problem}" if e.line else e.problem})
        except StudioError as e:
            row.update({"valid": False, "error": e.message})
        out.append(row)
    return out


@router.post("/catalogs", response_model=PiecesDoc)
def choose(body: CatalogChoice, ctx: Ctx) -> Doc:
    """The catalog the studio uses from now on (missions checked, solved, rated and played with it)."""
    if body.file is None:
        ctx.use_catalog(load_catalog(), None, None)
    else:
        try:
            catalog = read_dir_catalog(ctx, body.file)
        except InputError as e:
            raise refused(e) from None
        ctx.use_catalog(catalog, body.file, str(ctx.directory / body.file))
    return pieces_doc(ctx.catalog, ctx.catalog_file)


