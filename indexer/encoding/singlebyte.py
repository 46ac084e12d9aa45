"""How plausible a single-byte code page reading is, judged from where its non-ASCII
characters sit.

Real Latin-1 / windows-1252 text has accented letters inside words written mostly in ASCII
letters, and typographic punctuation (‘ ’ “ ” – — …) or symbols (€ © ° ²) next to spaces,
digits or word ends; text in another single-byte script (Cyrillic, Greek, Arabic, Hebrew)
has words of letters of that one script. Double-byte Japanese (Shift_JIS, EUC-JP) read one
byte at a time gives none of that: runs of accented capitals, quotes glued between letters,
fractions and spacing accents inside words, C1 controls (``ŽR“c‘¾˜Y``, ``»³ÅÄÂÀÏº``).
The rules are typographic conventions of the scripts concerned, not a language model.
"""

from __future__ import annotations

import re
import unicodedata

#: Below this share of plausibly placed non-ASCII characters a reading is implausible…
PLAUSIBLE_MIN_SHARE = 0.5
#: … when at least this many are misplaced (one odd name or symbol proves nothing).
MISPLACED_MIN = 3
#: Non-ASCII characters judged (a proportion: a prefix will do).
JUDGED_CHARS = 4096

_NON_ASCII = re.compile("[^\x00-\x7f]")
# Letters whose Unicode name gives no script but which Latin text uses (ª º µ).
_SCRIPT_NEUTRAL = frozenset("\xaa\xba\xb5")
# Closing quotes that also serve as apostrophes between letters (l’été, don´t).
_APOSTROPHES = frozenset("\u2019\xb4")
# Inverted marks open a Spanish sentence like an opening bracket.
_OPENING_PO = frozenset("\xbf\xa1")


def _script(char: str) -> str | None:
    """The script of a non-ASCII letter: the first word of its Unicode name (LATIN,
    CYRILLIC, …)."""
    if char in _SCRIPT_NEUTRAL:
        return None
    return unicodedata.name(char, "UNKNOWN").split(" ", 1)[0]


def _word_span(text: str, index: int) -> tuple[int, int]:
    """``(start, end)`` of the run of letters (``str.isalpha``) around ``text[index]``."""
    start, end = index, index + 1
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    while end < len(text) and text[end].isalpha():
        end += 1
    return start, end


def _plausible_word(text: str, start: int, end: int) -> bool:
    """A word with non-ASCII letters: those of one script, consistent case, not glued to a
    non-ASCII symbol (¾, ˜, ¹); a Latin word mostly in ASCII letters (at most one accented
    letter more than plain ones); a one-letter word (à, é) standing between ASCII
    characters."""
    if _is_symbol(text, start - 1) or _is_symbol(text, end):
        return False
    word = text[start:end]
    accented = _NON_ASCII.findall(word)
    scripts = {_script(char) for char in accented} - {None}
    if len(scripts) > 1 or not _consistent_case(word):
        return False
    if scripts == {"LATIN"} and len(accented) > len(word) - len(accented) + 1:
        return False
    if len(word) == 1:
        return _ascii_or_edge(text, start - 1) and _ascii_or_edge(text, end)
    return True


def _consistent_case(word: str) -> bool:
    """Lower, upper or title case, or uncased; a lower-case prefix letter may precede a
    capital (Irish hÍ, tSú)."""
    if word.lower() == word.upper():
        return True
    if word.islower() or word.isupper() or word.istitle():
        return True
    return len(word) > 2 and word[0].islower() and word[1:].istitle()


def _is_symbol(text: str, index: int) -> bool:
    """``text[index]`` is a non-ASCII symbol, number sign or control (S*, No, Cc, Cn)."""
    if not 0 <= index < len(text) or text[index].isascii():
        return False
    category = unicodedata.category(text[index])
    return category[0] == "S" or category in ("No", "Cc", "Cn")


def _ascii_or_edge(text: str, index: int) -> bool:
    return index < 0 or index >= len(text) or text[index].isascii() or text[index].isspace()


def _char_at(text: str, index: int) -> str:
    return text[index] if 0 <= index < len(text) else " "


def _plausible_mark(char: str, before: str, after: str) -> bool:
    """A non-letter non-ASCII character placed as the typography of its class allows."""
    category = unicodedata.category(char)
    if category == "Mn":  # a combining mark (Arabic, Hebrew points) follows a letter
        return before.isalpha() or unicodedata.category(before) == "Mn"
    if category in ("Pi", "Pf", "Ps", "Pe") or char in _OPENING_PO:
        # Quotes and brackets open or close a word (German „…“ closes with “): never glued
        # inside one, unless it is an apostrophe.
        inside = before.isalnum() and after.isalnum()
        return not inside or (char in _APOSTROPHES and before.isalpha() and after.isalpha())
    if category == "Cf":  # soft hyphen: between the letters of a word
        return before.isalpha() and after.isalpha()
    if category == "Zs":  # no-break space
        return True
    if category == "Pd":  # dashes stand between ASCII (spaces or words)
        return (before.isascii() or before.isspace()) and (after.isascii() or after.isspace())
    if category[0] == "C":  # C1 controls, unassigned
        return False
    # Other punctuation and symbols (… • € © ° ² ¾): beside a space or digit, or after
    # ASCII and before ASCII punctuation (Smith†, m², 5€), or opening a word after markup
    # or punctuation (<td>¬p, (±x)); a degree before its scale's
    # letter (<td>°C, (°F)); a middle dot between letters or digits (A·B, col·lecció).
    if char == "\xb0" and after in "CFK" and after:
        return True
    if char == "\xb7" and before.isalnum() and after.isalnum():
        return True
    near_space_or_digit = any(c.isspace() or c.isdigit() for c in (before, after))
    if near_space_or_digit or (before.isascii() and after.isascii() and not after.isalnum()):
        return True
    return before.isascii() and not before.isalnum() and after.isascii() and after.isalnum()


def implausible(text: str) -> bool:
    """True when ``text`` (a single-byte code page's reading) does not look like real text:
    at least :data:`MISPLACED_MIN` non-ASCII characters misplaced, and fewer than
    :data:`PLAUSIBLE_MIN_SHARE` placed plausibly (see the module docstring)."""
    judged, plausible = placement_counts(text)
    return judged - plausible >= MISPLACED_MIN and plausible < PLAUSIBLE_MIN_SHARE * judged


def placement_counts(text: str) -> tuple[int, int]:
    """``(judged, plausible)``: the non-ASCII characters of ``text`` judged (at most
    :data:`JUDGED_CHARS`, from the start) and those that sit where real single-byte text
    puts them (see the module docstring)."""
    judged = plausible = 0
    words: dict[int, bool] = {}
    for match in _NON_ASCII.finditer(text):
        index = match.start()
        char = text[index]
        if char.isalpha():
            start, end = _word_span(text, index)
            if start not in words:
                words[start] = _plausible_word(text, start, end)
            ok = words[start]
        else:
            ok = _plausible_mark(char, _char_at(text, index - 1), _char_at(text, index + 1))
        judged += 1
        plausible += ok
        if judged >= JUDGED_CHARS:
            break
    return judged, plausible
