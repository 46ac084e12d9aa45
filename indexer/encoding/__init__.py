"""Decoding stage: bytes (+ Content-Type) → text, choosing the encoding as browsers do.

Public API: :func:`decode_body` (the whole chain, see :mod:`indexer.encoding.chain`),
:func:`decode_as` (a known encoding, browser-style) and :func:`lookup_label` (WHATWG
label table).
"""

from indexer.encoding.chain import decode_body
from indexer.encoding.decoders import decode_as
from indexer.encoding.labels import lookup_label

__all__ = ["decode_as", "decode_body", "lookup_label"]
