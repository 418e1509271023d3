"""The table as a PNG, drawn from a view: every table's melds as cards, the discard
pile's top card over the covered rest, the viewer's own hand (when the view holds one).

Drawn 380 px wide, so a phone shows it at its own size: every word at 10 px or more. A card
carries its points and its short name in its coloured band, so a meld fanned downwards (each
card covering all but the band of the one before) shows every card's name. Every word drawn
is in the picture's layout data (pbem.engines.labels), carried in the PNG; none overlaps
another. The title names the turn just played.

Words are English message ids marked ``N_`` and drawn through the reader's
``gettext``; card names and group labels stay as players write them in orders, but
for the two labels no order names (translated as the report translates them).

Each card face, card back and line of words is drawn once and kept as a palette tile
(bounded caches); a picture is a palette image on which the tiles are pasted, encoded
as a "P" PNG: the same look as drawing each card afresh, at a fraction of the time and
of the bytes.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from pbem.engines.accented_text import draw_text
from pbem.engines.base import format_message
from pbem.engines.fonts import font as _font
from pbem.engines.labels import Layout, text_box
from pbem.engines.pictures import BoundedCache, encode_png, palette_image, palette_index, quantize
from pbem.engines.rummy.messages import N_
from pbem.engines.rummy.state import KEY_LABEL

WIDTH = 380  # a phone's width: shown as drawn
MARGIN = 8
CARD_W, CARD_H = 86, 64
BAND = 18  # a card's coloured band: its points, its name, its mark
FAN = BAND + 1  # how much of a card shows under the next one in a meld: its band
PILE_OFFSET = 6  # how much of the covered discard pile shows under its top card
GAP = 8
NAME_SIZE, POINTS_SIZE, BODY_SIZE, CAPTION_SIZE, HEAD_SIZE, TITLE_SIZE = 10, 11, 11, 11, 12, 14
BG = (236, 230, 214)
INK = (40, 34, 28)
MUTED = (110, 100, 88)

COLORS = {
    "company": (54, 92, 150), "staff": (196, 160, 52), "scout": (70, 130, 80), "brave": (150, 84, 46),
    "village": (186, 150, 100), "custer": (30, 40, 80), "chief": (120, 36, 40), "coup_stick": (210, 120, 40),
    "sundance": (220, 190, 40), "draw_two": (118, 70, 120), "pick_two": (70, 80, 130), "hoka_hey": (150, 40, 90),
    "sabers": (90, 96, 104),
}
AFTER = N_("after %(label)s")
TITLE = N_("Little Bighorn Rummy - hand %(hand)s, turn %(turn)s")
TITLE_OVER = N_("Little Bighorn Rummy - hand %(hand)s, turn %(turn)s - game over")
TITLE_PLAYER = N_("Little Bighorn Rummy - hand %(hand)s, turn %(turn)s - %(player)s to play")
DECK = N_("deck")
DISCARD = N_("discard pile")
DISCARD_COUNT = N_("%(n)s cards, covered")
SUNDANCE = N_("Sundance played: no escape for Custer")
HEAD = N_("%(player)s: %(cards)s cards in hand, %(points)s points on the table, total %(total)s")
HEAD_ME = N_("%(player)s (you): %(cards)s cards in hand, %(points)s points on the table, total %(total)s")
HAND = N_("Your hand (%(n)s)")
PILE = N_("The discard pile, bottom to top, as you look through it (%(n)s)")
ESCAPED = N_("%(group)s (%(points)s) escaped")
WILD = N_("W")  # the corner mark of a wild card: one letter
TRANSLATED_KEYS = ("lone", "support")  # group labels no order names
COMPANY_TINT = {"C": (160, 50, 50), "E": (120, 120, 120), "F": (54, 92, 150), "I": (60, 120, 110), "L": (120, 80, 150), "M": (150, 110, 40)}
CARD_FACE, CARD_BACK, CARD_BACK_LINE, WHITE, OTHER = (250, 247, 240), (90, 60, 40), (200, 170, 120), (255, 255, 255), (120, 120, 120)

PALETTE = palette_image([BG, INK, MUTED, CARD_FACE, CARD_BACK, CARD_BACK_LINE, WHITE, OTHER, *COLORS.values(), *COMPANY_TINT.values()])
_BG_INDEX = palette_index(PALETTE)[BG]
# card faces and backs by what they show, lines of words by their text, size and colour:
# a game's cards and captions, a few hundred tiles
_CARDS: BoundedCache[tuple[Image.Image, Image.Image]] = BoundedCache(512)
_WORDS: BoundedCache[tuple[Image.Image, Image.Image]] = BoundedCache(1024)
_PAD = 4  # room around a line of words for accents above and descenders below
# libdeflate's level 6: a close draws one table per player; on a table of cards it gives
# about 18 KB in 3.4 ms where zlib's fast level 3 gave 24 KB in 2.1 (its level 6: 18 KB in 4.2)
COMPRESS_LEVEL = 6
_WIDTHS: BoundedCache[int] = BoundedCache(2048)  # a label's width, measured once (layout and drawing both ask)


def _card_color(card: dict) -> tuple[int, int, int]:
    if card["cat"] == "company":
        return COMPANY_TINT.get(card["kind"][0], COLORS["company"])
    return COLORS.get(card["cat"], (120, 120, 120))


def _wrap(text: str, width: int, font) -> list[str]:
    words, lines, cur = text.split(), [], ""
    for w in words:
        trial = (cur + " " + w).strip()
        if font.getlength(trial) <= width or not cur:
            cur = trial
        else:
            lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    return lines


def _fitted(text: str, size: int, width: float) -> str:
    """``text``, cut short with a final "." when wider than ``width`` at ``size``."""
    if text_box(text, size, 0, 0)[2] <= width:
        return text
    while len(text) > 1 and text_box(text + ".", size, 0, 0)[2] > width:
        text = text[:-1].rstrip()
    return text + "."


Words = tuple[tuple[str, tuple[float, float, float, float], int], ...]


def _card_words(card: dict, mark: str) -> tuple[Words, Words]:
    """The words of a card face (in its own pixels): those of its band (points, short name,
    mark), seen even when the next card of a meld covers the rest, and those of its body (the
    name again, wrapped larger), seen on a meld's last card, a hand's and the pile's."""
    y = BAND / 2 + 1
    points = str(card["points"])
    p_box = text_box(points, POINTS_SIZE, 4, y, "lm")
    band = [(points, p_box, POINTS_SIZE)]
    right = CARD_W - 4
    if mark:
        m_box = text_box(mark, POINTS_SIZE, right, y, "rm")
        band.append((mark, m_box, POINTS_SIZE))
        right = m_box[0] - 3
    name = _fitted(card["short"], NAME_SIZE, right - p_box[2] - 4)
    band.append((name, text_box(name, NAME_SIZE, p_box[2] + 4, y, "lm"), NAME_SIZE))
    body = [(line, text_box(line, BODY_SIZE, 5, BAND + 5 + 14 * i, "la"), BODY_SIZE)
            for i, line in enumerate(_wrap(card["short"], CARD_W - 10, _font(BODY_SIZE))[:3])]
    return tuple(band), tuple(body)


