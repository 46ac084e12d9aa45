"""The seed baselines of scripts/extract_baselines.py and the Done-when checks of
scripts/extract_report.py, on small hand-made inputs (pure logic, no corpus)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.scripts_loader import load_script

ARTICLE = "本文の段落です。" * 30
NAV = "".join(f'<li><a href="/{i}">メニュー項目{i}</a></li>' for i in range(30))
PAGE = (
    "<html><head><title>t</title><script>var x = '" + "s" * 500 + "';</script></head><body>"
    f'<div id="nav"><ul>{NAV}</ul></div>'
    f'<div id="main"><h1>見出し</h1><p>{ARTICLE}</p><p>{ARTICLE}</p></div>'
    '<div id="foot"><a href="/c">Copyright</a> <a href="/p">プライバシー</a></div>'
    "</body></html>"
)


def test_each_seed_finds_the_article_and_leaves_the_menu() -> None:
    base = load_script("extract_baselines")
    for fn in (base.blog_body, base.dom_score, base.extract_content):
        text = fn(PAGE)
        assert ARTICLE in text.replace("\n", ""), fn.__name__
        assert "メニュー項目3" not in text, fn.__name__
        assert "var x" not in text, fn.__name__


def test_blog_body_needs_little_markup_and_enough_bytes() -> None:
    base = load_script("extract_baselines")
    tagged = "<div>" + "<b>短</b>" * 40 + "</div>"  # markup far over 10 %
    assert base.blog_body(tagged) == ""
    assert base.blog_body("<div>みじかい</div>") == ""  # under 100 bytes
    long = "長い文章の本体です。" * 10
    assert base.blog_body(f"<div>{long}</div><div>{long[:40]}</div>") == long


def test_dom_score_prefers_the_deeper_node_of_equal_text() -> None:
    base = load_script("extract_baselines")
    html = f"<html><body><div><div><p>{ARTICLE}</p></div></div></body></html>"
    assert base.dom_score(html) == ARTICLE
    assert base.dom_score("") == ""


def test_extract_content_keeps_a_weak_block_after_a_strong_one_and_drops_link_lists() -> None:
    base = load_script("extract_baselines")
    strong = "強いブロックの文です。" * 20
    html = (
        f"<body><div>{NAV}</div><div>{strong}</div><div>短い続き</div>"
        f"<div>{strong}</div><div>{NAV}</div></body>"
    )
    text = base.extract_content(html)
    assert "短い続き" in text and text.count(strong) == 2
    assert "メニュー項目" not in text


@dataclass
class _S:
    p: float
    r: float
    f1: float


@dataclass
class _Page:
    id: str
    kind: str
    gold: str


@dataclass
class _Run:
    scores: list[_S]
    empty_pages: list[bool]
    ms: float = 1.0
    empty: int = field(init=False)

    def __post_init__(self) -> None:
        self.empty = sum(self.empty_pages)

    def macro(self) -> _S:
        raise NotImplementedError

    def median_ms(self) -> float:
        return self.ms


def test_report_checks_are_computed_from_the_runs() -> None:
    rep = load_script("extract_report")
    pages = [_Page("a", "article", "gold a"), _Page("b", "listing", "gold b")]
    search = _Run([_S(0.9, 0.95, 0.92), _S(0.8, 0.9, 0.85)], [False, False], ms=3.0)
    precision = _Run([_S(0.99, 0.9, 0.94), _S(0.0, 0.0, 0.0)], [False, True], ms=2.0)
    traf = _Run([_S(0.9, 0.9, 0.9), _S(0.5, 0.5, 0.5)], [False, False], ms=10.0)
    out = rep.set_report(
        "ja", pages, {"search": search, "precision": precision, "traf-bytes": traf}
    )
    checks = out["checks"]
    assert checks["recall_gain"]["value"] == 0.475 and checks["recall_gain"]["holds"]
    assert checks["f1_gap"]["value"] == -0.415 and checks["f1_gap"]["holds"]
    assert checks["low_recall"]["pages"] == {"search": [], "precision": ["b"]}
    assert checks["empty_with_gold"]["pages"]["precision"] == ["b"]
    assert not checks["empty_with_gold"]["holds"]
    assert checks["precision_vs_traf"]["value"] == -0.23
    assert not checks["precision_vs_traf"]["holds"]
    assert checks["time_ratio"]["value"] == 0.3 and checks["time_ratio"]["holds"]
    assert out["kinds"]["listing"]["systems"]["precision"]["f1"] == 0.0
    assert [w["page"] for w in out["worst"]["precision"]] == ["b", "a"]
    assert any("FAILS" in line for line in rep.render("ja", out))
