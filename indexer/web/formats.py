"""Format ids (``html``, ``pdf``, ``docx``…, :mod:`indexer.formats`) and the MIME types they
stand for: the ``type=`` filter and facet fall back to ``content_type`` through this table
when the index has no ``format`` field yet."""

from __future__ import annotations

from indexer.formats import MEDIA_TYPE_ALIASES, MEDIA_TYPES

#: Every format id with the MIME types it stands for (the first is what the bytes are).
FORMAT_MEDIA_TYPES: dict[str, tuple[str, ...]] = {
    fid: (media, *MEDIA_TYPE_ALIASES.get(fid, ())) for fid, media in MEDIA_TYPES.items()
}
_BY_MEDIA_TYPE = {media: fid for fid, types in FORMAT_MEDIA_TYPES.items() for media in types}


def format_of(content_type: str | None) -> str | None:
    """The format id of a MIME type (parameters ignored), or None when it has none."""
    if not content_type:
        return None
    return _BY_MEDIA_TYPE.get(content_type.split(";", 1)[0].strip().lower())


def media_types(format_id: str) -> tuple[str, ...]:
    """The MIME types of a format id; an unknown id stands for itself (a raw MIME type from
    a ``content_type`` facet that no format id covers)."""
    return FORMAT_MEDIA_TYPES.get(format_id, (format_id,))
