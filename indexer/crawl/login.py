"""Login walls: a protected URL that redirects to a login form is not that form's content.

Intranet servers answer a page the crawler may not read with a redirect to a login page
(often ``200`` with a password form, sometimes on another host: an SSO server). Indexing
the form under the protected URL fills the index with pages titled ログイン / "Sign in"
(Fess#765, Norconex#452). The rules:

* a redirect whose target matches ``crawl.login_patterns``, or whose final page holds a
  password field (``<input type="password">``, HTML Living Standard §4.10.5.1.6), ends
  the original URL as ``login-required`` (effect: delete after grace);
* the login page itself is indexed at most once (the frontier keeps one row per URL), and
  not at all when ``crawl.index_login_pages`` is false (the default): a URL known as a
  redirect's login target, or matching the patterns and holding a password field, ends as
  ``login-page``. A content page with a login box in its sidebar is neither.
"""

from __future__ import annotations

import re

from indexer.errors import ConfigError
from indexer.settings import CrawlSettings

_PASSWORD_FIELD = re.compile(
    rb"<input\b[^>]*?\btype\s*=\s*[\"']?password[\"'\s/>]", re.IGNORECASE | re.DOTALL
)
#: Bytes of a body searched for a password field (login forms are small pages).
_SCAN_BYTES = 512 * 1024
#: Login targets remembered per run (a site has few login pages; the cap bounds memory).
_MAX_LEARNED = 10_000


def has_password_form(body: bytes) -> bool:
    """Whether an HTML body (any ASCII-compatible encoding) holds a password input field."""
    return _PASSWORD_FIELD.search(body[:_SCAN_BYTES]) is not None


class LoginRules:
    """Recognises login pages and redirects to them during one crawl.

    Args:
        crawl: ``crawl.login_patterns`` (regexes, searched case-insensitively in the
            normalized URL) and ``crawl.index_login_pages``.

    Raises:
        ConfigError: an invalid regex in ``crawl.login_patterns``.
    """

    def __init__(self, crawl: CrawlSettings) -> None:
        try:
            self._patterns = [re.compile(p, re.IGNORECASE) for p in crawl.login_patterns]
        except re.error as exc:
            raise ConfigError(
                "crawl.login_patterns", f"invalid regular expression: {exc}"
            ) from None
        self.index_login_pages = crawl.index_login_pages
        self._learned: set[str] = set()

    def is_login_url(self, url: str) -> bool:
        """Whether ``url`` matches ``crawl.login_patterns``."""
        return any(p.search(url) for p in self._patterns)

    def is_known_login(self, url: str) -> bool:
        """Whether ``url`` matches ``crawl.login_patterns`` or was learnt as the target of
        a login redirect (:meth:`learn`)."""
        return url in self._learned or self.is_login_url(url)

    def learn(self, url: str) -> None:
        """Remember ``url`` as the target of a login redirect."""
        if len(self._learned) < _MAX_LEARNED:
            self._learned.add(url)

    def stops_redirect(self, target: str) -> bool:
        """Whether a redirect hop to ``target`` ends the visit at once (a login URL, and
        the login page is not indexed, so there is no need to fetch it)."""
        if self.index_login_pages or not self.is_login_url(target):
            return False
        self.learn(target)
        return True

    def judge(self, url: str, final_url: str, body: bytes) -> tuple[str, str] | None:
        """``(outcome, reason)`` when the answer to ``url`` is a login wall, else None.

        Args:
            url: the URL that was asked for.
            final_url: the URL answered after redirects.
            body: the final response body.
        """
        if final_url != url:
            if self.is_login_url(final_url) or has_password_form(body):
                self.learn(final_url)
                return "login-required", f"redirects to the login page {final_url}"
            return None
        if self.index_login_pages:
            return None
        if url in self._learned or (self.is_login_url(url) and has_password_form(body)):
            return "login-page", "a login form (crawl.index_login_pages is false)"
        return None
