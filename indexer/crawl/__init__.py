"""The crawl side: URLs and scope, the frontier, politeness, robots.txt, sitemaps and fetching."""
