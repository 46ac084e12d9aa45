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
  time range) and regular expressions (``/.../``) are escaped into plain text unless the
  options allow them (they expand to every term of the index: slow);
- ``*`` and ``?`` are characters, not wildcards (a question ends in ？ or ?: 会議室は? finds
  会議室), unless the word names a field of ``uf`` (``title:会議*``, a prefix); even then a
  leading one is escaped (``title:*議``: every term of the index). The
  ``allow_leading_wildcard`` option keeps them all as typed;
- a one-character word among others follows the same rule (a lone hiragana particle is
  left out, or it would require a match no field can give);
- a query of one character is not matched through the bigram fields as such (の would
  match nearly every page): a kana, Latin letter or digit searches the Kuromoji fields only
  (title, content), as Fess does; a kanji or katakana character also matches as a prefix
  (庁 finds 都庁, whose bigram 庁の starts with it), which scores below an exact word;
- C0 control characters (NUL, line breaks, …) are white space; ``*`` or ``*:*`` alone lists
  every document (Lucene's match-all query costs nothing, unlike a wildcard);
- a field prefix binds to the parenthesis or phrase after it (``title:(経費)``,
  ``title:"経費精算"``); a query naming a text field gets ``hl.q``, the same query without
  the prefixes, so the snippet marks the words found in the title too;
- what was changed is said: each :class:`Note` names a part searched otherwise than typed
  (a field users may not name — ``USER_FIELDS``, the handler's ``uf`` — fuzzy syntax or a
  ``*`` searched as text, the match-all query; a ``?`` is punctuation, said only when it
  leads the word).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from indexer.errors import QueryError
from indexer.settings import SearchSettings

MAX_QUERY_CHARS = 1000
ONE_CHAR_QF = "title^8 content^4"
# The handler's uf (solrconfig.xml); a test checks the two agree.
USER_FIELDS = frozenset(
    {"title", "content", "headings", "description", "host", "site", "lang", "content_type"}
)
TEXT_FIELDS = ("title", "content", "headings", "description")
MATCH_ALL = frozenset({"*", "*:*"})
# an item: [sign][field:] followed by a phrase or an opening parenthesis, or ")", or a word
_ITEM = re.compile(r'[+\-!]?(?:[\w.]+:)?(?:"(?:[^"\\]|\\.)*"?(?:~\d+)?|\()|\)|[^\s()"]+')
_PHRASE_OR_OPEN = re.compile(r'[+\-!]?(?:[\w.]+:)?["(]')
_FIELD = re.compile(r"[+\-!]?([A-Za-z_][A-Za-z0-9_.]*):(?!//)")
_TEXT_FIELD = re.compile(r"^([+\-!]?)(?:" + "|".join(TEXT_FIELDS) + r"):")
_CONTROLS = re.compile(r"[\x00-\x1f\x7f]")
_OPERATORS = frozenset({"AND", "OR", "NOT", "&&", "||", "!"})
_FUZZY = re.compile(r"(?<!\\)~")
_FUZZY_END = re.compile(r"~[\d.]*$")
_HEAD = re.compile(r"[+\-!]?(?:[\w.]+:)?")
_WILDCARD = re.compile(r"(?<!\\)[*?]")


@dataclass(frozen=True)
class QueryOptions:
    """What user syntax is allowed (settings ``search.*``).

    Attributes:
        max_chars: longest query searched, in characters (after stripping).
        allow_fuzzy: keep ``term~`` fuzzy syntax.
        allow_leading_wildcard: keep ``*term``, ``?erm``, ``/regex/`` and the wildcards
            of a word without a field (else ``*``/``?`` are characters there).
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
class Note:
    """A part of the query searched otherwise than typed.

    Attributes:
        kind: ``all`` (``*`` alone: every document), ``field`` (``value`` is a field users
            may not name, searched as text), ``wildcard`` (a leading ``*``/``?`` or a
            ``/regex/`` searched as text), ``fuzzy`` (``~`` searched as text).
        value: the field name or the item as typed.
    """

    kind: str
    value: str

    def message(self) -> str:
        """The note in English, one line (the CLI's; the web has its own labels)."""
        return {
            "all": "{v} alone lists every document",
            "field": "{v}: is not a searchable field; searched as text",
            "wildcard": "{v}: * or ? (or /regex/) is searched as text; title:word* is a prefix",
            "fuzzy": "{v}: ~ (fuzzy search) is searched as text",
        }[self.kind].format(v=self.value)


@dataclass(frozen=True)
class PreparedQuery:
    """A query ready for ``/search``: ``q``, the parameters that go with it, and the notes
    on what was searched otherwise than typed."""

    q: str
    params: dict[str, str] = field(default_factory=dict)
    notes: tuple[Note, ...] = ()


def without_controls(text: str) -> str:
    """``text`` with each C0 control character and DEL (NUL, line breaks, tabs) made a
    space: what a query holds before it is searched or shown."""
    return _CONTROLS.sub(" ", text)


def prepare(text: str, options: QueryOptions | None = None) -> PreparedQuery:
    """Turn user input into a ``/search`` request.

    Raises:
        QueryError: the query is empty or longer than ``options.max_chars`` (the message
            says so and gives the limit).
    """
    opts = options or QueryOptions()
    text = without_controls(text).replace("\u3000", " ").strip()
    if not text:
        raise QueryError("empty query: type one or more words")
    if len(text) > opts.max_chars:
        raise QueryError(
            f"query too long: {len(text)} characters; at most {opts.max_chars} are searched"
        )
    if text in MATCH_ALL:
        return PreparedQuery("*:*", {"defType": "lucene", "q.op": "OR"}, (Note("all", text),))
    if text.startswith("{!"):
        text = "\\" + text
    one = _one_character(text)
    if one is not None:
        return _one_character_query(one)
    typed = _ITEM.findall(text)
    items = [_one_char_word(_neutralise(item, opts)) for item in typed]
    words = _with_and(_without_dangling([i for i in items if i]))
    params = {"q.op": "OR"}
    plain = [_TEXT_FIELD.sub(r"\1", w) for w in words]
    if plain != words:
        params["hl.q"] = " ".join(plain)
    return PreparedQuery(" ".join(words), params, _notes(typed, items))


def _notes(typed: list[str], items: list[str]) -> tuple[Note, ...]:
    """What :func:`prepare` searched otherwise than typed, item by item."""
    notes: list[Note] = []
    for before, after in zip(typed, items, strict=True):
        named = _FIELD.match(before)
        if named and named.group(1) not in USER_FIELDS:
            notes.append(Note("field", named.group(1)))
        if before == after or not after:
            continue
        if _FUZZY_END.search(before) and "\\~" in after:
            notes.append(Note("fuzzy", before))
        elif before.replace("~", "") != after.replace("\\~", "").replace("~", "") and not (
            _only_punctuation(before)
        ):
            notes.append(Note("wildcard", before))
    return tuple(dict.fromkeys(notes))


def _only_punctuation(item: str) -> bool:
    """A word whose only wildcard syntax is a ``?`` after its first character (会議室は?):
    a question mark, escaped without a note."""
    head = _HEAD.match(item)
    value = item[head.end() :] if head else item
    return "*" not in value and value[:1] not in ("?", "/")


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
    if item in _OPERATORS or item == ")" or _PHRASE_OR_OPEN.match(item):
        return item
    if not opts.allow_fuzzy:
        item = _FUZZY.sub(r"\\~", item)
    if not opts.allow_leading_wildcard:
        item = _escape_wildcards(item)
    return item


def _escape_wildcards(item: str) -> str:
    """Escape ``*``, ``?`` and ``/`` at the start of the value (after ``+``/``-`` and a
    ``field:`` prefix), every ``?``/``*`` of a value made only of them, and every one of a
    word that names no field of ``uf`` (module docstring)."""
    head = _HEAD.match(item)
    cut = head.end() if head else 0
    prefix, value = item[:cut], item[cut:]
    named = _FIELD.match(prefix)
    if value and (set(value) <= {"*", "?"} or not (named and named.group(1) in USER_FIELDS)):
        value = _WILDCARD.sub(r"\\\g<0>", value)
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
        if (
            item in binary
            and not lone
            and (_opens(before) or before in binary or after in (")", *binary))
        ):
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


def _opens(item: str) -> bool:
    """``(``, ``-(`` or ``title:(``: an item that opens a group."""
    return item.endswith("(") and bool(_PHRASE_OR_OPEN.fullmatch(item))


def _ends_operand(item: str) -> bool:
    return item not in _OPERATORS and not _opens(item)


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
