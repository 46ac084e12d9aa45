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


def catalogue(seed: int = 1, *, terms: bool = False) -> Site:
    """Product pages: description, spec lines and a spec table, all in one layout; with
    ``terms`` the spec lines are a definition list (``<dt>価格</dt><dd>260円</dd>``)."""
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
        pairs = [line.replace("：", " ").split(" ", 1) for line in lines]
        if terms:
            spec = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in pairs)
            lines = [part for pair in pairs for part in pair]
        table = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in cells)
        desc = f"{name}は毎日の仕事や勉強に使いやすい定番の品です。"
        body = (
            f'<div id="main"><h1>{name}</h1><p>{desc}</p>'
            + (f"<dl>{spec}</dl>" if terms else f'<ul class="spec">{spec}</ul>')
            + f'<table class="spec">{table}</table><p class="pager">Page {i + 1} of '
            f"{len(paths)}</p></div>"
        )
        site.pages[path] = _frame(name, body, paths, f'<div id="foot"><p>{FOOTER}</p></div>')
        site.own[path] = [desc, *lines, *(f"{k} {v}" for k, v in cells)]
    _index(site)
    return site


def ledger(
    seed: int = 2, *, numbers_only: bool = False, footer: str = "p", linked: bool = False
) -> Site:
    """Pages of one data table each: the header row on every page, rows their own.

    ``footer``: ``p`` (plain paragraphs) or ``center`` (``<center><font>``, old sites);
    ``linked``: each row's second cell links its record.
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
        cells = ["<td>{}</td>", '<td><a href="/r.html">{}</a></td>' if linked else "<td>{}</td>"]
        body = "".join(
            "<tr>" + "".join(cells[k == 1].format(c) for k, c in enumerate(row)) + "</tr>"
            for row in rows
        )
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


TOPICS = (
    "市議会", "台風", "新駅", "図書館", "花火大会", "給食", "空き家", "防災訓練", "商店街",
    "マラソン", "動物園", "路線バス", "港湾", "美術館",
)  # fmt: skip


def news(seed: int = 4) -> Site:
    """Articles with a "related articles" box of teaser cards (a linked headline and its
    lead), four other articles on each page, so each card is on a few pages, after a
    photo box of its own (a link and a caption); and a listing page of entries (a linked
    headline and a lead of its own)."""
    rnd, site = random.Random(seed), Site()
    paths = [f"/a{i}.html" for i in range(len(TOPICS))]
    titles = [f"{t}をめぐる市の新方針" for t in TOPICS]
    for i, path in enumerate(paths):
        topic = TOPICS[i]
        own = [
            f"{topic}について、市の担当者は第{k}段階の取り組みを進めると話した。"
            for k in range(1, 4 + i % 3)
        ]
        cards = "".join(
            f'<div class="card"><a href="{paths[j]}">{titles[j]}</a>'
            f"<p>{TOPICS[j]}をめぐる動きを記者が詳しく伝えます。</p></div>"
            for j in rnd.sample([j for j in range(len(paths)) if j != i], 4)
        )
        caption = f"写真：{topic}の現場を記者が撮影した一枚（{i + 1}日）"
        photo = f'<div class="photo"><a href="/img{i}.jpg">拡大</a><p>{caption}</p></div>'
        body = (
            f'<div id="art"><h1>{titles[i]}</h1>{"".join(f"<p>{p}</p>" for p in own)}'
            f'{photo}<div class="box"><h3>あわせて読みたい</h3>{cards}</div></div>'
        )
        own = [*own, caption]  # a photo box beside a link, under no template heading
        site.pages[path] = _frame(titles[i], body, paths, f"<p>{FOOTER}</p>")
        site.own[path] = own
    leads = [f"{t}の最新の動きを、この一覧だけの要約で紹介します。" for t in TOPICS[:6]]
    entries = "".join(
        f'<div class="entry"><h2><a href="{p}">{t}</a></h2><p>{lead}</p></div>'
        for p, t, lead in zip(paths, titles, leads, strict=False)
    )
    body = f'<div id="art"><h1>記事一覧</h1>{entries}</div>'
    site.pages["/list.html"] = _frame("記事一覧", body, paths, f"<p>{FOOTER}</p>")
    site.own["/list.html"] = leads  # a listing page: its entries' leads are its own
    _index(site)
    return site


QUESTIONS = (
    "パスワードを忘れたら", "申請の締め切りは", "在宅勤務の届け出", "経費の精算方法",
    "会議室の予約", "名刺の発注", "健康診断の日程", "社員証の再発行", "出張旅費の計算",
)  # fmt: skip


def faq(*, linked: bool = True) -> Site:
    """One answer per page beside the same list of every question (linked or plain)."""
    site = Site()
    paths = [f"/q{i}.html" for i in range(len(QUESTIONS))]
    for i, (path, question) in enumerate(zip(paths, QUESTIONS, strict=True)):
        items = "".join(
            f'<li><a href="{p}">{q}？</a></li>' if linked else f"<li>{q}？</li>"
            for p, q in zip(paths, QUESTIONS, strict=True)
        )
        answer = [
            f"{question}の場合は、まず総務部のポータルで手順を確認してください。",
            f"詳しい説明は第{i + 1}章にあります。不明な点は内線{2000 + i}へ。",
        ]
        body = (
            f'<table><tr><td valign="top"><h3>よくある質問</h3><ul>{items}</ul></td>'
            f"<td><h1>Q. {question}？</h1>{''.join(f'<p>{a}</p>' for a in answer)}</td></tr>"
            "</table>"
        )
        site.pages[path] = _frame(f"{question}？", body, paths, f"<p>{FOOTER}</p>")
        site.own[path] = answer
    _index(site)
    return site