def _draw_card(d: ImageDraw.ImageDraw, card: dict | None, *, mark: str = "", face_down: bool = False) -> None:
    if face_down or card is None:
        d.rounded_rectangle([0, 0, CARD_W, CARD_H], 6, fill=CARD_BACK, outline=INK, width=1)
        d.rounded_rectangle([5, 5, CARD_W - 5, CARD_H - 5], 4, outline=CARD_BACK_LINE, width=1)
        return
    d.rounded_rectangle([0, 0, CARD_W, CARD_H], 6, fill=CARD_FACE, outline=INK, width=1)
    d.rounded_rectangle([1, 1, CARD_W - 1, BAND], 5, fill=_card_color(card))
    band, body = _card_words(card, mark)
    for (text, box, size), fill in zip(band, [WHITE] * len(band)):
        left, top, _r, _b = text_box(text, size, 0, 0)
        draw_text(d, (box[0] - left, box[1] - top), text, _font(size), fill)
    for text, box, size in body:
        left, top, _r, _b = text_box(text, size, 0, 0)
        draw_text(d, (box[0] - left, box[1] - top), text, _font(size), INK)


def _tile(size: tuple[int, int], paint) -> tuple[Image.Image, Image.Image]:
    """What ``paint(draw)`` draws on a transparent tile, on the palette, and its mask
    (anti-aliased edges count as drawn: the tiles are pasted on the table's colour)."""
    im = Image.new("RGBA", size, BG + (0,))
    paint(ImageDraw.Draw(im))
    bg = Image.new("RGB", size, BG)
    bg.paste(im, (0, 0), im)
    return quantize(bg, PALETTE), im.getchannel("A").point(lambda a: 255 if a else 0)


