"""Version stamps written on every Solr document (fields ``schema_version`` and
``extractor_version``).

A document only changes in the index when it is sent again, so analysis or field changes
(the configset) and decoding or extraction changes reach old documents only through a
refresh: ``indexer reindex --refresh`` re-sends every document stamped older than these
numbers, and ``indexer solr update-config`` says when that is needed.

Bump :data:`SCHEMA_VERSION` when ``solr-config/`` changes what an indexed document holds
(index-time analysis, new or changed fields; query-time files such as ``synonyms_ja.txt``
need no bump). Bump :data:`EXTRACTOR_VERSION` when decoding or extraction changes the text,
title or metadata sent for a page.
"""

from __future__ import annotations

# 2: content_bigram folds ・/=/ー, drops unigrams, is stored for highlighting; katakana
#    spelling variants mapped (ヴ, ウィ).
# 3: content_bigram folds ファ/フィ/フェ/フォ to ハ/ヒ/ヘ/ホ and an e-/o-row long vowel to イ/ウ.
# 4: title_full (the whole <title>) stored and searched.
# 5: nosnippet (robots meta tag or X-Robots-Tag nosnippet, max-snippet:0) stored.
SCHEMA_VERSION = 5
# 2: extraction profiles (search keeps the content region's lists, tables, link-list
#    pages); titles lose a site-name part only by og:site_name or the host's template.
# 3: data tables: a data row's cells count as its sentences (a page of one table keeps
#    it); template blocks whose numbers are data (spec lines, cells) stay, header rows too;
#    teaser cards of related articles go.
# 4: template learning keeps a page's own numbered heading, a data table's rows together
#    and a portal's links to the host's pages.
EXTRACTOR_VERSION = 4


def stamps() -> dict[str, int]:
    """The stamp fields of a document built by the running code."""
    return {"schema_version": SCHEMA_VERSION, "extractor_version": EXTRACTOR_VERSION}


def stale_query() -> str:
    """Lucene query for documents stamped older than the running code, or not stamped."""
    return (
        f"*:* -(schema_version:[{SCHEMA_VERSION} TO *]"
        f" AND extractor_version:[{EXTRACTOR_VERSION} TO *])"
    )
