"""Format ids: the names ``crawl.formats`` and the ``format`` Solr field use.

A table without imports, so that :mod:`indexer.settings` can validate ``crawl.formats``;
the parsers are in :mod:`indexer.extract.formats`.
"""

from __future__ import annotations

#: Formats with a parser in this build (``html`` through :mod:`indexer.extract`).
PARSED = ("html", "pdf", "docx", "xlsx", "pptx", "text", "csv")
#: Formats recognised but not parsed yet (97–2003 binaries, RTF, OpenDocument): they end
#: as ``unsupported-format`` (effect keep, so an index built elsewhere is not deleted).
UNSUPPORTED = ("doc", "xls", "ppt", "rtf", "odt", "ods", "odp")
#: Every valid format id, the default of ``crawl.formats``.
ALL = PARSED + UNSUPPORTED

#: The MIME type of what the bytes are, per format id (the ``content_type`` field).
MEDIA_TYPES = {
    "html": "text/html",
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "text": "text/plain",
    "csv": "text/csv",
    "doc": "application/msword",
    "xls": "application/vnd.ms-excel",
    "ppt": "application/vnd.ms-powerpoint",
    "rtf": "application/rtf",
    "odt": "application/vnd.oasis.opendocument.text",
    "ods": "application/vnd.oasis.opendocument.spreadsheet",
    "odp": "application/vnd.oasis.opendocument.presentation",
}

#: Other MIME types that servers and older documents declare for the same formats.
MEDIA_TYPE_ALIASES = {
    "html": ("application/xhtml+xml",),
    "rtf": ("text/rtf",),
    "pdf": ("application/x-pdf",),
    "csv": ("application/csv", "text/comma-separated-values"),
}

#: The format id each MIME type (a format's own or an alias) stands for.
BY_MEDIA_TYPE = {
    media: fmt
    for fmt, own in MEDIA_TYPES.items()
    for media in (own, *MEDIA_TYPE_ALIASES.get(fmt, ()))
}
