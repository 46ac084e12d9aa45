"""Media furniture: slideshow captions, photo credits and the controls of a media box.

A picture's own caption inside an article stays (it describes what the article shows; the
``precision`` profile leaves captions out, :mod:`indexer.extract.article`). Three kinds of
text around pictures are never the article's, on any site:

- a slideshow's captions: a gallery beside the article (a box whose class names a
  gallery, slideshow, slider or carousel) repeats a caption per slide, often twice (a
  full and a truncated copy) with the credit again in its control bar;
- a photo credit: a short line in a picture's box (``<figure>``, ``<figcaption>``, a
  class naming a caption, a credit, a photo or an image) that names the credit
  ("Photo: …", "Image credit: …", "写真：…", a class ``credit`` or ``attribution``) or a
  picture agency ("Getty Images", "Reuters", "AFP" …);
- a media box's controls: "Caption", "Close", "Image 3 of 5", "Media playback is
  unsupported on your device".
"""

from __future__ import annotations

import re
import unicodedata

from indexer.extract.segment import Block
from indexer.extract.zones import Zones, folded, is_prose, lineage, names

_GALLERY = re.compile(r"galler|slideshow|slider|carousel|swiper|lightbox|slick|flexslider")
_GALLERY_LEVELS = 8
_PICTURE_TAGS = frozenset({"figure", "figcaption"})
_PICTURE = re.compile(r"caption|credit|photo|image|picture|figure|media|thumb|attribution")
_CREDIT_NAMES = re.compile(r"credit|attribution|courtesy|byline|source")
_PICTURE_LEVELS = 4
_CREDIT = re.compile(
    r"^[\s(\[（【]*(?:photo(?:graph)?s?|image|picture|pic|illustration|video|credits?|source"
    r"|courtesy|写真|画像|図版|イラスト|提供|出典|撮影)(?:\s+credits?)?\s*(?:by\b|of\b|:|：|=|＝|/)"
    r"|getty\s*images|\bgetty\b|shutterstock|\bistock|\balamy\b|associated press|\bap photo"
    r"|\breuters\b|\bafp\b|\bepa\b|時事通信|共同通信|ロイター"
)
_CONTROLS = re.compile(
    r"^(?:(?:image|photo|picture|slide)\s*)?\d+\s*(?:of|/)\s*\d+$"
    r"|^(?:caption|close|expand|enlarge|hide caption|show caption|toggle caption|full ?screen"
    r"|previous|next|prev|拡大|拡大する|閉じる|前へ|次へ)$"
    r"|media playback is unsupported|slideshow requires javascript|enable javascript to view"
)
# A credit or a control is a short line: at most this many characters.
_MAX_CREDIT = 80
# A credit line by its opening words ("Photo: …", "写真：…"): at most this wide …
_CREDIT_COLUMNS = 40
# … with at most this many hiragana (a particle or two: 写真は港湾局の提供).
_CREDIT_HIRAGANA = 3
_HIRAGANA = re.compile("[\u3041-\u309f]")


def _in_gallery(block: Block) -> bool:
    return any(_GALLERY.search(names(e)) for e in lineage(block.owner, _GALLERY_LEVELS))


def _beside_picture(block: Block) -> bool:
    """The block's element or its parent holds a picture (a slide: a picture and its
    caption)."""
    return any(e.find(".//img") is not None for e in lineage(block.owner, 2))


def _picture_box(block: Block) -> tuple[bool, bool]:
    """``(in a picture's box, in a credit's box)`` by the tags and names around the block."""
    picture = credit = False
    for element in lineage(block.owner, _PICTURE_LEVELS):
        named = names(element)
        picture = picture or element.tag in _PICTURE_TAGS or bool(_PICTURE.search(named))
        credit = credit or bool(_CREDIT_NAMES.search(named))
    return picture, credit


def is_media_furniture(block: Block) -> bool:
    """True for a slideshow's caption, a photo credit or a media control (module
    docstring)."""
    if block.heading:
        return False
    picture, credit = _picture_box(block)
    gallery = _in_gallery(block)
    if gallery and (picture or _beside_picture(block)):
        return True
    if block.chars > _MAX_CREDIT or is_prose(block):
        return False
    form = folded(block.text).strip()
    if _CONTROLS.search(form) is not None:
        return picture or gallery
    return picture and (credit or (_CREDIT.search(form) is not None and _credit_sized(form)))


def _credit_sized(form: str) -> bool:
    """A credit names a source, it does not describe the picture: at most
    :data:`_CREDIT_COLUMNS` columns (a CJK character two) and a couple of hiragana (写真：
    港湾局提供 is a credit, 写真：現場を記者が撮影した一枚 a caption)."""
    columns = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in form)
    return columns <= _CREDIT_COLUMNS and len(_HIRAGANA.findall(form)) <= _CREDIT_HIRAGANA


def media_blocks(zones: Zones) -> set[int]:
    """Kept blocks that are media furniture."""
    return {i for i in zones.kept if is_media_furniture(zones.seg.blocks[i])}
