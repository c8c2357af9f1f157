"""``/docs``: Swagger UI for the service's API, served from installed files (no CDN, no network).

The page and its assets hold no data, so they pass the API-key middleware; the OpenAPI document
they render does not (``/openapi.json`` answers 401 without a key, like every API path). The page
asks for a key once, keeps it in the tab's ``sessionStorage`` only, and Swagger UI sends it as
``x-api-key`` on every request it makes — the document's own fetch included.
"""

from __future__ import annotations

import functools
from importlib import resources

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from fieldwise.service.http.errors import ApiError

__all__ = ["DOCS_PREFIX", "router"]

DOCS_PREFIX = "/docs"

#: The Swagger UI build shipped by ``fastapi-offline`` (kept current with Swagger UI releases);
#: only these files are served, by name, so no path from a request reaches the file system.
_ASSETS = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "favicon.png": "image/png",
}

#: Scripts only from this origin: the start-up code is a file of its own (``docs.js``), so the
#: policy allows no inline script. Swagger UI sets inline styles, hence ``style-src`` allows them.
_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; "
    "base-uri 'none'"
)
_HEADERS = {
    "content-security-policy": _CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}

_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fieldwise service API</title>
<link rel="icon" href="/docs/static/favicon.png">
<link rel="stylesheet" href="/docs/static/swagger-ui.css">
<style>
  body { margin: 0; font-family: system-ui, sans-serif; }
  #key-form { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap;
              padding: .75rem 1rem; background: #1f2937; color: #f9fafb; }
  #key-form input { flex: 1 1 16rem; padding: .35rem .5rem; font: inherit; }
  #key-form button { padding: .35rem .9rem; font: inherit; cursor: pointer; }
  #key-status { font-size: .9em; }
</style>
</head>
<body>
<form id="key-form" autocomplete="off">
  <label for="api-key">API key</label>
  <input id="api-key" name="api-key" type="password" placeholder="fw_…"
         aria-describedby="key-status">
  <button type="submit">Load the API</button>
  <span id="key-status" role="status">The key stays in this tab and goes only to this
    service, as x-api-key.</span>
</form>
<div id="swagger-ui"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script src="/docs/docs.js"></script>
</body>
</html>
"""

_SCRIPT = """"use strict";
(function () {
  var STORE = "fieldwise-api-key";
  var form = document.getElementById("key-form");
  var input = document.getElementById("api-key");
  var status = document.getElementById("key-status");
  function load(key) {
    window.ui = SwaggerUIBundle({
      url: "/openapi.json",
      dom_id: "#swagger-ui",
      deepLinking: true,
      requestInterceptor: function (request) {
        request.headers["x-api-key"] = key;
        return request;
      },
      onComplete: function () { status.textContent = "Loaded with the key in this tab."; }
    });
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var key = input.value.trim();
    if (!key) { status.textContent = "Enter an API key first."; return; }
    sessionStorage.setItem(STORE, key);
    input.value = "";
    load(key);
  });
  var kept = sessionStorage.getItem(STORE);
  if (kept) { load(kept); }
})();
"""

router = APIRouter(prefix=DOCS_PREFIX, include_in_schema=False)


@functools.cache
def _asset_bytes(name: str) -> bytes:
    """An installed asset's bytes, read once per process: the files are up to 1.5 MB and do not
    change while the service runs; only the names in ``_ASSETS`` ever reach this."""
    return resources.files("fastapi_offline").joinpath("static", name).read_bytes()


@router.get("")
def docs_page() -> HTMLResponse:
    """The Swagger UI page."""
    return HTMLResponse(_PAGE, headers=_HEADERS)


@router.get("/docs.js")
def docs_script() -> Response:
    """The page's start-up code (a file of its own so the CSP needs no inline script)."""
    return Response(_SCRIPT, media_type="text/javascript; charset=utf-8", headers=_HEADERS)


@router.get("/static/{name}")
def docs_asset(name: str) -> Response:
    """One of Swagger UI's files, from the installed package; 404 for any other name."""
    media_type = _ASSETS.get(name)
    if media_type is None:
        raise ApiError(404, f"No documentation file named {name!r}.", param="name")
    content = _asset_bytes(name)
    headers = {**_HEADERS, "cache-control": "public, max-age=86400"}
    return Response(content, media_type=media_type, headers=headers)