def _paste_card(img: Image.Image, layout: Layout, x: int, y: int, card: dict | None, *, mark: str = "",
                face_down: bool = False, covered: bool = False) -> None:
    """A card at (x, y); its words recorded: the band's alone when ``covered`` (the next card
    of a meld hides the rest)."""
    back = face_down or card is None
    key = ("back",) if back else (card["cat"], card["kind"], card["points"], card["short"], mark)
    tile, mask = _CARDS.get(key, lambda: _tile((CARD_W + 1, CARD_H + 1), lambda d: _draw_card(d, card, mark=mark, face_down=back)))
    img.paste(tile, (x, y), mask)
    if back:
        return
    band, body = _card_words(card, mark)
    for text, (x0, y0, x1, y1), size in band + (() if covered else body):
        layout.fixed(text, (x0 + x, y0 + y, x1 + x, y1 + y), size, "card")


def _paste_text(img: Image.Image, layout: Layout, xy: tuple[float, float], text: str, size: int, fill, kind: str = "caption") -> float:
    """``draw_text`` at ``xy`` (top left), one tile a line, lines spaced as Pillow spaces them;
    each line recorded. Returns the y under the last line."""
    font = _font(size)
    step = font.getbbox("A")[3] + 4
    y = xy[1]
    for i, line in enumerate(text.split("\n")):
        def make(line=line):
            width = math.ceil(font.getlength(line)) + 3 * _PAD  # accents drawn by hand may reach past the last letter
            return _tile((width, size + 3 * _PAD), lambda d: draw_text(d, (_PAD, _PAD), line, font, fill))
        tile, mask = _WORDS.get((line, size, fill), make)
        y = xy[1] + i * step
        img.paste(tile, (round(xy[0]) - _PAD, round(y) - _PAD), mask)
        layout.fixed(line, text_box(line, size, round(xy[0]), round(y), "la"), size, kind)
    return y + step


def _lines(text: str, size: int, width: int) -> str:
    """``text`` wrapped to ``width`` at its " - " and then its spaces."""
    parts = text.split(" - ")
    out, cur = [], ""
    for part in parts:
        trial = f"{cur} - {part}" if cur else part
        if cur and text_box(trial, size, 0, 0)[2] > width:
            out.append(cur)
            cur = part
        else:
            cur = trial
    out.append(cur)
    wrapped = []
    for line in out:
        wrapped += _wrap(line, width, _font(size)) if text_box(line, size, 0, 0)[2] > width else [line]
    return "\n".join(wrapped)


def _group_cards(g: dict, gettext) -> list[tuple[dict, str]]:
    out = [(c, "") for c in g["cards"]]
    if g.get("wild"):
        out.append((g["wild"], gettext(WILD)))
    out += [(c, "+") for c in g.get("on", [])]
    return out


