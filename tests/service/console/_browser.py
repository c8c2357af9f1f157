"""Browser helpers for the console tests: Debian's Chromium, screenshots at two widths with a
horizontal-overflow check, and problems (console errors, CSP violations, dialogs) collected."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import ConsoleMessage, Dialog, Page

from tests.chromium import ARGS, CHROMIUM

__all__ = ["ARGS", "CHROMIUM", "WIDTHS", "Camera", "watch"]

#: A phone (390 px) and a desktop (1440 px).
WIDTHS = (1440, 390)

# Anything sticking out to the right (or left) of the viewport that no ancestor clips or
# scrolls; elements parked entirely off-screen on purpose (the skip link) do not count.
_OVERFLOW_JS = """
() => {
  const vw = window.innerWidth;
  const found = [];
  const root = document.scrollingElement;
  if (root.scrollWidth > vw) found.push(`document scrollWidth ${root.scrollWidth} > ${vw}`);
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= 0) continue;
    if (r.right <= vw + 0.5 && r.left >= -0.5) continue;
    let clipped = false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const ox = getComputedStyle(p).overflowX;
      if (ox === "auto" || ox === "scroll" || ox === "hidden") { clipped = true; break; }
    }
    if (!clipped) found.push(`${el.tagName.toLowerCase()}.${el.className} ${r.left}..${r.right}`);
  }
  return found;
}
"""


@dataclass
class Camera:
    """Screenshots of every page at both widths under ``folder``, each checked for overflow."""

    folder: Path
    taken: list[Path] = field(default_factory=list)

    def capture(self, page: Page, name: str) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            overflow = page.evaluate(_OVERFLOW_JS)
            assert overflow == [], (name, width, overflow)
            path = self.folder / f"{name}-{width}.png"
            page.screenshot(path=str(path), full_page=True)
            self.taken.append(path)
        page.set_viewport_size({"width": WIDTHS[0], "height": 900})


def watch(page: Page) -> list[str]:
    """Console errors and warnings (CSP violations among them), page errors and dialogs."""
    problems: list[str] = []

    def on_console(msg: ConsoleMessage) -> None:
        if msg.type in ("error", "warning"):
            problems.append(f"{msg.type}: {msg.text}")

    def on_dialog(dialog: Dialog) -> None:
        problems.append(f"dialog: {dialog.message}")
        dialog.dismiss()

    page.on("console", on_console)
    page.on("pageerror", lambda exc: problems.append(f"pageerror: {exc}"))
    page.on("dialog", on_dialog)
    return problems
