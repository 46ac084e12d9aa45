"""Scrapy fetch-only over the loopback site (a child of ``scripts/bench/throughput.py``).

Follows every ``<a href>`` of the site's hosts and keeps nothing; settings pinned as issue
#16 says (``CONCURRENT_REQUESTS=64``, ``CONCURRENT_REQUESTS_PER_DOMAIN=1``,
``DOWNLOAD_DELAY=0``, ``ROBOTSTXT_OBEY=True``, ``AUTOTHROTTLE_ENABLED=False``,
``LOG_LEVEL=INFO``); cookies and the telnet console are off (the cookie middleware would
ask the network for the public-suffix list: loopback only). Prints ``{"pages": N}``.
Usage: python scripts/bench/throughput_scrapy.py PORT HOSTS
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

import scrapy
from scrapy.crawler import CrawlerProcess

SETTINGS = {
    "CONCURRENT_REQUESTS": 64,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
    "DOWNLOAD_DELAY": 0,
    "ROBOTSTXT_OBEY": True,
    "AUTOTHROTTLE_ENABLED": False,
    "LOG_LEVEL": "INFO",
    "COOKIES_ENABLED": False,
    "TELNETCONSOLE_ENABLED": False,
}


class SiteSpider(scrapy.Spider):  # type: ignore[misc]
    """Fetch and follow, nothing else."""

    name = "site"
    pages = 0

    def __init__(self, port: int, hosts: int, **kw: Any) -> None:
        super().__init__(**kw)
        self.allowed_domains = [f"127.0.0.{h + 1}" for h in range(hosts)]
        self.start_urls = [f"http://127.0.0.{h + 1}:{port}/" for h in range(hosts)]

    def parse(self, response: Any) -> Iterator[Any]:
        SiteSpider.pages += 1
        yield from response.follow_all(css="a")


def main() -> None:
    port, hosts = int(sys.argv[1]), int(sys.argv[2])
    process = CrawlerProcess(settings=SETTINGS)
    process.crawl(SiteSpider, port=port, hosts=hosts)
    process.start()
    print(json.dumps({"pages": SiteSpider.pages}), flush=True)


if __name__ == "__main__":
    main()
