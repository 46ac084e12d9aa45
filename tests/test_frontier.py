"""The persistent frontier: lock, claiming order, retries, resume and new runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.errors import CrawlLockedError
from tests.pg_fixtures import OpenFrontier


def test_second_crawl_on_same_dir_is_refused(tmp_path: Path, open_frontier: OpenFrontier) -> None:
    with open_frontier(tmp_path), pytest.raises(CrawlLockedError, match="another crawl"):
        open_frontier(tmp_path)
    open_frontier(tmp_path).close()  # released after close


def test_claim_order_retry_and_resume(tmp_path: Path, open_frontier: OpenFrontier) -> None:
    with open_frontier(tmp_path) as f:
        f.start_run(resume=False)
        assert f.add([("http://a/2", "a", 2), ("http://a/0", "a", 0), ("http://a/1", "a", 1)])
        assert f.add([("http://a/0", "a", 0)]) == 0  # already queued in this run
        first = f.claim("a", now=1e12)
        assert first is not None and first.url == "http://a/0"
        f.retry_later(first.url, at=2e12, reason="503")
        second = f.claim("a", now=1e12)
        assert second is not None and second.url == "http://a/1"
        assert f.next_due("a") == 0  # http://a/2 is due now
        # simulate kill -9: http://a/1 stays "fetching"
    with open_frontier(tmp_path) as f:
        run = f.start_run(resume=True)
        assert run == 1
        urls = set()
        while (c := f.claim("a", now=3e12)) is not None:
            urls.add(c.url)
            f.finish(c.url, "indexed", reached=True, etag='"e1"', content_hash="h")
        assert urls == {"http://a/0", "http://a/1", "http://a/2"}
        f.finish_run()
    with open_frontier(tmp_path) as f:
        assert f.start_run(resume=True) == 2  # the last run finished: a new one starts
        again = f.claim("a", now=3e12)
        assert again is not None and again.etag == '"e1"' and again.content_hash == "h"
