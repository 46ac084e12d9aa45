"""The outcome table: every way a URL's visit can end, with its class and its effect.

Every URL the crawl meets ends with exactly one outcome, stored in the frontier as the
member's value (``"indexed"``, ``"robots-disallowed"``), plus a free-text reason. Final HTTP
statuses other than success keep their stored form ``http-<code>`` (``http-404``); they are
not members but are classed by :func:`classify` from their code, so ``indexer report
--outcome http-404`` works for any code.

Each outcome has:

* a class (:class:`OutcomeClass`): ``reached`` (the page was fetched and is current),
  ``skipped`` (a rule or a limit chose not to index it), ``failure`` (something was wrong
  with the response or the document), ``gone`` (the server says it no longer exists),
  ``restricted`` (the server refuses access now: 401 or 403), ``network`` (the host could
  not be talked to);
* an effect on a document already in the index (:class:`Effect`): ``keep``,
  ``delete-after-grace`` (deleted once ``reindex.delete_grace_runs`` runs in a row end so),
  ``delete-now``.

New outcomes enter :data:`TABLE` with a class, an effect and a description; a test checks
that every outcome a real crawl stores is known here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class OutcomeClass(StrEnum):
    """The kind of ending an outcome is (see the module docstring)."""

    REACHED = "reached"
    SKIPPED = "skipped"
    FAILURE = "failure"
    GONE = "gone"
    RESTRICTED = "restricted"
    NETWORK = "network"


class Effect(StrEnum):
    """What an outcome does to a document that is already indexed."""

    KEEP = "keep"
    DELETE_AFTER_GRACE = "delete-after-grace"
    DELETE_NOW = "delete-now"


class Outcome(StrEnum):
    """Named outcomes; their values are what the frontier stores."""

    INDEXED = "indexed"
    NOT_MODIFIED = "not-modified"
    UNCHANGED = "unchanged"
    REDIRECTED = "redirected"
    ROBOTS_DISALLOWED = "robots-disallowed"
    ROBOTS_UNAVAILABLE = "robots-unavailable"
    OUT_OF_SCOPE = "out-of-scope"
    NOINDEX = "noindex"
    DUPLICATE = "duplicate"
    CANONICAL_ELSEWHERE = "canonical-elsewhere"
    NO_CONTENT = "no-content"
    TOO_LARGE = "too-large"
    WRONG_TYPE = "wrong-type"
    TIMEOUT = "timeout"
    CONNECTION_ERROR = "connection-error"
    HOST_FAILING = "host-failing"
    RETRIES_EXHAUSTED = "retries-exhausted"
    RETRY_AFTER_TOO_LONG = "retry-after-too-long"
    REDIRECT_ERROR = "redirect-error"
    BAD_RESPONSE = "bad-response"
    TRAP = "trap"
    INVALID_URL = "invalid-url"
    MAX_PAGES = "max-pages"
    EXTRACT_ERROR = "extract-error"
    INTERNAL_ERROR = "internal-error"
    INDEX_REJECTED = "index-rejected"
    SITEWIDE_DUPLICATE = "sitewide-duplicate"
    LOGIN_REQUIRED = "login-required"
    LOGIN_PAGE = "login-page"
    UNSUPPORTED_FORMAT = "unsupported-format"
    PARSE_ERROR = "parse-error"
    PARSE_TIMEOUT = "parse-timeout"
    TOO_LARGE_UNPACKED = "too-large-unpacked"
    ENCRYPTED = "encrypted"
    NO_TEXT = "no-text"
    LINKS_ONLY = "links-only"
    EXCLUDED_FORMAT = "excluded-format"
    RESTRICTED = "restricted"


@dataclass(frozen=True)
class OutcomeInfo:
    """One row of :data:`TABLE`.

    Attributes:
        klass: the outcome's class.
        effect: what it does to an indexed document.
        description: one line for ``indexer report --help`` and the README.
    """

    klass: OutcomeClass
    effect: Effect
    description: str


_R, _S, _F, _G, _N = (
    OutcomeClass.REACHED,
    OutcomeClass.SKIPPED,
    OutcomeClass.FAILURE,
    OutcomeClass.GONE,
    OutcomeClass.NETWORK,
)
_KEEP, _GRACE, _NOW = Effect.KEEP, Effect.DELETE_AFTER_GRACE, Effect.DELETE_NOW

#: The outcome table: class, effect on an indexed document, description.
TABLE: dict[Outcome, OutcomeInfo] = {
    Outcome.INDEXED: OutcomeInfo(_R, _KEEP, "fetched, decoded, extracted and sent to the index"),
    Outcome.NOT_MODIFIED: OutcomeInfo(
        _R, _KEEP, "304 to a conditional GET; the indexed copy is current"
    ),
    Outcome.UNCHANGED: OutcomeInfo(
        _R, _KEEP, "fetched again, main content hash unchanged; not re-indexed"
    ),
    Outcome.REDIRECTED: OutcomeInfo(
        _S,
        _GRACE,
        "redirects to a URL in scope, which is indexed under its own URL; a document under "
        "this URL (the page moved) goes after the grace runs",
    ),
    Outcome.ROBOTS_DISALLOWED: OutcomeInfo(_S, _GRACE, "robots.txt (RFC 9309) disallows the URL"),
    Outcome.ROBOTS_UNAVAILABLE: OutcomeInfo(
        _N, _KEEP, "robots.txt unreachable (5xx or network, RFC 9309 §2.3.1.4): nothing fetched"
    ),
    Outcome.OUT_OF_SCOPE: OutcomeInfo(
        _S, _GRACE, "host, include/exclude pattern or depth rules exclude the URL"
    ),
    Outcome.NOINDEX: OutcomeInfo(_S, _NOW, "meta robots or X-Robots-Tag noindex"),
    Outcome.DUPLICATE: OutcomeInfo(
        _S, _GRACE, "same page as one already indexed in this run (redirect or same content)"
    ),
    Outcome.CANONICAL_ELSEWHERE: OutcomeInfo(
        _S, _GRACE, "rel=canonical names another in-scope URL, which is queued"
    ),
    Outcome.NO_CONTENT: OutcomeInfo(
        _S, _NOW, "no main text (a frameset or an empty page); its links are followed"
    ),
    Outcome.TOO_LARGE: OutcomeInfo(_S, _KEEP, "body larger than the size cap"),
    Outcome.WRONG_TYPE: OutcomeInfo(
        _S, _GRACE, "content type not fetched for indexing, or bytes of no format we index"
    ),
    Outcome.TIMEOUT: OutcomeInfo(_N, _KEEP, "connect or total timeout, every attempt"),
    Outcome.CONNECTION_ERROR: OutcomeInfo(
        _N, _KEEP, "connection refused, reset or broken response"
    ),
    Outcome.HOST_FAILING: OutcomeInfo(
        _N, _KEEP, "its host kept timing out or failing to connect (fetch.host_failure_limit)"
    ),
    Outcome.RETRIES_EXHAUSTED: OutcomeInfo(
        _F, _KEEP, "still failing after fetch.max_attempts attempts"
    ),
    Outcome.RETRY_AFTER_TOO_LONG: OutcomeInfo(_F, _KEEP, "Retry-After above fetch.retry_after_cap"),
    Outcome.REDIRECT_ERROR: OutcomeInfo(
        _F, _KEEP, "redirect loop, too many hops, or to a non-http(s) URL"
    ),
    Outcome.BAD_RESPONSE: OutcomeInfo(
        _F, _KEEP, "response that cannot be read: corrupt compression"
    ),
    Outcome.TRAP: OutcomeInfo(_S, _GRACE, "URL longer than allowed or repeating path segments"),
    Outcome.INVALID_URL: OutcomeInfo(_F, _GRACE, "URL that cannot be parsed or normalized"),
    Outcome.MAX_PAGES: OutcomeInfo(_S, _KEEP, "page limit reached before the URL was fetched"),
    Outcome.EXTRACT_ERROR: OutcomeInfo(_F, _KEEP, "page could not be parsed"),
    Outcome.INTERNAL_ERROR: OutcomeInfo(
        _F, _KEEP, "a bug of ours while handling the URL (please report it)"
    ),
    Outcome.INDEX_REJECTED: OutcomeInfo(_F, _KEEP, "Solr rejected the document as bad (400)"),
    Outcome.SITEWIDE_DUPLICATE: OutcomeInfo(
        _S,
        _KEEP,
        "same content as crawl.sitewide_duplicate_share of the host's pages in this run "
        "(a maintenance or error page answering 200); the indexed copy is kept",
    ),
    Outcome.LOGIN_REQUIRED: OutcomeInfo(
        _S, _GRACE, "redirects to a login page (password form or crawl.login_patterns)"
    ),
    Outcome.LOGIN_PAGE: OutcomeInfo(
        _S, _GRACE, "a login page itself; indexed only with crawl.index_login_pages"
    ),
    Outcome.UNSUPPORTED_FORMAT: OutcomeInfo(
        _S, _KEEP, "a format of crawl.formats whose parser is missing (Tika: no java or service)"
    ),
    Outcome.PARSE_ERROR: OutcomeInfo(
        _F, _KEEP, "the document's parser failed (truncated, malformed); retried next run"
    ),
    Outcome.PARSE_TIMEOUT: OutcomeInfo(
        _F, _KEEP, "parsing took longer than extract.document_timeout; retried next run"
    ),
    Outcome.TOO_LARGE_UNPACKED: OutcomeInfo(
        _S, _KEEP, "a package unpacks past extract.max_unpacked_bytes (zip bomb)"
    ),
    Outcome.ENCRYPTED: OutcomeInfo(_S, _GRACE, "a password-protected PDF or Office file"),
    Outcome.NO_TEXT: OutcomeInfo(
        _S, _GRACE, "a document without a text layer (a scan; OCR is out of scope)"
    ),
    Outcome.LINKS_ONLY: OutcomeInfo(
        _S, _GRACE, "an HTML page parsed for its links only: html is not in crawl.formats"
    ),
    Outcome.EXCLUDED_FORMAT: OutcomeInfo(
        _S, _GRACE, "a readable document of a format crawl.formats leaves out"
    ),
    Outcome.RESTRICTED: OutcomeInfo(
        OutcomeClass.RESTRICTED,
        _NOW,
        "401 or 403 (RFC 9110 §15.5.2, §15.5.4): the owner restricted the page; its document "
        "leaves search at once (kept with reindex.keep_restricted), its URL is fetched again",
    ),
}

_VALUES = frozenset(member.value for member in Outcome)

#: Final statuses that restrict a page now (RFC 9110 §15.5.2 401 Unauthorized, §15.5.4 403
#: Forbidden): stored as ``restricted``, not ``http-<code>``.
RESTRICTED_STATUS = frozenset({401, 403})
#: How ``http-<code>`` outcomes are described in listings.
HTTP_DESCRIPTION = "final HTTP status that is not a success (e.g. http-404)"


def http_outcome(status: int) -> str:
    """The stored outcome for a final HTTP status: ``http_outcome(404) == "http-404"``, and
    ``restricted`` for :data:`RESTRICTED_STATUS`."""
    if status in RESTRICTED_STATUS:
        return Outcome.RESTRICTED.value
    return f"http-{status}"


def _http_code(outcome: str) -> int | None:
    if outcome.startswith("http-") and outcome[5:].isdigit() and len(outcome) == 8:
        return int(outcome[5:])
    return None


def info(outcome: str) -> OutcomeInfo:
    """The table row of a stored outcome, ``http-<code>`` included.

    HTTP codes are classed as RFC 9110 §15 reads them: 404 and 410 are ``gone`` (404 with
    grace, since a broken deploy answers 404 too; 410 "Gone" at once, unless
    ``reindex.delete_410_at_once`` is false, when it waits like a 404), other 4xx are
    ``failure`` (kept; 401 and 403 are stored as ``restricted``, not ``http-<code>``), 5xx
    are ``network``-like failures of the server (kept).

    Raises:
        ValueError: ``outcome`` is neither a member nor ``http-<code>``.
    """
    code = _http_code(outcome)
    if code is not None:
        if code == 410:
            return OutcomeInfo(_G, _NOW, "410 Gone")
        if code == 404:
            return OutcomeInfo(_G, _GRACE, "404 Not Found")
        if 500 <= code <= 599:
            return OutcomeInfo(_F, _KEEP, f"server error {code}")
        return OutcomeInfo(_F, _KEEP, f"client error {code}")
    return TABLE[Outcome(outcome)]


def is_known(outcome: str) -> bool:
    """Whether ``outcome`` is a member of :class:`Outcome` or ``http-<code>``."""
    return _http_code(outcome) is not None or outcome in _VALUES


def classify(outcome: str) -> OutcomeClass:
    """The class of a stored outcome (see :func:`info`); raises ``ValueError`` if unknown."""
    return info(outcome).klass


def is_failure(outcome: str) -> bool:
    """Whether the outcome counts as failed in summaries (classes failure, gone, network)."""
    try:
        return classify(outcome) in (_F, _G, _N)
    except (KeyError, ValueError):
        return True
