"""Guards for zip packages (OOXML, ECMA-376 Part 2) before any parser reads them.

The central directory lists each entry's uncompressed size; their sum is checked against
``extract.max_unpacked_bytes`` before one byte is inflated. Python's zipfile stops inflating
an entry at its listed size (a larger stream fails its CRC), so a lying directory cannot
unpack past the sum either. An encrypted OOXML file is not a zip but an OLE2 compound file
holding an ``EncryptedPackage`` stream (MS-OFFCRYPTO §2.3.4).
"""

from __future__ import annotations

import io
import zipfile

from indexer.errors import DocumentError

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_MAX_ENTRIES = 100_000


def check_package(body: bytes, max_unpacked: int) -> None:
    """Check that ``body`` is a zip package that unpacks to at most ``max_unpacked`` bytes.

    Raises:
        DocumentError: ``encrypted`` (a password-protected Office file),
            ``too-large-unpacked`` (entries' sizes sum past ``max_unpacked``, or more than
            100,000 entries), ``parse-error`` (not a readable zip).
    """
    if body.startswith(_OLE_MAGIC):
        if "EncryptedPackage".encode("utf-16le") in body:
            raise DocumentError("encrypted", "password-protected Office file")
        raise DocumentError("parse-error", "an OLE2 file, not an Office Open XML package")
    try:
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError) as exc:
        raise DocumentError("parse-error", f"not a readable zip package: {exc}") from None
    if len(entries) > _MAX_ENTRIES:
        raise DocumentError("too-large-unpacked", f"{len(entries)} entries in the package")
    total = sum(entry.file_size for entry in entries)
    if total > max_unpacked:
        biggest = max(entries, key=lambda e: e.file_size)
        raise DocumentError(
            "too-large-unpacked",
            f"unpacks to {total} bytes > extract.max_unpacked_bytes={max_unpacked} "
            f"({biggest.filename}: {biggest.file_size} bytes from {biggest.compress_size})",
        )
    if any(entry.flag_bits & 0x1 for entry in entries):
        raise DocumentError("encrypted", "zip entries encrypted with a password")
