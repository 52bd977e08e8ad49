"""The dashboard page at /: static files from the package (static/: index.html, its
script and style; no build step, nothing fetched from elsewhere), which draw what the
app's JSON routes serve (/status, /history, /decisions) and follow /events. The page is
served with a content security policy that lets it load only from this origin."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

__all__ = ["STATIC", "dashboard_routes"]

STATIC = Path(__file__).parent / "static"
_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)


def dashboard_routes() -> list[BaseRoute]:
    """GET / (the page) and /static/... (its script and style)."""

    async def page(_: Request) -> Response:
        return FileResponse(
            STATIC / "index.html",
            headers={"Content-Security-Policy": _POLICY, "Cache-Control": "no-cache"},
        )

    return [
        Route("/", page, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
