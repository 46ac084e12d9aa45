"""What users type, made into a safe ``/search`` request (pure logic, no I/O).

Rules (Solr Ref Guide, "The Standard Query Parser" and "The Extended DisMax Query
Parser"; the length bound follows Fess, which searches at most 1,000 characters):

- a query longer than ``max_chars`` characters, or empty, raises :class:`QueryError` with
  a message for the user;
- explicit ``AND``/``OR``/``NOT`` (and ``&&``, ``||``, ``!``, ``+``, ``-``) and parentheses
  keep their meaning; between two words without an operator ``AND`` is written out, so the
  default is "all words" while the request itself runs with ``q.op=OR`` (with ``q.op=AND``
  edismax would also require every alternative of a multi-word synonym);
- fuzzy (``検索~``, ``検索~2``; any ``~`` outside a quoted phrase, so 9時~17時 stays a
  time range), leading wildcards (``*ache``, ``?``) and regular
  expressions (``/.../``) are escaped into plain text unless the options allow them (they
  expand to every term of the index: slow, and ``?`` alone matches every page);
- a one-character word among others follows the same rule (a lone hiragana particle is
  left out, or it would require a match no field can give);
- a query of one character is not matched through the bigram fields as such (の would
  match nearly every page): a kana, Latin letter or digit searches the Kuromoji fields only
  (title, content), as Fess does; a kanji or katakana character also matches as a prefix
  (庁 finds 都庁, whose bigram 庁の starts with it), which scores below an exact word.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from indexer.errors import QueryError
from indexer.settings import SearchSettings

MAX_QUERY_CHARS = 1000
ONE_CHAR_QF = "title^8 content^4"
_ITEM = re.compile(r'"(?:[^"\\]|\\.)*"?(?:~\d+)?|\(|\)|[^\s()"]+')
_OPERATORS = frozenset({"AND", "OR", "NOT", "&&", "||", "!"})
_FUZZY = re.compile(r"(?<!\\)~")


@dataclass(frozen=True)
class QueryOptions:
    """What user syntax is allowed (settings ``search.*``).

    Attributes:
        max_chars: longest query searched, in characters (after stripping).
        allow_fuzzy: keep ``term~`` fuzzy syntax.
        allow_leading_wildcard: keep ``*term``, ``?erm`` and ``/regex/``.
    """

    max_chars: int = MAX_QUERY_CHARS
    allow_fuzzy: bool = False
    allow_leading_wildcard: bool = False


def query_options(search: SearchSettings) -> QueryOptions:
    """The :class:`QueryOptions` of the ``search.*`` settings (CLI and web alike)."""
    return QueryOptions(
        max_chars=search.max_query_chars,
        allow_fuzzy=search.allow_fuzzy,
        allow_leading_wildcard=search.allow_leading_wildcard,
    )


@dataclass(frozen=True)
class PreparedQuery:
    """A query ready for ``/search``: ``q`` and the parameters that go with it."""

    q: str
    params: dict[str, str] = field(default_factory=dict)


def prepare(text: str, options: QueryOptions | None = None) -> PreparedQuery:
    """Turn user input into a ``/search`` request.

    Raises:
        QueryError: the query is empty or longer than ``options.max_chars`` (the message
            says so and gives the limit).
    """
    opts = options or QueryOptions()
    text = text.replace("\u3000", " ").strip()
    if not text:
        raise QueryError("empty query: type one or more words")
    if len(text) > opts.max_chars:
        raise QueryError(
            f"query too long: {len(text)} characters; at most {opts.max_chars} are searched"
        )
    if text.startswith("{!"):
        text = "\\" + text
    one = _one_character(text)
    if one is not None:
        return _one_character_query(one)
    items = [_one_char_word(_neutralise(item, opts)) for item in _ITEM.findall(text)]
    words = _without_dangling([i for i in items if i])
    return PreparedQuery(" ".join(_with_and(words)), {"q.op": "OR"})


def _one_char_word(item: str) -> str:
    """A one-character word among others: a kanji or katakana character as itself or a
    prefix (the bigram fields hold no single characters), a lone hiragana character (a
    particle such as の, which Kuromoji drops) left out, anything else as typed."""
    sign, word = (item[0], item[1:]) if item[:1] in ("+", "-") else ("", item)
    if len(word) != 1:
        return item
    if _prefix_char(word):
        return f"{sign}({word} OR {word}*)"
    return "" if unicodedata.name(word, "").startswith("HIRAGANA") else item


def _prefix_char(char: str) -> bool:
    return unicodedata.name(char, "").startswith(("CJK UNIFIED", "KATAKANA LETTER"))


def _one_character_query(char: str) -> PreparedQuery:
    """Kuromoji fields for a kana, letter or digit; kanji and katakana also as a prefix."""
    escaped = re.sub(r"([\\+\-!():^\[\]\"{}~*?|&/])", r"\\\1", char)
    if _prefix_char(char):
        return PreparedQuery(f"{escaped} OR {escaped}*", {"q.op": "OR", "pf": ""})
    return PreparedQuery(escaped, {"q.op": "OR", "qf": ONE_CHAR_QF, "pf": ""})


def _neutralise(item: str, opts: QueryOptions) -> str:
    """Escape the syntax of one item that the options do not allow."""
    if item in _OPERATORS or item in "()" or item.startswith('"'):
        return item
    if not opts.allow_fuzzy:
        item = _FUZZY.sub(r"\\~", item)
    if not opts.allow_leading_wildcard:
        item = _escape_leading(item)
    return item


def _escape_leading(item: str) -> str:
    """Escape ``*``, ``?`` and ``/`` at the start of the value (after ``+``/``-`` and a
    ``field:`` prefix) and every ``?``/``*`` of a value made only of them."""
    head = re.match(r"[+\-!]?(?:[\w.]+:)?", item)
    cut = head.end() if head else 0
    prefix, value = item[:cut], item[cut:]
    if value and set(value) <= {"*", "?"}:
        return prefix + "".join("\\" + c for c in value)
    if value[:1] in ("*", "?", "/"):
        value = "\\" + value
    return prefix + value


def _without_dangling(items: list[str]) -> list[str]:
    """Drop a binary operator with no operand on one side (``大阪 OR`` once the particle of
    ``大阪 OR の`` is left out); a lone operator is kept as the word it then is."""
    binary = {"AND", "OR", "&&", "||"}
    out: list[str] = []
    for i, item in enumerate(items):
        after = items[i + 1] if i + 1 < len(items) else ")"
        before = out[-1] if out else "("
        lone = len(items) == 1
        if item in binary and not lone and (before in ("(", *binary) or after in (")", *binary)):
            continue
        out.append(item)
    return out


def _with_and(items: list[str]) -> list[str]:
    """Write ``AND`` between two operands that have no operator between them."""
    out: list[str] = []
    for item in items:
        if out and _ends_operand(out[-1]) and _starts_operand(item):
            out.append("AND")
        out.append(item)
    return out


def _ends_operand(item: str) -> bool:
    return item not in _OPERATORS and item != "("


def _starts_operand(item: str) -> bool:
    return item not in _OPERATORS and item != ")"


def _one_character(text: str) -> str | None:
    """The character of a one-character query (NFKC, white space and punctuation
    ignored), else None."""
    chars = [
        c
        for c in unicodedata.normalize("NFKC", text)
        if not c.isspace() and unicodedata.category(c)[0] not in "PZ"
    ]
    return chars[0] if len(chars) == 1 else None