def _label(g: dict, gettext) -> str:
    label, key = g["label"], g["key"]
    if key in TRANSLATED_KEYS:  # "Raided Village 2" -> "Village razzié 2", as the report says
        label = label.replace(KEY_LABEL[key], gettext(KEY_LABEL[key]))
    if g.get("escaped"):
        return format_message(ESCAPED, {"group": label, "points": g["points"]}, gettext)
    return f"{label} ({g['points']})"


def _slot(g: dict, gettext) -> tuple[int, str]:
    """A meld's width on the table and its caption (wrapped to two lines when wider than a card)."""
    label = _label(g, gettext)
    caption = "\n".join(_wrap(label, CARD_W + GAP - 2, _font(CAPTION_SIZE))[:2])
    width = max(CARD_W, max(_WIDTHS.get((line, CAPTION_SIZE), lambda line=line: math.ceil(text_box(line, CAPTION_SIZE, 0, 0)[2]))
                            for line in caption.split("\n")))
    return width, caption


def _layout_groups(groups: list[dict], width: int, gettext) -> list[list[dict]]:
    rows, row, x = [], [], 0
    for g in groups:
        w, _caption = _slot(g, gettext)
        if row and x + w > width:
            rows.append(row)
            row, x = [], 0
        row.append(g)
        x += w + GAP
    if row:
        rows.append(row)
    return rows


def _resolved(view: dict) -> str | None:
    return view.get("resolved")


def _title(view: dict, gettext) -> str:
    args = {"hand": view["hand_no"], "turn": view["turn_no"], "player": view.get("player")}
    if view.get("outcome"):
        title = format_message(TITLE_OVER, args, gettext)
    else:
        title = format_message(TITLE_PLAYER if view.get("player") else TITLE, args, gettext)
    if _resolved(view):
        title += " - " + format_message(AFTER, {"label": _resolved(view)}, gettext)
    return title


def _head(view: dict, p: str, gettext) -> str:
    args = {"player": p, "cards": view["hand_sizes"][p], "points": view["table_points"][p], "total": view["totals"][p]}
    return format_message(HEAD_ME if p == view.get("me") else HEAD, args, gettext)


