"""`/api/pieces` and `/api/catalogs`: the piece catalog the studio uses (drawn in the page), and
choosing it among the bundled one and the catalogs in ``--dir`` (each checked as `--pieces` is);
the Pieces tab's reading, checking and saving of a catalog (sent as its text or as its pieces
drawn: the server writes the file)."""

from __future__ import annotations

from fastapi import APIRouter

from solver.app.catalogs import check_catalog, pieces_doc
from solver.app.documents import Doc
from solver.core.errors import InputError
from solver.io.catalog import DEFAULT_CATALOG, is_catalog_text, load_catalog
from solver.studio.context import Ctx
from solver.studio.errors import StudioError, refused
from solver.studio.folder import catalog_file_name
from solver.studio.models import CatalogChoice, CatalogSave, CatalogText
from solver.studio.responses import ERRORS, CatalogCheck, CatalogFile, CatalogRow, PiecesDoc, Saved

router = APIRouter(prefix="/api", tags=["catalogs"], responses=ERRORS)


@router.get("/pieces", response_model=PiecesDoc)
def pieces(ctx: Ctx) -> Doc:
    return pieces_doc(ctx.catalog, ctx.catalog_file)


@router.get("/catalogs", response_model=list[CatalogRow])
def catalogs(ctx: Ctx) -> list[Doc]:
    """The bundled catalog and every file of the folder that reads as one (those that look like a
    catalog but do not load are listed with the reason)."""
    return ctx.folder.catalogs(ctx.catalog_file)


@router.post("/catalogs", response_model=PiecesDoc)
def choose(body: CatalogChoice, ctx: Ctx) -> Doc:
    """The catalog the studio uses from now on (missions checked, solved, rated and played with it)."""
    if body.file is None:
        ctx.use_catalog(load_catalog(), None, None)
    else:
        try:
            catalog = ctx.folder.catalog(body.file)
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
    text = ctx.folder.text(file)
    if not is_catalog_text(text):
        raise StudioError(422, f"{file[:60]} is not a piece catalog (no [red] ... [purple] table): a mission?",
                          "see GET /api/catalogs")
    return {"file": file, "text": text}


@router.post("/catalogs/validate", response_model=CatalogCheck)
def validate(body: CatalogText) -> Doc:
    """Every problem `--pieces` would refuse the catalog for, with its line and piece; 200 either way."""
    return check_catalog(body.catalog_text(), "catalog")


@router.post("/catalogs/save", response_model=Saved)
def save(body: CatalogSave, ctx: Ctx) -> Doc:
    """Writes ``--dir/file`` when the catalog loads: whole or not at all, never through a link, never
    over a file unasked (409). Listed by GET /api/catalogs at once; the catalog in use, when it is
    that file, is read again."""
    name = catalog_file_name(body.file)
    text = body.catalog_text()
    doc = check_catalog(text, name)
    if not doc["valid"]:
        first = doc["errors"][0]
        more = len(doc["errors"]) - 1
        where = f"line {first['line']}: " if first["line"] else ""
        raise StudioError(422, f"the catalog does not load: {where}{first['message']}"
                          + (f" (and {more} more problem{'s' * (more > 1)})" if more else ""), first["fix"])
    if not is_catalog_text(text):
        raise StudioError(422, "the catalog's colours are not written as tables ([red] ... [purple])",
                          "write each colour as a table: [red] then 1 = \"#\" ...")
    path = ctx.folder.write(name, text, body.replace, "replace")
    if ctx.catalog_file == name:  # the catalog in use was replaced: use it as it is now
        ctx.use_catalog(load_catalog(name, text), name, str(path))
    return {"file": name, "saved": True}
