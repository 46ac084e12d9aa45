"""Generated sites of the kinds template learning must read right (served by the tests).

- :func:`catalogue`: product pages sharing one layout whose spec lines (``価格：260円``,
  ``型番：ST-1037``, ``重量 1.2kg``) and spec-table cells differ only in digits, and a
  "Page 3 of 12" line that is the layout's (a template with a variable);
- :func:`ledger`: pages that are one data table each (a header row of column names on
  every page, rows of their own), with a site footer after the table;
- :func:`numbered`: pages whose text differs only in one number (a generated notice
  series), with a site footer.

Each returns ``{path: html}``; ``/`` (``index.html``) links every page. Values come
from a seeded generator, so a test's expectations are computed from the same pages.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

SITE = "山田文具店"
FOOTER = f"Copyright © 2009-2024 {SITE} All rights reserved. 無断転載を禁じます。"
PRODUCTS = (
    "方眼ノート", "油性ボールペン", "クリアファイル", "ホチキス", "修正テープ", "付箋メモ",
    "蛍光ペン", "定規", "はさみ", "消しゴム", "シャープペンシル", "スケッチブック",
)  # fmt: skip
COLUMNS = ("日付", "件名", "担当者", "件数")


@dataclass
class Site:
    """Pages by path, and each page's own lines (what extraction must keep)."""

    pages: dict[str, str] = field(default_factory=dict)
    own: dict[str, list[str]] = field(default_factory=dict)


def _frame(title: str, body: str, links: list[str], footer: str) -> str:
    menu = "".join(f'<li><a href="{href}">{href.strip("/")}</a></li>' for href in links[:6])
    return (
        f'<html><head><meta charset="utf-8"><title>{title} | {SITE}</title></head><body>'
        f'<div id="head"><a href="/">{SITE}</a> <a href="/new.html">新着</a></div>'
        f'<div id="side"><ul>{menu}</ul></div>{body}{footer}</body></html>'
    )


def _index(site: Site) -> None:
    links = "".join(f'<li><a href="{p}">{p}</a></li>' for p in site.pages)
    head = f"<html><head><title>{SITE}</title></head>"
    site.pages["/"] = f"{head}<body><ul>{links}</ul></body></html>"


def catalogue(seed: int = 1) -> Site:
    """Product pages: description, spec lines and a spec table, all in one layout."""
    rnd, site = random.Random(seed), Site()
    paths = [f"/item{i}.html" for i in range(len(PRODUCTS))]
    for i, (path, name) in enumerate(zip(paths, PRODUCTS, strict=True)):
        lines = [
            f"価格：{rnd.randint(100, 999)}円",
            f"型番：ST-{rnd.randint(1000, 9999)}",
            f"重量 {rnd.randint(1, 9)}.{rnd.randint(0, 9)}kg",
        ]
        cells = [("幅", f"{rnd.randint(10, 99)}mm"), ("入数", f"{rnd.randint(2, 50)}個")]
        spec = "".join(f"<li>{line}</li>" for line in lines)
        table = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in cells)
        desc = f"{name}は毎日の仕事や勉強に使いやすい定番の品です。"
        body = (
            f'<div id="main"><h1>{name}</h1><p>{desc}</p><ul class="spec">{spec}</ul>'
            f'<table class="spec">{table}</table><p class="pager">Page {i + 1} of '
            f"{len(paths)}</p></div>"
        )
        site.pages[path] = _frame(name, body, paths, f'<div id="foot"><p>{FOOTER}</p></div>')
        site.own[path] = [desc, *lines, *(f"{k} {v}" for k, v in cells)]
    _index(site)
    return site


def ledger(seed: int = 2, *, numbers_only: bool = False, footer: str = "p") -> Site:
    """Pages of one data table each: the header row on every page, rows their own.

    ``footer``: ``p`` (plain paragraphs) or ``center`` (``<center><font>``, old sites).
    """
    rnd, site = random.Random(seed), Site()
    paths = [f"/log{i}.html" for i in range(12)]
    foot = f"<p>{FOOTER}</p>" if footer == "p" else f"<hr><center><font>{FOOTER}</font></center>"
    for path in paths:
        rows = []
        for _ in range(15):
            if numbers_only:
                rows.append([str(rnd.randint(1, 9999)) for _ in COLUMNS])
            else:
                subject = rnd.choice(["会議", "出張", "研修"]) + rnd.choice(["報告", "予定"])
                rows.append([f"2024/{rnd.randint(1, 12)}/{rnd.randint(1, 28)}",
                             f"{subject}第{rnd.randint(1, 99)}回",
                             rnd.choice(["佐藤", "鈴木", "高橋", "田中"]),
                             f"{rnd.randint(1, 500)}件"])  # fmt: skip
        head = "".join(f"<th>{c}</th>" for c in COLUMNS)
        body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
        table = f"<table border='1'><tr>{head}</tr>{body}</table>"
        site.pages[path] = _frame("業務記録", table, paths, foot)
        site.own[path] = [" ".join(row) for row in rows]
    _index(site)
    return site


def numbered(count: int = 12) -> Site:
    """Pages whose text differs only in one number, and a site footer."""
    site = Site()
    paths = [f"/notice{i}.html" for i in range(count)]
    for i, path in enumerate(paths):
        text = f"お知らせ第{i + 1}号です。窓口の受付時間と手続きの流れを説明します。"
        body = f"<article><h1>お知らせ {i + 1}</h1><p>{text}</p></article>"
        site.pages[path] = _frame(f"お知らせ {i + 1}", body, paths, f"<p>{FOOTER}</p>")
        site.own[path] = [text]
    _index(site)
    return site
