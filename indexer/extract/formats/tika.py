"""The client of our Tika service (``tika-service/``): document bytes in, a document out.

``POST {url}/parse`` with the bytes (header ``X-Max-Chars``: the text kept, at most
:data:`MAX_TEXT_CHARS`); the service answers 200 with ``{"text", "truncated", "metadata":
{name: [values]}}`` or 422 with ``{"error": "encrypted" | "parse-error", "message"}``.
Metadata names are Tika's (``dc:title``, ``dc:creator``, ``dcterms:created``,
``xmpTPg:NPages`` …; Tika's ``TikaCoreProperties``). The answer becomes an
:class:`~indexer.models.ExtractedDoc` the way the Python parsers make theirs
(:mod:`.fields`): title from ``dc:title`` (OLE2 summary information, RTF ``\\title``) else
the first line, language guessed from the text before the metadata's. An RTF gets an
explicit body start first (:mod:`.rtfbody`: Tika drops text it takes for the header's) and
its ``{\\info}`` in the default font's code page (:mod:`.rtfinfo`).

urllib's errors are translated here (a loopback service never through an environment
proxy: :mod:`indexer.loopback`): a refused or dropped connection is
:class:`~indexer.errors.TikaServiceError` ``gone``, no answer in time ``timeout``.
"""

from __future__ import annotations

import http.client
import json
import re
import urllib.error
import urllib.request
from datetime import datetime
from typing import Any

from indexer.errors import DocumentError, TikaServiceError
from indexer.extract.formats.fields import clean_text, first_line, guess_lang, iso_date, meta_value
from indexer.extract.formats.rtfbody import with_body_start
from indexer.extract.formats.rtfinfo import with_info_charset
from indexer.loopback import urlopen
from indexer.models import ExtractedDoc

#: The longest text kept of one document (characters); the rest is cut with a note.
MAX_TEXT_CHARS = 20_000_000
#: Dates before this year are a format's "unset" (an OLE2 FILETIME of 0 is 1601-01-01).
FIRST_YEAR = 1900
#: A slide or notes line of placeholder marks only: PowerPoint 97 stores a slide-number,
#: date or footer field as ``*`` in its text (MS-PPT, the *MCAtom meta-characters), and an
#: empty bullet paragraph leaves its bullet; neither is the slide's text.
_PLACEHOLDER_LINE = re.compile(
    r"(?:[*\u2022\u25e6\u25aa\u2023\u25cf\u25cb\u25a0\u25a1\u30fb\s]|‹#›)+"
)
_PAGES = ("xmpTPg:NPages", "meta:page-count", "meta:slide-count", "Page-Count")


