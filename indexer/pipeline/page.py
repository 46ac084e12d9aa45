"""Decode and extract one page: the CPU-bound step, run in a worker process."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from indexer.encoding import decode_body
from indexer.errors import ExtractError
from indexer.extract import SiteRule, extract
from indexer.models import DecodedText, ExtractedDoc


@dataclass(frozen=True, slots=True)
class ProcessedPage:
    """Result of :func:`process_page`.

    Attributes:
        decoded: the decoding (``encoding == "binary"`` means not text; ``extracted`` None).
        extracted: title, main text, metadata and links, or None.
        error: why extraction failed, or ``""``.
        outcome: the outcome the URL ends as when ``extracted`` is None and it is not the
            page default (``wrong-type`` for binary, else ``extract-error``): a document's
            (``parse-error``, ``encrypted``, …) or the format decision's.
    """

    decoded: DecodedText
    extracted: ExtractedDoc | None
    error: str = ""
    outcome: str = ""


def process_page(
    body: bytes,
    content_type: str | None,
    url: str,
    rules: Sequence[SiteRule],
    max_links: int,
) -> ProcessedPage:
    """Decode ``body`` (WHATWG order, see :mod:`indexer.encoding`) and extract its content.

    A top-level function so that a ``ProcessPoolExecutor`` can run it. Never raises for
    bad input: failures come back in ``error``.

    Args:
        body: the response body; content_type: its ``Content-Type`` header or None.
        url: the final URL (links resolve against it).
        rules: ``extract.rules``.
        max_links: outlinks kept (``crawl.max_links_per_page``).
    """
    decoded = decode_body(body, content_type)
    if decoded.encoding == "binary":
        return ProcessedPage(decoded, None, "binary body")
    try:
        extracted = extract(
            decoded.text, url, encoding=decoded.encoding, rules=rules, max_links=max_links
        )
    except ExtractError as exc:
        return ProcessedPage(decoded, None, str(exc)[:300])
    except (ValueError, RecursionError, MemoryError) as exc:  # lxml limits on hostile input
        return ProcessedPage(decoded, None, f"{type(exc).__name__}: {exc}"[:300])
    return ProcessedPage(decoded, extracted)
