"""Unicode character classes that the Japanese plausibility checks count (compiled
patterns over one character): full-width kana, full-width forms and CJK punctuation,
kanji, half-width katakana and punctuation (U+FF61–FF9F), and non-ASCII."""

from __future__ import annotations

import re
import unicodedata

#: Hiragana and katakana (full width), with the iteration marks and the long-vowel mark.
KANA = re.compile("[\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fc-\u30fe]")
#: CJK punctuation and the full-width forms of ASCII and of ¢ £ ¬ ¯ ¦ ¥.
FULLWIDTH = re.compile("[\u3000-\u303f\uff01-\uff60\uffe0-\uffe5]")
#: CJK unified and compatibility ideographs.
KANJI = re.compile("[\u4e00-\u9fff\uf900-\ufaff]")
#: Half-width katakana (ｦ–ﾟ).
HALFWIDTH_KANA = re.compile("[\uff66-\uff9f]")
#: Half-width CJK punctuation (｡–･).
HALFWIDTH_PUNCT = re.compile("[\uff61-\uff65]")
#: Half-width katakana and punctuation together.
HALFWIDTH = re.compile("[\uff61-\uff9f]")
#: Any character outside ASCII.
NON_ASCII = re.compile("[^\x00-\x7f]")


def script(char: str) -> str:
    """The script of ``char``: the first word of its Unicode name (LATIN, CYRILLIC,
    HANGUL, …; ``?`` for an unnamed code point)."""
    return unicodedata.name(char, "?").split(" ", 1)[0]
