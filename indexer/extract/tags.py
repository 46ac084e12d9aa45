"""HTML tag classes shared by the extraction steps (HTML Living Standard §4 content models)."""

from __future__ import annotations

# Elements rendered as blocks by the HTML spec's default style sheet (§15.3).
BLOCK_TAGS = frozenset(
    {
        "address", "article", "aside", "blockquote", "body", "caption", "center", "dd",
        "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
        "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr",
        "html", "legend", "li", "listing", "main", "menu", "nav", "ol", "p", "plaintext",
        "pre", "section", "summary", "table", "tbody", "tfoot", "thead", "tr", "ul", "xmp",
    }
)  # fmt: skip

# Table cells: inline-separated by a space, as the gold text convention does.
CELL_TAGS = frozenset({"td", "th"})

# Never part of the text: scripts, styles, embedded objects, form controls and ruby
# annotations (furigana) — HTML §4.11, §4.10, §4.5.21.
DROP_TAGS = frozenset(
    {
        "script", "style", "noscript", "template", "iframe", "object", "embed", "applet",
        "svg", "math", "canvas", "audio", "video", "map", "input", "select", "option",
        "optgroup", "textarea", "button", "datalist", "output", "rt", "rp", "head",
        "title", "meta", "link", "base", "noembed", "noframes", "frameset", "frame",
    }
)  # fmt: skip

HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

# Page furniture by element name: navigation, site header/footer, side content, forms.
BOILERPLATE_TAGS = frozenset({"nav", "aside", "footer", "header", "form", "menu", "dialog"})

# Inline formatting without meaning for extraction; unwrapped so that their text joins
# the surrounding text (``<a>`` stays: link density needs it; ``<br>`` stays: a break).
UNWRAP_TAGS = (
    "abbr", "b", "big", "cite", "em", "font", "i", "kbd", "q", "s", "samp", "small",
    "span", "strong", "sub", "sup", "tt", "u", "var", "wbr", "nobr", "ins", "mark",
)  # fmt: skip
