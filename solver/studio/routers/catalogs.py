"""`/api/pieces` and `/api/catalogs`: the piece catalog the studio uses (drawn in the page), and
choosing it among the bundled one and the catalogs in ``--dir`` (each checked as `--pieces` is);
the piece editor's reading, checking and saving of a catalog's text."""

from __future__ import annotations

from fastapi import APIRouter

from solver.app.catalogs import check_catalog
from solver.app.documents import Doc
from solver.core.cards import ALL_CARDS
from solver.core.errors import InputError
from solver.io.catalog import DEFAULT_CATALOG, Catalog, is_catalog_text, load_catalog
from solver.io.safefiles import TargetExists, UnsafeTarget, read_plain_file, write_file
from solver.studio.context import Ctx, StudioContext
from solver.studio.errors import StudioError, refused
from solver.studio.models import CatalogChoice, CatalogSave, CatalogText
from solver.studio.responses import ERRORS, CatalogCheck, CatalogFile, CatalogRow, PiecesDoc, Saved

router = APIRouter(prefix="/api", tags=["catalogs"], responses=ERRORS)
MAX_CATALOG = 1_000_000


def pieces_doc(catalog: Catalog, file: str | None) -> Doc:
    """The catalog as `kakapo pieces --json` lists it, with the file it comes from (null: bundled)."""
    return {"file": file, "digest": catalog.digest,
            "pieces": [{"piece": str(c), "cells": len(catalog[c].cells), "shape": catalog[c].format()}
                       for c in ALL_CARDS]}


def catalog_name(name: str) -> str:
    """A plain file name of ``--dir`` ending in .toml (no folder, no hidden file, no control
    character); 400 otherwise."""
    if "/" in name or "\\" in name or name.startswith(".") or not name.endswith(".toml") \
            or any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise StudioError(400, f"{name[:60]!r} is not a catalog file name", "give a plain name ending in .toml")
    return name


def dir_catalog_text(ctx: StudioContext, name: str) -> str:
    """The text of a file of ``--dir`` by its plain name, read without following a link."""
    try:
        data = read_plain_file(ctx.directory, catalog_name(name), MAX_CATALOG)
    except FileNotFoundError:
        raise StudioError(404, f"no file {name[:60]!r} in the folder", "see GET /api/catalogs") from None
    except (UnsafeTarget, OSError) as e:
        raise StudioError(409, f"{name[:60]} cannot be read: {getattr(e, 'strerror', None) or e}", "") from None
    return data.decode("utf-8", "replace")


def read_dir_catalog(ctx: StudioContext, name: str) -> Catalog:
    """A catalog of ``--dir`` by its plain file name, read without following a link; InputError or
    StudioError when it is not one."""
    return load_catalog(name, dir_catalog_text(ctx, name))


@router.get("/pieces", response_model=PiecesDoc)
def pieces(ctx: Ctx) -> Doc:
    return pieces_doc(ctx.catalog, ctx.catalog_file)


@router.get("/catalogs", response_model=list[CatalogRow])
def catalogs(ctx: Ctx) -> list[Doc]:
    """The bundled catalog and every file of the folder that reads as one (those that look like a
    catalog but do not load are listed with the reason)."""
    out: list[Doc] = [{"file": None, "name": "the bundled catalog", "valid": True, "error": None,
                       "current": ctx.catalog_file is None, "digest": load_catalog().digest}]
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
                    "current": ctx.catalog_file == path.name, "digest": None}
        try:
            row["digest"] = read_dir_catalog(ctx, path.name).digest
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


@router.get("/catalogs/text", response_model=CatalogFile)
def catalog_text(ctx: Ctx, file: str | None = None) -> Doc:
    """A catalog's text to start the piece editor from: ``file`` of the folder (whether or not it
    loads: the editor shows why), or without it the bundled one."""
    if file is None:
        return {"file": None, "text": DEFAULT_CATALOG.read_text(encoding="utf-8")}
    text = dir_catalog_text(ctx, file)
    if not is_catalog_text(text):
        raise StudioError(422, f"{file[:60]} is not a piece catalog (no [red] ... [purple] table): a mission?",
                          "see GET /api/catalogs")
    return {"file": file, "text": text}


@router.post("/catalogs/validate", response_model=CatalogCheck)
def validate(body: CatalogText) -> Doc:
    """Every problem `--pieces` would refuse the text for, with its line and piece; 200 either way."""
    return check_catalog(body.text, "catalog")


@router.post("/catalogs/save", response_model=Saved)
def save(body: CatalogSave, ctx: Ctx) -> Doc:
    """Writes ``--dir/file`` when the text loads as a catalog: whole or not at all, never through a
    link, never over a file unasked (409). Listed by GET /api/catalogs at once; the catalog in use,
    when it is that file, is read again."""
    name = catalog_name(body.file)
    doc = check_catalog(body.text, name)
    if not doc["valid"]:
        first = doc["errors"][0]
        more = len(doc["errors"]) - 1
        where = f"line {first['line']}: " if first["line"] else ""
        raise StudioError(422, f"the catalog does not load: {where}{first['message']}"
                          + (f" (and {more} more problem{'s' * (more > 1)})" if more else ""), first["fix"])
    if not is_catalog_text(body.text):
        raise StudioError(422, "the catalog's colours are not written as tables ([red] ... [purple])",
                          "write each colour as a table: [red] then 1 = \"#\" ...")
    try:
        path = write_file(ctx.directory, name, body.text.encode("utf-8", "surrogatepass"), overwrite=body.replace,
                          scratch=ctx.store.folder / "tmp")
    except TargetExists:
        raise StudioError(409, f"{name} exists already", 'send "replace": true to replace it') from None
    except UnsafeTarget as e:
        raise StudioError(409, f"{name} was not written: {e.strerror}",
                          "remove what is in the way, or choose another name") from None
    except (OSError, UnicodeEncodeError) as e:
        raise StudioError(409, f"cannot write {name}: {getattr(e, 'strerror', None) or e}",
                          "check the folder's permissions") from None
    if ctx.catalog_file == name:  # the catalog in use was replaced: use it as it is now
        ctx.use_catalog(load_catalog(name, body.text), name, str(path))
    return {"file": name, "saved": True}
