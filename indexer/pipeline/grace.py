"""When an indexed document may be deleted: at once, after grace runs, or not at all.

The rules read the outcome table (:mod:`indexer.outcomes`):

* ``delete-now`` outcomes (``noindex``, ``no-content``, ``http-410``, ``restricted``) delete
  in the run that sees them, except a 410 when ``reindex.delete_410_at_once`` is false and
  ``restricted`` (401/403) when ``reindex.keep_restricted`` is true (then it keeps, as a
  5xx does);
* ``delete-after-grace`` outcomes (``http-404``, ``login-required``, ``robots-disallowed``,
  …) count one missed run; the document goes once ``reindex.delete_grace_runs`` runs in a
  row end so (a broken deploy answering 404 for a night deletes nothing);
* ``keep`` outcomes (network failures, 5xx, ``sitewide-duplicate``, ``max-pages``) and URLs
  not fetched at all in the run neither count nor reset: a document is deleted only when
  answers confirmed it gone.
"""

from __future__ import annotations

from indexer.outcomes import Effect, Outcome, info, is_known
from indexer.settings import ReindexSettings

_DELETING = frozenset({Effect.DELETE_AFTER_GRACE, Effect.DELETE_NOW})


def deletes_at_once(outcome: str, reindex: ReindexSettings) -> bool:
    """Whether ``outcome`` deletes an indexed document in the run that sees it.

    Args:
        outcome: a stored outcome (``"http-410"``, ``"noindex"``).
        reindex: for ``delete_410_at_once`` and ``keep_restricted``.
    """
    if not is_known(outcome):
        return False
    if outcome == "http-410" and not reindex.delete_410_at_once:
        return False
    if outcome == Outcome.RESTRICTED and reindex.keep_restricted:
        return False
    return info(outcome).effect is Effect.DELETE_NOW


def leaves_search_now(outcome: str, reindex: ReindexSettings) -> bool:
    """Whether ``outcome`` takes its document out of search at once, also in a reindex
    whose other deletes wait for the guard's review: ``restricted`` (an owner hiding a page
    is not a broken deploy to be counted), unless ``reindex.keep_restricted``."""
    return outcome == Outcome.RESTRICTED and deletes_at_once(outcome, reindex)


def counts_as_missed(outcome: str | None, reindex: ReindexSettings) -> bool:
    """Whether a URL that ended the run with ``outcome`` (None: not fetched in this run)
    counts one missed run towards ``reindex.delete_grace_runs`` (``restricted`` kept by
    ``reindex.keep_restricted`` does not)."""
    if outcome is None or not is_known(outcome):
        return False
    if outcome == Outcome.RESTRICTED and reindex.keep_restricted:
        return False
    return info(outcome).effect in _DELETING
