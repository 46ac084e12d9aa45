"""The index policy for one fetched page: a pure function from what is known to a verdict.

:func:`judge` decides, in this order (the first that applies wins):

1. no extraction: the outcome the format path gave (``wrong-type``, ``unsupported-format``,
   ``parse-error``, ``encrypted``, …), else ``wrong-type`` for a binary body, else
   ``extract-error``;
1a. a page parsed for its links only (``links-only``: ``html`` not in ``crawl.formats``):
   its links are followed (unless ``nofollow``), nothing is sent;
2. ``noindex`` in the robots meta tag or the ``X-Robots-Tag`` header (when
   ``crawl.obey_noindex``): not indexed, an indexed copy is deleted now;
3. a ``rel=canonical`` naming another in-scope URL: that URL is queued instead
   (``canonical-elsewhere``);
4. no main text (a frameset or an empty page): ``no-content``, an indexed copy is deleted;
4a. the same main content as a large share of the host's pages in this run (a maintenance
   page, :mod:`indexer.pipeline.sitewide`): ``sitewide-duplicate``, nothing replaced (its
   links are followed: a page wrongly judged so loses no link, and a trap stays a trap);
5. the main-content hash equals the stored one and the document is in the index (reindex
   only): ``unchanged``, nothing is sent;
6. the same main content as another URL of the host reached in this run: ``duplicate``;
7. a redirect to a URL already reached in this run: ``duplicate``;
8. otherwise ``indexed`` (its reason notes a redirect, a truncated document and an encoding
   guessed on thin evidence).

``nofollow`` (meta or header) stops the page's outlinks from being queued, whatever the
verdict. The caller gathers the facts (:class:`Facts`, which needs the frontier) and carries
out the verdict (:class:`Verdict`); nothing here does I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from indexer.extract.metadata import robots_directives
from indexer.outcomes import Outcome
from indexer.pipeline.page import ProcessedPage

SITEWIDE_REASON = "same main content as crawl.sitewide_duplicate_share of the host's pages"


@dataclass(frozen=True, slots=True)
class ReindexPolicy:
    """How a reindex job's crawl differs from a first crawl.

    Attributes:
        present: document ids known to be in the index, or None (unknown: assume all are).
            A page not in it is fetched without validators and sent even when unchanged,
            so a document lost from the index comes back.
        skip_unchanged: a page whose main-content hash equals the stored one is not sent
            again (outcome ``unchanged``).
        defer_deletes: deletes are collected (``DocumentSink.deferred_deletes``) instead
            of being sent, so that the reconcile guard can review them.
    """

    present: frozenset[str] | None = None
    skip_unchanged: bool = True
    defer_deletes: bool = True

    def in_index(self, url: str) -> bool:
        """Whether the document of ``url`` is (assumed) in the index."""
        return self.present is None or url in self.present


@dataclass(frozen=True, slots=True)
class Facts:
    """What is known about one fetched page when it is judged.

    Attributes:
        url: the URL claimed from the frontier.
        final_url: the URL after redirects (the document id).
        x_robots_tag: the ``X-Robots-Tag`` response header, or ``""``.
        page: the decoded and extracted page.
        stored_hash: the main-content hash an earlier run stored, or None (never indexed).
        in_index: whether the page's document is (assumed) in the index.
        canonical: the page's ``rel=canonical`` URL, normalized, when it is in scope;
            else None.
        digest: the page's main-content hash, or None when it has no main text.
        twin: another URL of the host with the same main content, reached in this run.
        final_reached: ``final_url`` was already reached in this run.
        sitewide: the page's hash is a site-wide duplicate of its host in this run.
    """

    url: str
    final_url: str
    x_robots_tag: str
    page: ProcessedPage
    stored_hash: str | None = None
    in_index: bool = True
    canonical: str | None = None
    digest: str | None = None
    twin: str | None = None
    final_reached: bool = False
    sitewide: bool = False


@dataclass(frozen=True, slots=True)
class Verdict:
    """What to do with a judged page.

    Attributes:
        outcome: the URL's outcome.
        reason: the reason stored with it.
        follow: queue the page's outlinks.
        queue: a URL to queue at the page's depth instead (its canonical), or None.
        delete: delete the document indexed under ``final_url`` (it was indexed before).
        reached: the page counts as reached (current) in this run.
        alias: the redirect taught the site's preferred origin (``SiteAliases.learn``).
        index: build the document and send it.
    """

    outcome: Outcome
    reason: str
    follow: bool = False
    queue: str | None = None
    delete: bool = False
    reached: bool = False
    alias: bool = False
    index: bool = False


def _unextracted(facts: Facts) -> Verdict:
    """The verdict on a page that gave no document: its own outcome, else binary or error."""
    if facts.page.outcome:  # the format decision's or a document parser's
        return Verdict(Outcome(facts.page.outcome), facts.page.error)
    binary = facts.page.decoded.encoding == "binary"
    return Verdict(Outcome.WRONG_TYPE if binary else Outcome.EXTRACT_ERROR, facts.page.error)


def judge(facts: Facts, *, obey_noindex: bool = True, skip_unchanged: bool = False) -> Verdict:
    """The verdict on one page (see the module docstring for the order of the rules).

    Args:
        facts: what is known about the page.
        obey_noindex: ``crawl.obey_noindex``.
        skip_unchanged: :attr:`ReindexPolicy.skip_unchanged` (False outside reindex).
    """
    doc, final = facts.page.extracted, facts.final_url
    if doc is None:
        return _unextracted(facts)
    directives = doc.robots | robots_directives(facts.x_robots_tag)
    follow = "nofollow" not in directives
    if facts.page.outcome:  # links-only: a page of a format not indexed, read for links
        return Verdict(Outcome(facts.page.outcome), facts.page.error, follow)
    indexed_before = facts.stored_hash is not None
    if obey_noindex and "noindex" in directives:
        reason = "meta robots or X-Robots-Tag noindex"
        return Verdict(Outcome.NOINDEX, reason, follow, delete=indexed_before)
    if facts.canonical is not None and facts.canonical != final:
        reason = f"canonical is {facts.canonical}"
        return Verdict(Outcome.CANONICAL_ELSEWHERE, reason, follow, queue=facts.canonical)
    if facts.digest is None or not doc.text.strip():  # its links were followed
        reason = "no main text (a frameset or an empty page)"
        return Verdict(Outcome.NO_CONTENT, reason, follow, delete=indexed_before)
    if facts.sitewide:
        return Verdict(Outcome.SITEWIDE_DUPLICATE, SITEWIDE_REASON, follow)
    redirected = final != facts.url
    if skip_unchanged and facts.digest == facts.stored_hash and not redirected and facts.in_index:
        return Verdict(Outcome.UNCHANGED, "main content hash unchanged", follow, reached=True)
    if facts.twin is not None:  # e.g. / and /index.html: one document, not two
        return Verdict(Outcome.DUPLICATE, f"same main content as {facts.twin}", follow)
    if redirected and facts.final_reached:
        reason = f"redirects to {final}, already indexed in this run"
        return Verdict(Outcome.DUPLICATE, reason, follow, alias=True)
    notes = (f"redirected to {final}" if redirected else "", doc.note, _guessed(facts.page))
    reason = "; ".join(note for note in notes if note)
    # a redirect's source is not reached: its target is the document (indexed when sent)
    outcome = Outcome.REDIRECTED if redirected else Outcome.INDEXED
    return Verdict(outcome, reason, follow, reached=not redirected, alias=redirected, index=True)


def _guessed(page: ProcessedPage) -> str:
    """The indexed reason's note for an encoding detected on thin evidence."""
    return f"encoding guessed: {page.decoded.encoding}" if page.decoded.source == "guess" else ""
