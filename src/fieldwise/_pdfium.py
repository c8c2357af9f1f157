"""The one lock around PDFium.

PDFium keeps process-global state and is not thread-safe: two threads inside it at once (two
job workers parsing PDFs) crash the interpreter with a segmentation fault. Every call into
pypdfium2 in fieldwise holds this lock; slow work on its results (OCR) runs outside it.
"""

from __future__ import annotations

import threading

PDFIUM_LOCK = threading.RLock()

__all__ = ["PDFIUM_LOCK"]
