"""A generated intranet of three sites (人事, 情報システム, 総務) for the web-interface tests.

``write_sites(root)`` writes ``root/jinji``, ``root/joho`` and ``root/somu``, each with an
``index.html`` that links every page of its site. Each site is served by its own server, so
the ``host`` facet has three values (``127.0.0.1:PORT``). 有給休暇 appears on 16 pages over
all three sites and seven years (paging, facets, sorting by date); three pages are English
(``lang`` facet); two pages are hostile: a ``<script>`` title and markup in the body, and a
file name with ``"><img src=x onerror=…>`` in it. Every hostile page mentions セキュリティ訓練.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

HOSTILE_TITLE = "<script>alert(1)</script>セキュリティ訓練のお知らせ"
HOSTILE_FILE = '"><img src=x onerror=alert(2)>.html'
HOSTILE_QUERY = "セキュリティ訓練"
QUERY = "有給休暇"


@dataclass(frozen=True)
class Page:
    """One generated page: file name, title, body paragraphs, modified date, language."""

    name: str
    title: str
    paragraphs: tuple[str, ...]
    modified: str
    lang: str = "ja"


_LEAVE = (
    "有給休暇は入社から六か月を経過した社員に付与されます。",
    "年次有給休暇の取得は、原則として五日前までに上長へ申請してください。",
    "有給休暇の残日数は勤怠システムの個人画面で確認できます。",
    "半日単位の有給休暇も取得できますが、時間単位の取得は認められていません。",
    "未消化の有給休暇は翌年度に限り繰り越すことができます。",
)
_TOPICS = {
    "健康診断": (
        "定期健康診断は毎年秋に本社の会議室で実施します。",
        "健康診断の結果は産業医が確認し、必要に応じて面談を行います。",
    ),
    "パスワード": (
        "パスワードは十二文字以上とし、英字と数字と記号を組み合わせてください。",
        "パスワードを他人に教えることは禁止されています。",
    ),
    "会議室予約": (
        "会議室予約は社内ポータルの予約画面から行います。",
        "予約を取り消すときは、開始時刻の一時間前までに手続きしてください。",
    ),
    "経費精算": (
        "経費精算は月末締めで、翌月十日までに申請してください。",
        "領収書の原本は経理部へ郵送してください。",
    ),
}


def _leave_pages() -> list[Page]:
    pages = []
    for i in range(16):
        year = 2019 + i % 7
        lead = _LEAVE[i % len(_LEAVE)]
        pages.append(
            Page(
                name=f"leave-{i:02d}.html",
                title=f"有給休暇の手引き 第{i + 1}版",
                paragraphs=(
                    lead,
                    f"この手引きは{year}年{i % 12 + 1}月に改訂されました。",
                    _LEAVE[(i + 2) % len(_LEAVE)],
                    "ご不明な点は人事部までお問い合わせください。",
                ),
                modified=f"{year}-{i % 12 + 1:02d}-{i % 27 + 1:02d}T09:00:00+09:00",
            )
        )
    return pages


def _topic_pages() -> list[Page]:
    pages = []
    for i, (topic, lines) in enumerate(_TOPICS.items()):
        for n in range(2):
            pages.append(
                Page(
                    name=f"topic-{i}-{n}.html",
                    title=f"{topic}について（{n + 1}）",
                    paragraphs=(*lines, f"{topic}の担当窓口は総務部です。", lines[n]),
                    modified=f"{2020 + i + n}-0{n + 3}-15T10:00:00+09:00",
                )
            )
    return pages


def _english_pages() -> list[Page]:
    return [
        Page(
            name=f"en-{i}.html",
            title=f"Paid leave guide {i + 1} (有給休暇)",
            paragraphs=(
                "Employees receive paid leave (有給休暇) after six months of service.",
                "Apply for paid leave through the attendance system five days ahead.",
                "Unused days carry over to the next fiscal year only.",
            ),
            modified=f"{2022 + i}-06-01T12:00:00+09:00",
            lang="en",
        )
        for i in range(3)
    ]


def _hostile_pages() -> list[Page]:
    body = (
        f"{HOSTILE_QUERY}を来月実施します。<img src=x onerror=alert(3)> と書かれたメールは"
        "開かないでください。",
        "本文に <em>偽の強調</em> や <b>太字</b> の文字列があっても、"
        "そのまま文字として表示されます。",
        "不審なメールを受け取ったら情報システム部へ転送してください。",
    )
    return [
        Page("hostile-title.html", HOSTILE_TITLE, body, "2024-02-01T09:00:00+09:00"),
        Page(HOSTILE_FILE, f"{HOSTILE_QUERY}の報告", body, "2023-02-01T09:00:00+09:00"),
    ]


def sites() -> dict[str, list[Page]]:
    """The pages of each site, by site name."""
    leave, topics = _leave_pages(), _topic_pages()
    return {
        "jinji": leave[:8] + topics[:2] + _english_pages(),
        "joho": leave[8:12] + topics[2:5] + _hostile_pages(),
        "somu": leave[12:] + topics[5:],
    }


def render(page: Page, site_title: str) -> str:
    """The HTML of ``page``: header, navigation and footer around the main content."""
    body = "\n".join(f"<p>{html.escape(p)}</p>" for p in page.paragraphs)
    return (
        f'<!DOCTYPE html>\n<html lang="{page.lang}"><head><meta charset="utf-8">\n'
        f"<title>{html.escape(page.title)}</title>\n"
        f'<meta property="article:modified_time" content="{page.modified}">\n'
        f'</head><body><header><a href="index.html">{site_title}</a></header>\n'
        f"<main><article><h1>{html.escape(page.title)}</h1>\n{body}\n</article></main>\n"
        "<footer>社内ポータル · 無断転載禁止</footer></body></html>\n"
    )


def _index(name: str, pages: list[Page]) -> str:
    links = "\n".join(
        f'<li><a href="{html.escape(quote(p.name))}">{html.escape(p.title)}</a></li>' for p in pages
    )
    return (
        '<!DOCTYPE html>\n<html lang="ja"><head><meta charset="utf-8">'
        f"<title>{name} ポータル</title></head><body><ul>\n{links}\n</ul></body></html>\n"
    )


def write_sites(root: Path) -> dict[str, Path]:
    """Write every site under ``root``; returns ``{site name: folder}``."""
    folders = {}
    for name, pages in sites().items():
        folder = root / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "index.html").write_text(_index(name, pages), encoding="utf-8")
        for page in pages:
            (folder / page.name).write_text(render(page, f"{name} ポータル"), encoding="utf-8")
        folders[name] = folder
    return folders


def page_count() -> int:
    """Pages with content over all sites (index pages not counted)."""
    return sum(len(pages) for pages in sites().values())
