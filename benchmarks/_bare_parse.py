"""The least an HTTP parse endpoint can do, for the floor figure of ``parse.py``'s HTTP row.

``POST /parse/file`` on the ASGI stack fieldwise's service runs on (uvicorn, Starlette,
python-multipart): read the multipart upload, run the raw pypdfium2 loop of ``parse.py``
(``_pdf_text.page_texts``) and answer the page count and the text as JSON. Nothing is
stored, checked or laid out: what a service over this stack must pay before it does any
work of its own.

Run: ``python -m uvicorn _bare_parse:app`` from this folder.
"""

from __future__ import annotations

from _pdf_text import page_texts
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


async def _parse(request: Request) -> JSONResponse:
    async with request.form(max_files=1, max_fields=8) as form:
        upload = form["file"]
        data = await upload.read()  # type: ignore[union-attr]
    texts = page_texts(data)
    return JSONResponse({"page_count": len(texts), "text": "\n".join(texts)}, status_code=201)


app = Starlette(routes=[Route("/parse/file", _parse, methods=["POST"])])
