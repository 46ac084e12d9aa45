"""The project's exception tree; third-party errors are translated into it at the boundary.

::

    IndexerError                     root: everything this package raises on purpose
    ├── ConfigError                  bad settings or usage; names the setting (CLI exit 2)
    │   └── NoOpenRunError           --join found no open run on the shared frontier
    ├── FetchError                   one URL could not be fetched (carries url, outcome, reason)
    │   ├── RetryableFetchError      timeouts, resets, 408/429/5xx: try again later
    │   ├── PermanentFetchError      other 4xx, too large, wrong type, bad URL: give up
    │   └── RedirectQueued           a hop not followed: another host's (shared), or fetched
    ├── InvalidURLError              unparseable or unfetchable URL (carries its outcome)
    ├── ExtractError                 a page could not be parsed for main content
    │   ├── DocumentError            a document ends with an outcome (parse-error, no-text …)
    │   └── TikaServiceError         the Tika service is missing, unreachable, dead or hung
    ├── CrawlLockedError             another crawl holds the data dir
    ├── StateError                   a state file is missing, broken, foreign or newer (exit 2)
    │   └── FrontierLostError        the shared frontier's database went away mid-run
    ├── QueryError                   a search query that is not searched (empty, too long)
    ├── StorageError                 a state or output file cannot be written: disk full (exit 1)
    └── SolrError                    anything Solr-side
        ├── SolrUnavailableError     Solr unreachable or 5xx: retry, apply back-pressure
        ├── SolrRejectedError        Solr answered 4xx (carries the status)
        │   ├── SolrDocumentError    a 400 that names a document-level problem: split, isolate
        │   └── SolrSchemaError      a 400 for an unknown field: the configset is older
        ├── SolrAuthError            Solr refused our credentials (401/403)
        └── SolrLaunchError          the local launcher could not start Solr or load a core

aiohttp errors are translated in ``indexer.crawl.fetch``; urllib errors of the Tika service in
``indexer.extract.formats.tika``; requests errors and Solr answers in
``indexer.solr.connection`` (one translation, keyed on the HTTP status). Nothing outside
those modules catches a third-party exception.
"""

from __future__ import annotations

from indexer.outcomes import Outcome


class IndexerError(Exception):
    """Root of every error this package raises on purpose."""


class ConfigError(IndexerError):
    """Bad configuration or usage.

    Args:
        setting: the dotted settings key or CLI flag at fault (e.g. ``fetch.delay``).
        message: what is wrong with it.
    """

    def __init__(self, setting: str, message: str) -> None:
        super().__init__(f"{setting}: {message}")
        self.setting = setting


class NoOpenRunError(ConfigError):
    """``--join`` when the shared frontier's last run is closed: no crawl runs to join
    (names ``--join``). A child of ``indexer crawl --processes N`` that meets it ends with
    nothing to do: the others finished the run before it started."""

    def __init__(self) -> None:
        super().__init__(
            "--join", "no crawl runs on this frontier: start one with `indexer crawl SEED_URL`"
        )


class FetchError(IndexerError):
    """A URL could not be fetched.

    Args:
        url: the URL requested.
        outcome: the URL's outcome: an :class:`~indexer.outcomes.Outcome` member or
            ``http-<code>`` (``indexer.outcomes.http_outcome``).
        reason: human-readable detail.
    """

    def __init__(self, url: str, outcome: str, reason: str) -> None:
        super().__init__(f"{url}: {outcome}: {reason}")
        self.url = url
        self.outcome = outcome
        self.reason = reason


class RetryableFetchError(FetchError):
    """A fetch failure worth retrying (RFC 9110 §15.6 5xx, 408, 429, network faults).

    Args:
        retry_after: seconds the server asked us to wait (``Retry-After``), or None.
        unreachable: the host did not answer at all: the request timed out or the
            connection could not be made (counted by ``fetch.host_failure_limit``).
    """

    def __init__(
        self,
        url: str,
        outcome: str,
        reason: str,
        retry_after: float | None = None,
        *,
        unreachable: bool = False,
    ):
        super().__init__(url, outcome, reason)
        self.retry_after = retry_after
        self.unreachable = unreachable


class PermanentFetchError(FetchError):
    """A fetch failure that retrying will not fix."""


class RedirectQueued(FetchError):
    """A redirect hop left to the frontier instead of being followed
    (:mod:`indexer.crawl.hops`): on a frontier shared by several crawl processes a hop to
    another host, on any frontier a hop to a URL the frontier knows or another visit is
    fetching, and with ``crawl.index_login_pages`` a hop to a known login page.

    Args:
        target: the normalized redirect target, queued (a no-op for a URL already seen).
        note: why it was not followed, after ``redirected to TARGET;`` in the reason.
    """

    def __init__(self, url: str, target: str, note: str) -> None:
        super().__init__(url, Outcome.REDIRECTED, f"redirected to {target}; {note}")
        self.target = target
        self.note = note


class InvalidURLError(IndexerError):
    """A URL that cannot be normalized or is not fetchable (scheme, host, port, length).

    Args:
        message: what is wrong with the URL.
        outcome: the outcome it ends with: ``invalid-url``, or ``trap`` for a URL longer
            than ``crawl.max_url_length``.
    """

    def __init__(self, message: str, outcome: Outcome = Outcome.INVALID_URL) -> None:
        super().__init__(message)
        self.outcome = outcome


