"""Labels of the web interface in Japanese (the default) and English, and the choice
between them from ``Accept-Language`` (RFC 9110 §12.5.4: language ranges with q-values)."""

from __future__ import annotations

LANGUAGES = ("ja", "en")

LABELS: dict[str, dict[str, str]] = {
    "ja": {
        "site": "社内検索",
        "search": "検索",
        "placeholder": "キーワードを入力",
        "hits": "件",
        "range": "{first}–{last} 件目",
        "facets": "絞り込み",
        "host": "サイト",
        "type": "形式",
        "lang": "言語",
        "year": "更新年",
        "all": "すべて",
        "sort": "並び順",
        "relevance": "関連度順",
        "modified": "新しい順",
        "pages": "ページ",
        "prev": "前へ",
        "next": "次へ",
        "updated": "更新",
        "no_results": "「{q}」に一致するページは見つかりませんでした。",
        "try_variant": "別の表記で検索: ",
        "try_drop": "絞り込みを外す: ",
        "try_fewer": "語を減らすか、別の言葉で検索してください。",
        "empty": "キーワードを入力して検索してください。",
        "too_long": "検索語が長すぎます（{max} 文字まで）。短くしてもう一度お試しください。",
        "bad_param": "検索条件が正しくありません。",
        "not_searchable": "この検索語では検索できません。語を減らすか、言い換えてください。",
        "unavailable": "検索サーバーが応答しません。しばらくしてからもう一度お試しください。",
        "not_found": "ページが見つかりません。",
        "error": "問題が発生しました。しばらくしてからもう一度お試しください。",
        "note_all": "「{v}」だけの検索は、すべてのページを表示します。",
        "note_field": "「{v}:」は検索できる項目ではないため、文字として検索しました。",
        "note_wildcard": (
            "「{v}」の * や ?（または /…/）は、文字として検索しました（title:語* は前方一致）。"
        ),
        "note_fuzzy": "「{v}」の ~（あいまい検索）は、文字として検索しました。",
    },
    "en": {
        "site": "Intranet search",
        "search": "Search",
        "placeholder": "Enter keywords",
        "hits": "results",
        "range": "(showing {first}–{last})",
        "facets": "Refine",
        "host": "Site",
        "type": "Format",
        "lang": "Language",
        "year": "Year modified",
        "all": "All",
        "sort": "Sort",
        "relevance": "Relevance",
        "modified": "Newest",
        "pages": "Pages",
        "prev": "Previous",
        "next": "Next",
        "updated": "Updated",
        "no_results": "No pages match “{q}”.",
        "try_variant": "Search another spelling: ",
        "try_drop": "Remove a filter: ",
        "try_fewer": "Try fewer or different words.",
        "empty": "Enter keywords to search.",
        "too_long": "The query is too long (at most {max} characters). Shorten it and try again.",
        "bad_param": "The search parameters are not valid.",
        "not_searchable": "This query cannot be searched. Try fewer or other words.",
        "unavailable": "The search server does not answer. Please try again later.",
        "not_found": "Page not found.",
        "error": "Something went wrong. Please try again later.",
        "note_all": "“{v}” alone lists every page.",
        "note_field": "“{v}:” is not a searchable field; it was searched as text.",
        "note_wildcard": (
            "In “{v}”, * or ? (or /…/) was searched as text (title:word* is a prefix)."
        ),
        "note_fuzzy": "In “{v}”, ~ (fuzzy search) was searched as text.",
    },
}


def choose_language(accept_language: str | None) -> str:
    """``en`` when the browser ranks English above Japanese, else ``ja``.

    Args:
        accept_language: the header value, e.g. ``en-US,en;q=0.9,ja;q=0.8``, or None.
    """
    best, best_q = "ja", 0.0
    for item in (accept_language or "").split(","):
        tag, _, params = item.strip().partition(";")
        primary = tag.strip().lower().split("-", 1)[0]
        if primary not in LANGUAGES:
            continue
        q = _quality(params)
        if q > best_q:  # strictly: of equal ranges the first listed wins
            best, best_q = primary, q
    return best


def _quality(params: str) -> float:
    for param in params.split(";"):
        name, _, value = param.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                return max(0.0, min(1.0, float(value)))
            except ValueError:
                return 0.0
    return 1.0
