"""Debian's Chromium for the browser tests: headless, and with no background network traffic
(the machine has none; without these flags Chromium keeps trying and logs errors)."""

from __future__ import annotations

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
