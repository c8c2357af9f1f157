"""PNG, JPEG and TIFF through Pillow and OCR; every TIFF frame is a page."""

from __future__ import annotations

import io
import warnings

from PIL import Image, ImageSequence, UnidentifiedImageError

from fieldwise.service.engines.parsing.errors import CorruptDocument, PageLimitExceeded
from fieldwise.service.engines.parsing.layout import group_ocr_lines
from fieldwise.service.engines.parsing.limits import Deadline
from fieldwise.service.engines.parsing.model import Page
from fieldwise.service.engines.parsing.ocr import OcrEngine

__all__ = ["MIN_IMAGE_SIDE", "parse_image"]

MIN_IMAGE_SIDE = 8
_MAX_PIXELS = 80_000_000


def parse_image(
    data: bytes, *, max_pages: int, ocr: OcrEngine | None, deadline: Deadline
) -> tuple[Page, ...]:
    """OCR every frame of an image (no OCR engine: pages with sizes but no text); ``deadline``
    is checked before each frame."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            frames = getattr(image, "n_frames", 1)
            if frames > max_pages:
                raise PageLimitExceeded(frames, max_pages)
            pages: list[Page] = []
            for number, frame in enumerate(ImageSequence.Iterator(image), start=1):
                deadline.check(f"{number - 1} of {frames} frames read")
                width, height = frame.size
                if width * height > _MAX_PIXELS:
                    raise CorruptDocument(f"the image is too large ({width}×{height} px)")
                if min(width, height) < MIN_IMAGE_SIDE:
                    raise CorruptDocument(
                        f"the image is too small to hold text ({width}×{height} px)"
                    )
                frame.load()
                words = ocr.recognize(frame) if ocr is not None else []
                pages.append(
                    Page(number, float(width), float(height), group_ocr_lines(words), "ocr")
                )
            return tuple(pages)
    except (
        UnidentifiedImageError,
        Image.DecompressionBombError,
        Image.DecompressionBombWarning,
    ) as exc:
        raise CorruptDocument(f"the image is corrupt or unreadable ({exc})") from exc
    except (OSError, ValueError, EOFError, SyntaxError) as exc:
        raise CorruptDocument(f"the image is corrupt or truncated ({exc})") from exc