def tika_request(base_url: str, body: bytes, timeout: float) -> dict[str, Any]:
    """The service's JSON answer for ``body``.

    Args:
        base_url: ``http://127.0.0.1:PORT`` of a running service.
        body: the document's bytes.
        timeout: seconds to wait for the answer (``extract.document_timeout``).

    Raises:
        DocumentError: the service refused the document (``encrypted``, ``parse-error``).
        TikaServiceError: ``gone`` (connection refused or dropped) or ``timeout``.
    """
    request = urllib.request.Request(
        f"{base_url.rstrip('/')}/parse",
        data=body.removeprefix(b"\xef\xbb\xbf"),  # an RTF saved with a UTF-8 BOM
        method="POST",
        headers={"Content-Type": "application/octet-stream", "X-Max-Chars": str(MAX_TEXT_CHARS)},
    )
    try:
        with urlopen(request, timeout) as reply:
            answer: dict[str, Any] = json.loads(reply.read().decode("utf-8"))
            return answer
    except urllib.error.HTTPError as exc:
        raise _refusal(exc) from None
    except TimeoutError:
        raise TikaServiceError("timeout", f"over extract.document_timeout={timeout:g} s") from None
    except (urllib.error.URLError, http.client.HTTPException, ConnectionError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        if isinstance(reason, TimeoutError):
            raise TikaServiceError(
                "timeout", f"over extract.document_timeout={timeout:g} s"
            ) from None
        raise TikaServiceError("gone", f"Tika service at {base_url}: {reason}") from None


def service_problem(base_url: str, timeout: float = 5.0) -> str | None:
    """Why the service at ``base_url`` (``extract.tika_url``) cannot be used, or None when
    ``GET /health`` answers ``ok`` within ``timeout`` seconds."""
    try:
        with urlopen(f"{base_url.rstrip('/')}/health", timeout) as reply:
            if reply.read(16).strip() == b"ok":
                return None
            problem = "its /health does not answer ok"
    except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
        problem = f"it does not answer ({getattr(exc, 'reason', exc)})"
    return f"extract.tika_url={base_url}: {problem}"


def _refusal(exc: urllib.error.HTTPError) -> DocumentError:
    try:
        detail = json.loads(exc.read().decode("utf-8", "replace"))
        kind, message = str(detail["error"]), str(detail["message"])
    except (ValueError, KeyError, TypeError, OSError):
        return DocumentError("parse-error", f"Tika service answered HTTP {exc.code}")
    outcome = "encrypted" if kind == "encrypted" else "parse-error"
    return DocumentError(outcome, f"Tika: {message}")


def _first(metadata: dict[str, list[str]], *names: str) -> str | None:
    for name in names:
        for value in metadata.get(name, ()):
            found = meta_value(value)
            if found:
                return found
    return None


def _date(value: str | None) -> str | None:
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return iso_date(parsed) if parsed.year >= FIRST_YEAR else None


def _pages(metadata: dict[str, list[str]]) -> int | None:
    found = _first(metadata, *_PAGES)
    return int(found) if found and found.isdigit() else None


def tika_extracted(fmt: str, answer: dict[str, Any]) -> ExtractedDoc:
    """The document record of the service's answer for a document of format ``fmt``.

    Raises:
        DocumentError: ``no-text`` when the text is empty.
    """
    metadata: dict[str, list[str]] = answer.get("metadata") or {}
    # Tika's XHTML puts a tab before each table cell: a line's leading tabs are layout
    raw = str(answer.get("text") or "").replace("\r\n", "\n")
    lines = [line.lstrip("\t ") for line in raw.split("\n")]
    if fmt == "ppt":
        lines = [line for line in lines if not _PLACEHOLDER_LINE.fullmatch(line)]
    text = clean_text("\n".join(lines))
    if not text:
        raise DocumentError("no-text", f"{fmt} without text")
    keywords = _first(metadata, "meta:keyword", "pdf:docinfo:keywords") or ""
    return ExtractedDoc(
        title=_first(metadata, "dc:title") or first_line(text),
        text=text,
        extractor="tika",
        author=_first(metadata, "dc:creator", "meta:author"),
        description=_first(metadata, "dc:subject", "dc:description"),
        keywords=[k.strip() for k in keywords.replace(";", ",").split(",") if k.strip()],
        created=_date(_first(metadata, "dcterms:created")),
        modified=_date(_first(metadata, "dcterms:modified")),
        lang=guess_lang(text) or _first(metadata, "dc:language"),
        format=fmt,
        page_count=_pages(metadata),
        note=f"text cut at {MAX_TEXT_CHARS} characters" if answer.get("truncated") else "",
    )


def tika_document(base_url: str, fmt: str, body: bytes, timeout: float) -> ExtractedDoc:
    """Parse ``body`` (format ``fmt``) through the service at ``base_url``.

    Raises:
        DocumentError: the document's outcome (``encrypted``, ``parse-error``, ``no-text``).
        TikaServiceError: the service is gone or took longer than ``timeout`` seconds.
    """
    if fmt == "rtf":
        body = with_info_charset(with_body_start(body.removeprefix(b"\xef\xbb\xbf")))
    return tika_extracted(fmt, tika_request(base_url, body, timeout))
