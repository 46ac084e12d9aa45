"""Only characters XML 1.0 allows leave us: the ``Char`` production, applied to what we write.

XML 1.0 (Fifth Edition) §2.2: ``Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD]
| [#x10000-#x10FFFF]``. Solr answers in XML to many clients (``wt=xml``, the admin UI,
XSLT response writers) and a stored U+0001 makes every such answer unreadable; old pages
hold C0 controls (U+0001, U+0007, U+0014 from word processors), lone surrogates and
U+FFFE/U+FFFF. Everything outside ``Char`` is removed from Solr fields, ``--out`` lines and
report lines; tab, newline and carriage return are kept. Callers count what was removed.
"""

from __future__ import annotations

import re
from typing import Any

_NOT_CHAR = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def clean_text(value: str) -> tuple[str, int]:
    """``value`` without characters outside XML 1.0 ``Char``, and how many were removed."""
    cleaned, removed = _NOT_CHAR.subn("", value)
    return cleaned, removed


def clean_value(value: Any) -> tuple[Any, int]:
    """A JSON-ready value (str, list, dict, number) cleaned in every string it holds.

    Returns the cleaned value (a new list or dict when anything inside changed) and the
    number of characters removed; dict keys are cleaned too.
    """
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        items = [clean_value(v) for v in value]
        return [v for v, _ in items], sum(n for _, n in items)
    if isinstance(value, dict):
        total = 0
        result: dict[Any, Any] = {}
        for key, item in value.items():
            new_key, n_key = clean_value(key)
            new_item, n_item = clean_value(item)
            result[new_key] = new_item
            total += n_key + n_item
        return result, total
    return value, 0
