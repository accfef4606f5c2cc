"""`/api/rules`: the game's rules and names as the page needs them (modes, table sizes, limits,
colours, policies with what each is, job kinds): the page holds none of its own."""

from __future__ import annotations

from fastapi import APIRouter

from solver.app.documents import Doc
from solver.app.rules import rules_doc
from solver.studio.responses import ERRORS, RulesDoc

router = APIRouter(prefix="/api", tags=["rules"], responses=ERRORS)


@router.get("/rules", response_model=RulesDoc)
def rules() -> Doc:
    return rules_doc()
