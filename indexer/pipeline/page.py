"""Decode and extract one page: the CPU-bound step, run in a worker process.

The worker returns what the crawl uses — the decoding's facts without the decoded HTML,
the extraction, and the page's outlinks as judged frontier candidates
(:mod:`indexer.crawl.candidates`) — so that the crawl process neither receives the page
text nor normalizes its links.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from indexer.crawl.candidates import Candidates, LinkRules, judge_links
from indexer.encoding import decode_body
from indexer.errors import ExtractError
from indexer.extract import Extraction, SiteRule, extract_page
from indexer.extract.explain import pack, to_lines
from indexer.extract.profile import DEFAULT_PROFILE, Profile
from indexer.extract.template import NO_TEMPLATE, SiteTemplate
from indexer.models import DecodedText, ExtractedDoc


@dataclass(frozen=True, slots=True)
class ProcessedPage:
    """Result of :func:`process_page`.

    Attributes:
        decoded: the decoding (``encoding == "binary"`` means not text; ``extracted`` None);
            from :func:`process_page` without its ``text`` (the crawl never reads it).
        extracted: title, main text, metadata and links, or None.
        error: why extraction failed, or ``""``.
        outcome: the outcome the URL ends as when ``extracted`` is None and it is not the
            page default (``wrong-type`` for binary, else ``extract-error``): a document's
            (``parse-error``, ``encrypted``, …) or the format decision's.
        keys: template keys of the page's blocks (:mod:`indexer.extract.template`), when
            asked for.
        explanation: why each block was kept or dropped, when asked for: JSON lines packed
            for storage (:func:`indexer.extract.explain.pack`, a tenth of their size to
            send back), ``b""`` when not asked for.
        links: the outlinks judged by the worker when it was given :class:`LinkRules`
            (``extracted.outlinks`` is then empty), else None.
    """

    decoded: DecodedText
    extracted: ExtractedDoc | None
    error: str = ""
    outcome: str = ""
    keys: tuple[str, ...] = ()
    explanation: bytes = b""
    links: Candidates | None = None

    @property
    def outlinks(self) -> Iterable[str] | Candidates:
        """The links to follow: the judged candidates, else the extracted URLs."""
        if self.links is not None:
            return self.links
        return [] if self.extracted is None else self.extracted.outlinks

    @property
    def links_kept(self) -> int:
        """How many links the extraction kept (``crawl.max_links_per_page``)."""
        if self.links is not None:
            return self.links.seen
        return 0 if self.extracted is None else len(self.extracted.outlinks)

    def stored_outlinks(self) -> list[str]:
        """The outlinks to store for the page (followed again when it answers 304)."""
        if self.links is not None:
            return self.links.stored()
        return [] if self.extracted is None else list(self.extracted.outlinks)


def process_page(
    body: bytes,
    content_type: str | None,
    url: str,
    rules: Sequence[SiteRule],
    max_links: int,
    template: SiteTemplate = NO_TEMPLATE,
    learn: bool = False,
    explain: bool = False,
    profile: Profile = DEFAULT_PROFILE,
    links: LinkRules | None = None,
) -> ProcessedPage:
    """Decode ``body`` (WHATWG order, see :mod:`indexer.encoding`) and extract its content;
    top-level, so that a process pool can run it; never raises for bad input (``error``).

    Args:
        body: the response body; content_type: its ``Content-Type`` header or None.
        url: the final URL (links resolve against it); rules: ``extract.rules``.
        max_links: outlinks kept; template, learn, explain, profile: see
        :func:`indexer.extract.extract_page`; links: to judge the outlinks here with.
    """
    decoded = dataclasses.replace(full := decode_body(body, content_type), text="")
    if decoded.encoding == "binary":
        return ProcessedPage(decoded, None, "binary body")
    try:
        extraction = extract_page(
            full.text,
            url,
            encoding=decoded.encoding,
            rules=rules,
            max_links=max_links,
            template=template,
            learn=learn,
            explain=explain,
            profile=profile,
        )
    except (ExtractError, ValueError, RecursionError, MemoryError) as exc:  # + lxml's limits
        why = str(exc) if isinstance(exc, ExtractError) else f"{type(exc).__name__}: {exc}"
        return ProcessedPage(decoded, None, why[:300])
    return _result(decoded, extraction, explain, links)


def _result(
    decoded: DecodedText, extraction: Extraction, explain: bool, links: LinkRules | None
) -> ProcessedPage:
    """The page as the crawl uses it: the outlinks judged here when ``links`` are given."""
    lines = pack(to_lines(extraction.decisions)) if explain else b""
    doc, judged = extraction.doc, None
    if links is not None:
        judged = judge_links(doc.outlinks, links)
        doc.outlinks = []
    return ProcessedPage(decoded, doc, keys=tuple(extraction.keys), explanation=lines, links=judged)