def _card_rows(cards: list[dict], width: int) -> list[list[dict]]:
    per_row = max(1, (width - CARD_W) // (CARD_W + 6) + 1)
    return [cards[i:i + per_row] for i in range(0, len(cards), per_row)] or [[]]


def _draw_rows(img: Image.Image, layout: Layout, rows: list[list[dict]], y: int, marked: dict | None) -> int:
    """Cards side by side, row under row (a hand, the pile looked through); ``marked`` gets a star."""
    for row in rows:
        for i, c in enumerate(row):
            _paste_card(img, layout, MARGIN + (CARD_W + 6) * i, y, c, mark="*" if marked and c["id"] == marked["id"] else "")
        y += CARD_H + 8
    return y


def _meld_height(g: dict, gettext) -> int:
    return FAN * (len(_group_cards(g, gettext)) - 1) + CARD_H


def draw(view: dict, gettext=None) -> bytes:
    """The PNG, its words in the reader's language (``gettext``; None: English)."""
    gettext = gettext or N_  # N_ returns the English id as it is
    roles = view["roles"]
    inner = WIDTH - 2 * MARGIN
    table_rows = {p: _layout_groups(view["tables"][p], inner, gettext) or [[]] for p in roles}
    hand = view.get("hand")
    hand_rows = _card_rows(hand, inner) if hand is not None else []
    pile = (view.get("this_turn") or {}).get("pile")  # only in the view of a player looking through it
    pile_rows = _card_rows(pile, inner) if pile else []
    title = _lines(_title(view, gettext), TITLE_SIZE, inner)
    heads = {p: _lines(_head(view, p, gettext), HEAD_SIZE, inner) for p in roles}
    captions = {p: [[_slot(g, gettext)[1] for g in row] for row in table_rows[p]] for p in roles}
    line = lambda size: _font(size).getbbox("A")[3] + 4  # noqa: E731  (Pillow's line spacing)
    height = MARGIN + line(TITLE_SIZE) * (title.count("\n") + 1) + 8 + CARD_H + 40 + MARGIN
    for p in roles:
        height += line(HEAD_SIZE) * (heads[p].count("\n") + 1) + 6
        for row, caps in zip(table_rows[p], captions[p]):
            tallest = max([_meld_height(g, gettext) for g in row] or [0])
            height += line(CAPTION_SIZE) * max([c.count("\n") + 1 for c in caps] or [0]) + tallest + 12
    for rows in (pile_rows, hand_rows):
        if rows:
            height += 24 + (CARD_H + 8) * len(rows)
    img = Image.new("P", (WIDTH, height + 200), _BG_INDEX)  # cut to what was drawn at the end
    img.putpalette(PALETTE.getpalette())
    layout = Layout(WIDTH, height)
    y = _paste_text(img, layout, (MARGIN, MARGIN), title, TITLE_SIZE, INK, "title") + 4
    # the deck and the discard pile
    _paste_card(img, layout, MARGIN, y, None, face_down=True)
    deck = gettext(DECK)
    _paste_text(img, layout, (MARGIN + CARD_W + 6, y + 4), f"{deck}\n{view['deck_size']}", 12, MUTED)
    top = view["discard"][-1:]  # the pile is covered by its top card: the view holds no more
    size = view.get("discard_size", len(top))
    x = MARGIN + CARD_W + 6 + max(40, math.ceil(text_box(deck, 12, 0, 0)[2]) + 10)  # room for a longer word than "deck"
    if size > 1:  # the covered cards, as one card's back under the top
        _paste_card(img, layout, x, y, None, face_down=True)
        x += PILE_OFFSET
    for c in top:
        _paste_card(img, layout, x, y, c)
    x += CARD_W + 6 if size else 0
    count = format_message(DISCARD_COUNT, {"n": size}, gettext)
    _paste_text(img, layout, (x, y + 4), "\n".join(_lines(t, 12, WIDTH - MARGIN - x) for t in (gettext(DISCARD), count)), 12, MUTED)
    y += CARD_H + 6
    if view.get("sundance_played"):
        _paste_text(img, layout, (MARGIN, y), _lines(gettext(SUNDANCE), 12, inner), 12, COLORS["chief"])
    y += 30
    # the tables: each meld a column of cards fanned downwards, its caption above
    for p in roles:
        y = _paste_text(img, layout, (MARGIN, y), heads[p], HEAD_SIZE, INK, "head") + 2
        for row, caps in zip(table_rows[p], captions[p]):
            x = MARGIN
            cap_h = line(CAPTION_SIZE) * max([c.count("\n") + 1 for c in caps] or [0])
            for g, caption in zip(row, caps):
                cards = _group_cards(g, gettext)
                _paste_text(img, layout, (x, y), caption, CAPTION_SIZE, MUTED)
                for i, (c, mark) in enumerate(cards):
                    _paste_card(img, layout, x, y + cap_h + FAN * i, c, mark=mark, covered=i < len(cards) - 1)
                x += _slot(g, gettext)[0] + GAP
            y += cap_h + max([_meld_height(g, gettext) for g in row] or [0]) + 12
    if pile:
        heading = _lines(format_message(PILE, {"n": len(pile)}, gettext), 14, inner)
        _paste_text(img, layout, (MARGIN, y), heading, 14, INK, "head")
        y = _draw_rows(img, layout, pile_rows, y + 24 * (heading.count("\n") + 1), None)
    if hand is not None:
        _paste_text(img, layout, (MARGIN, y), format_message(HAND, {"n": len(hand)}, gettext), 14, INK, "head")
        y = _draw_rows(img, layout, hand_rows, y + 24, (view.get("this_turn") or {}).get("drawn"))
    img = img.crop((0, 0, WIDTH, y + MARGIN))
    layout.height = img.height
    return encode_png(img, compress_level=COMPRESS_LEVEL, layout=layout)
