"""`/api/rules`: the game's rules and names as the page needs them (modes, table sizes, limits,
colours, policies with what each is, job kinds, the glossary): the page holds none of its own.
`/glossary`: the glossary as a page of its own, which the studio's menus link to (every word
escaped; open to anyone, like the page: it says nothing of the host's)."""

from __future__ import annotations

from html import escape

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from solver.app.documents import Doc
from solver.app.glossary import GLOSSARY
from solver.app.pagerules import rules_doc
from solver.studio.responses import ERRORS, RulesDoc

router = APIRouter(prefix="/api", tags=["rules"], responses=ERRORS)
pages = APIRouter()


@router.get("/rules", response_model=RulesDoc)
def rules() -> Doc:
    return rules_doc()


@pages.get("/glossary", response_class=HTMLResponse, include_in_schema=False)
def glossary() -> Response:
    rows = "\n".join(f'<dt id="{escape(anchor)}">{escape(term)}</dt>\n<dd>{escape(text)}</dd>'
                     for anchor, term, text in GLOSSARY)
    page = ('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<title>kakapo studio: the words of the ladder</title>\n'
            '<link rel="stylesheet" href="/static/studio.css">\n</head>\n<body class="glossary">\n'
            '<main><section class="fields">\n<h1>The words of the ladder</h1>\n'
            '<p class="msg">What the studio\'s figures and simulated players mean (docs/policies.md says more).</p>\n'
            f'<dl class="glossary">\n{rows}\n</dl>\n<p><a href="/">Back to the studio</a></p>\n'
            '</section></main>\n</body>\n</html>\n')
    return HTMLResponse(page, headers={"Cache-Control": "no-cache", "Content-Security-Policy":
                                       "default-src 'none'; style-src 'self'; frame-ancestors 'none'; "
                                       "base-uri 'none'; form-action 'none'"})
