"""The composition root: the crawler, its dispatch and visits, the page verdict, reindex."""