class ExtractError(IndexerError):
    """A page could not be parsed for its main content."""


class DocumentError(ExtractError):
    """A document (PDF, Office, text) that cannot be indexed, with the outcome it ends as.

    Attributes:
        outcome: an :class:`indexer.outcomes.Outcome` value: ``parse-error``,
            ``too-large-unpacked``, ``encrypted`` or ``no-text``.
        reason: one line for the report.
    """

    def __init__(self, outcome: str, reason: str) -> None:
        super().__init__(f"{outcome}: {reason}")
        self.outcome = outcome
        self.reason = reason[:300]

    def __reduce__(self) -> tuple[type[DocumentError], tuple[str, str]]:
        return (DocumentError, (self.outcome, self.reason))


class TikaServiceError(ExtractError):
    """The Tika service could not parse a document for a reason not the document's own.

    Attributes:
        kind: ``missing`` (no java or no built service: the formats end
            ``unsupported-format``), ``timeout`` (over ``extract.document_timeout``: the
            service is replaced, the document ends ``parse-timeout``) or ``gone`` (the
            service died or refused the connection: a JVM of the crawl's own is replaced
            and the document asked once more, ending ``parse-error`` at a second death; an
            ``extract.tika_url`` service's documents end ``unsupported-format``, see
            :mod:`indexer.pipeline.tikadocs`).
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class CrawlLockedError(IndexerError):
    """Another crawl holds the lock on the data directory."""


class QueryError(IndexerError):
    """A search request that is not searched: the query empty, too long or too complex, or
    another parameter out of its bounds; the message is meant for the user, never an error
    page.

    Args:
        message: what is wrong.
        param: the request parameter at fault (``q``, ``page``, ``rows``…).
    """

    def __init__(self, message: str, param: str = "q") -> None:
        super().__init__(message)
        self.param = param


class StateError(IndexerError):
    """A crawl-state file cannot be used: missing where state must exist, without its schema,
    with a foreign or newer ``PRAGMA user_version``, or malformed.

    The message is one line that names the file and what to do; the CLI exits 2.

    Args:
        path: the state file at fault.
        message: what is wrong and the way out (e.g. ``indexer reindex --repair``).
    """

    def __init__(self, path: object, message: str) -> None:
        super().__init__(f"{path}: {one_line(message)}")
        self.path = path


class FrontierLostError(StateError):
    """The shared frontier's PostgreSQL (``frontier.url``) went away while in use: the
    connection was closed or reset (the server stopped, restarted or was killed), or a
    statement went unanswered for ``frontier.stall_seconds``.

    The crawl stops as a signal would (pages in flight queued again, the outbox kept) and
    exits 2 with this one line after its summary; ``--resume`` continues once the database
    is back. Every later call on the lost connection raises it again at once.

    Args:
        url: ``frontier.url`` without its password.
        detail: what the driver said (one line).
        remedy: what to run once the database is back (the crawl's: ``--resume``).
    """

    def __init__(
        self, url: str, detail: str, remedy: str = "run the same command with --resume"
    ) -> None:
        self.url, self.detail = url, detail
        super().__init__(
            f"frontier.url {url}", f"PostgreSQL went away ({detail[:160]}): start it, then {remedy}"
        )

    def with_remedy(self, remedy: str) -> FrontierLostError:
        """The same loss, with what the command that met it runs again (``reindex``: the
        same command, which has no ``--resume``)."""
        return FrontierLostError(self.url, self.detail, remedy)


class StorageError(IndexerError):
    """A file we write (state file, ``--out``) cannot be written: disk full, I/O error.

    The message is one line naming the file and the OS or SQLite error; the CLI exits 1.
    What was written before stays consistent, so ``--resume`` continues once the cause
    (e.g. a full disk) is gone.

    Args:
        path: the file that could not be written.
        message: the error and the way out.
    """

    def __init__(self, path: object, message: str) -> None:
        super().__init__(f"{path}: {one_line(message)}")
        self.path = path


def one_line(message: str) -> str:
    """``message`` with its line breaks and runs of white space made single spaces (SQLite's
    malformed-database messages span lines)."""
    return " ".join(message.split())


class SolrError(IndexerError):
    """Anything that went wrong talking to Solr."""


class SolrUnavailableError(SolrError):
    """Solr did not answer or answered 5xx; the request may be retried."""


class SolrRejectedError(SolrError):
    """Solr answered 4xx to an update: the documents (or request) are bad.

    Args:
        status: HTTP status code from Solr.
    """

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class SolrDocumentError(SolrRejectedError):
    """Solr answered 400 with its own error naming a problem of the documents sent (a value
    that does not parse, an immense term, a missing id): splitting the batch isolates it."""


class SolrSchemaError(SolrRejectedError):
    """Solr answered 400 because a field is unknown to the core's schema: the configset is
    older than the code. No document is at fault; ``indexer solr update-config`` fixes it."""


class SolrAuthError(SolrError):
    """Solr answered 401 or 403: the credentials (``solr.user``/``solr.password``) are wrong."""


class SolrLaunchError(SolrError):
    """The local Solr launcher could not start Solr or a core failed to load."""
