"""Redirect hops of one fetch: refused, followed here, or left to the frontier.

:meth:`indexer.crawl.fetch.Fetcher.fetch` follows redirects itself and hands every target
to :meth:`RedirectHops.check` before requesting it. In order:

1. a login page ends the URL ``login-required`` (before the scope: SSO lives on another
   host; :mod:`indexer.crawl.login`); with ``crawl.index_login_pages`` a known login page
   is queued, not followed, so that it is fetched once, by its own visit;
2. a target outside the crawl's scope ends it ``out-of-scope``;
3. a target the frontier knows already (queued, claimed or ended, in this run or an
   earlier one, or deleted with ``indexer delete``) or that another visit of this process
   is fetching is not requested here:
   :class:`RedirectQueued` ends the URL ``redirected`` and the target is left to its own
   visit, with its own validators (no page is fetched twice in a run; a recrawl asks the
   target itself with a conditional GET). A target new to the frontier is followed inline,
   and the visit records what it requested (``pipeline/redirects.py``);
4. on a frontier shared by several crawl processes (``Frontier.shared``), a target on
   another host than the URL's own is not requested here: :class:`RedirectQueued` ends the
   URL ``redirected`` and the target is queued, so that the target host's lease holder
   fetches it at that host's pace (issue #20: "another process never shortens a host's
   gap"; the choice is argued in ARCHITECTURE.md, politeness). Hops within the URL's own
   host, whose lease this visit's claim holds, are followed as on one process;
5. the target's robots.txt (RFC 9309): read at the target host's politeness turn when not
   yet cached, its Crawl-delay applied to that host before the hop's own request; an
   unavailable one makes the URL retry later, a disallowing one ends it
   ``robots-disallowed``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from indexer.crawl.login import LoginRules
from indexer.crawl.politeness import Politeness
from indexer.crawl.robots import RobotsCache
from indexer.crawl.scope import Scope
from indexer.crawl.urls import host_of
from indexer.errors import PermanentFetchError, RedirectQueued, RetryableFetchError
from indexer.outcomes import Outcome

#: The note after ``redirected to URL`` of a hop left to the target host's lease holder.
QUEUED_NOTE = "queued for its host's lease holder"
#: The note after ``redirected to URL`` of a hop to a URL the frontier knows.
KNOWN_NOTE = "left to its own visit"
#: The note of a hop to a login page that ``crawl.index_login_pages`` indexes.
LOGIN_NOTE = "the login page is fetched and indexed by its own visit"


def queued_outcome(login: LoginRules, hop: RedirectQueued) -> tuple[Outcome, str]:
    """``(outcome, reason)`` of a URL whose hop was left to the frontier
    (:class:`RedirectQueued`): ``redirected``, or ``login-required`` for a login URL or
    one learnt as a login redirect's target (as a followed hop is judged,
    :meth:`LoginRules.judge`; a login page known only by its password form is seen by the
    target's own visit, ``login-page``)."""
    if login.is_known_login(hop.target):
        login.learn(hop.target)
        return Outcome.LOGIN_REQUIRED, f"redirects to the login page {hop.target}; {hop.note}"
    return Outcome.REDIRECTED, hop.reason


def holder_may_fetch(url: str, held: str, shared: bool) -> bool:
    """Whether the process crawling ``held`` (a URL of a host whose lease it holds) may
    request ``url``: always with one process; on a frontier shared by several only on the
    same host, since every request to a host comes from that host's lease holder (its gap is
    kept in the lease row, ARCHITECTURE.md)."""
    return not shared or host_of(url) == host_of(held)


async def ask_robots(
    robots: RobotsCache, politeness: Politeness, url: str
) -> tuple[bool, str, float | None]:
    """robots.txt's answer for ``url`` (RFC 9309), read at its host's politeness turn when
    not cached (robots.txt is a request to the host too); its Crawl-delay is applied to the
    host before the URL's own request.

    Returns:
        ``(allowed, reason, retry_at)``: ``retry_at`` (epoch s) when robots.txt is
        unavailable (RFC 9309 §2.3.1.4: the host's server errors, try later), else None.
    """
    host = host_of(url)
    if not robots.is_cached(url):
        await politeness.turn(host)
    allowed, reason = await robots.allowed(url)
    politeness.set_crawl_delay(host, await robots.crawl_delay(url))
    return allowed, reason, robots.unavailable_until(url)


@dataclass(frozen=True, slots=True)
class RedirectHops:
    """The hop rules of one crawl (see the module docstring).

    Attributes:
        login: the login-wall rules; scope: the crawl's scope.
        robots: the robots.txt cache; politeness: the per-host slots of this process.
        shared: the frontier is shared by several crawl processes (hops to other hosts are
            queued, not followed).
        known: whether the frontier knows a URL (``Frontier.known``) or a visit of this
            process is fetching it (:class:`~indexer.pipeline.inflight.VisitsInFlight`).
    """

    login: LoginRules
    scope: Scope
    robots: RobotsCache
    politeness: Politeness
    shared: bool
    known: Callable[[str], bool]

    async def check(self, first: str, target: str) -> None:
        """Check the hop of ``first``'s fetch to ``target`` (both normalized URLs).

        Raises:
            PermanentFetchError: ``login-required``, ``out-of-scope``, ``robots-disallowed``.
            RetryableFetchError: ``robots-unavailable`` (the target's host is down).
            RedirectQueued: ``target`` known to the frontier, or a shared frontier and
                ``target`` on another host.
        """
        if self.login.stops_redirect(target):  # before scope: SSO lives on another host
            raise PermanentFetchError(first, Outcome.LOGIN_REQUIRED, f"redirect to login {target}")
        if self.login.index_login_pages and self.login.is_known_login(target):
            raise RedirectQueued(first, target, LOGIN_NOTE)  # indexed once, by its own visit
        if not self.scope.allows(target):
            raise PermanentFetchError(first, Outcome.OUT_OF_SCOPE, f"redirect to {target}")
        if target != first and self.known(target):
            raise RedirectQueued(first, target, KNOWN_NOTE)
        if not holder_may_fetch(target, first, self.shared):
            raise RedirectQueued(first, target, QUEUED_NOTE)
        allowed, reason, retry_at = await ask_robots(self.robots, self.politeness, target)
        if retry_at is not None:  # its host is down: try later
            raise RetryableFetchError(
                first, Outcome.ROBOTS_UNAVAILABLE, f"redirect to {target}: {reason}"
            )
        if not allowed:
            raise PermanentFetchError(
                first, Outcome.ROBOTS_DISALLOWED, f"redirect to {target}: {reason}"
            )
