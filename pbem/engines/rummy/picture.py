"""The table as a PNG, drawn from a view: every table's melds as cards, the discard
pile's top card over the covered rest, the viewer's own hand (when the view holds one).

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

from pbem.engines.base import format_message
from pbem.engines.fonts import font as _font
from pbem.engines.accented_text import draw_text, text_length
from pbem.engines.pictures import BoundedCache, encode_png, palette_image, palette_index, quantize
from pbem.engines.rummy.messages import N_
from pbem.engines.rummy.state import KEY_LABEL

WIDTH = 1040
MARGIN = 16
CARD_W, CARD_H = 58, 82
STEP = 24  # how much of a card shows under the next one in a meld
PILE_OFFSET = 6  # how much of the covered discard pile shows under its top card
GAP = 18
BG = (236, 230, 214)
INK = (40, 34, 28)
MUTED = (110, 100, 88)

COLORS = {
    "company": (54, 92, 150), "staff": (196, 160, 52), "scout": (70, 130, 80), "brave": (150, 84, 46),
    "village": (186, 150, 100), "custer": (30, 40, 80), "chief": (120, 36, 40), "coup_stick": (210, 120, 40),
    "sundance": (220, 190, 40), "draw_two": (118, 70, 120), "pick_two": (70, 80, 130), "hoka_hey": (150, 40, 90),
    "sabers": (90, 96, 104),
}
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
    return lines[:3]


def _draw_card(d: ImageDraw.ImageDraw, x: int, y: int, card: dict | None, *, mark: str = "", face_down: bool = False) -> None:
    if face_down or card is None:
        d.rounded_rectangle([x, y, x + CARD_W, y + CARD_H], 6, fill=CARD_BACK, outline=INK, width=1)
        d.rounded_rectangle([x + 5, y + 5, x + CARD_W - 5, y + CARD_H - 5], 4, outline=CARD_BACK_LINE, width=1)
        return
    color = _card_color(card)
    d.rounded_rectangle([x, y, x + CARD_W, y + CARD_H], 6, fill=CARD_FACE, outline=INK, width=1)
    d.rounded_rectangle([x + 2, y + 2, x + CARD_W - 2, y + 19], 4, fill=color)
    pts = card["points"]
    d.text((x + 5, y + 4), str(pts), fill=WHITE, font=_font(12))
    if mark:
        draw_text(d, (x + CARD_W - 14, y + 4), mark, _font(12), WHITE)
    for i, line in enumerate(_wrap(card["short"], CARD_W - 8, _font(11))):
        d.text((x + 4, y + 24 + 13 * i), line, fill=INK, font=_font(11))


def _tile(size: tuple[int, int], paint) -> tuple[Image.Image, Image.Image]:
    """What ``paint(draw)`` draws on a transparent tile, on the palette, and its mask
    (anti-aliased edges count as drawn: the tiles are pasted on the table's colour)."""
    im = Image.new("RGBA", size, BG + (0,))
    paint(ImageDraw.Draw(im))
    bg = Image.new("RGB", size, BG)
    bg.paste(im, (0, 0), im)
    return quantize(bg, PALETTE), im.getchannel("A").point(lambda a: 255 if a else 0)


def _paste_card(img: Image.Image, x: int, y: int, card: dict | None, *, mark: str = "", face_down: bool = False) -> None:
    back = face_down or card is None
    key = ("back",) if back else (card["cat"], card["kind"], card["points"], card["short"], mark)
    tile, mask = _CARDS.get(key, lambda: _tile((CARD_W + 1, CARD_H + 1), lambda d: _draw_card(d, 0, 0, card, mark=mark, face_down=back)))
    img.paste(tile, (x, y), mask)


def _paste_text(img: Image.Image, xy: tuple[float, float], text: str, size: int, fill) -> None:
    """``draw_text`` at ``xy`` (top left), one tile a line, lines spaced as Pillow spaces them."""
    font = _font(size)
    step = font.getbbox("A")[3] + 4
    for i, line in enumerate(text.split("\n")):
        def make(line=line):
            width = math.ceil(font.getlength(line)) + 3 * _PAD  # accents drawn by hand may reach past the last letter
            return _tile((width, size + 3 * _PAD), lambda d: draw_text(d, (_PAD, _PAD), line, font, fill))
        tile, mask = _WORDS.get((line, size, fill), make)
        img.paste(tile, (round(xy[0]) - _PAD, round(xy[1] + i * step) - _PAD), mask)


def _group_cards(g: dict, gettext) -> list[tuple[dict, str]]:
    out = [(c, "") for c in g["cards"]]
    if g.get("wild"):
        out.append((g["wild"], gettext(WILD)))
    out += [(c, "+") for c in g.get("on", [])]
    return out


def _group_width(n: int) -> int:
    return CARD_W + STEP * max(0, n - 1)


def _label(g: dict, gettext) -> str:
    label, key = g["label"], g["key"]
    if key in TRANSLATED_KEYS:  # "Raided Village 2" -> "Village razzié 2", as the report says
        label = label.replace(KEY_LABEL[key], gettext(KEY_LABEL[key]))
    if g.get("escaped"):
        return format_message(ESCAPED, {"group": label, "points": g["points"]}, gettext)
    return f"{label} ({g['points']})"


def _slot(d: ImageDraw.ImageDraw, g: dict, gettext) -> int:
    label = _label(g, gettext)
    return max(_group_width(len(_group_cards(g, gettext))), _WIDTHS.get(label, lambda: int(text_length(d, label, _font(11)))) + 4)


def _layout_groups(d: ImageDraw.ImageDraw, groups: list[dict], x0: int, width: int, gettext) -> list[list[dict]]:
    rows, row, x = [], [], x0
    for g in groups:
        w = _slot(d, g, gettext)
        if row and x + w > x0 + width:
            rows.append(row)
            row, x = [], x0
        row.append(g)
        x += w + GAP
    if row:
        rows.append(row)
    return rows


def _title(view: dict, gettext) -> str:
    args = {"hand": view["hand_no"], "turn": view["turn_no"], "player": view.get("player")}
    if view.get("outcome"):
        return format_message(TITLE_OVER, args, gettext)
    return format_message(TITLE_PLAYER if view.get("player") else TITLE, args, gettext)


def _head(view: dict, p: str, gettext) -> str:
    args = {"player": p, "cards": view["hand_sizes"][p], "points": view["table_points"][p], "total": view["totals"][p]}
    return format_message(HEAD_ME if p == view.get("me") else HEAD, args, gettext)


def _card_rows(cards: list[dict], width: int) -> list[list[dict]]:
    per_row = max(1, (width - CARD_W) // (CARD_W + 6) + 1)
    return [cards[i:i + per_row] for i in range(0, len(cards), per_row)] or [[]]


def _draw_rows(img: Image.Image, rows: list[list[dict]], y: int, marked: dict | None) -> int:
    """Cards side by side, row under row (a hand, the pile looked through); ``marked`` gets a star."""
    for row in rows:
        for i, c in enumerate(row):
            _paste_card(img, MARGIN + (CARD_W + 6) * i, y, c, mark="*" if marked and c["id"] == marked["id"] else "")
        y += CARD_H + 8
    return y


def draw(view: dict, gettext=None) -> bytes:
    """The PNG, its words in the reader's language (``gettext``; None: English)."""
    gettext = gettext or N_  # N_ returns the English id as it is
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    roles = view["roles"]
    inner = WIDTH - 2 * MARGIN
    table_rows = {p: _layout_groups(measure, view["tables"][p], MARGIN, inner, gettext) or [[]] for p in roles}
    hand = view.get("hand")
    hand_rows = _card_rows(hand, inner) if hand is not None else []
    pile = (view.get("this_turn") or {}).get("pile")  # only in the view of a player looking through it
    pile_rows = _card_rows(pile, inner) if pile else []
    row_h = CARD_H + 24
    height = MARGIN + 30 + (CARD_H + 30) + sum(24 + row_h * len(table_rows[p]) for p in roles) + MARGIN
    for rows in (pile_rows, hand_rows):
        if rows:
            height += 24 + (CARD_H + 8) * len(rows)
    img = Image.new("P", (WIDTH, height), _BG_INDEX)
    img.putpalette(PALETTE.getpalette())
    d = measure
    y = MARGIN
    _paste_text(img, (MARGIN, y), _title(view, gettext), 18, INK)
    y += 30
    # the deck and the discard pile
    _paste_card(img, MARGIN, y, None, face_down=True)
    deck = gettext(DECK)
    _paste_text(img, (MARGIN + CARD_W + 6, y + 4), f"{deck}\n{view['deck_size']}", 12, MUTED)
    top = view["discard"][-1:]  # the pile is covered by its top card: the view holds no more
    size = view.get("discard_size", len(top))
    x = MARGIN + CARD_W + max(60, int(text_length(d, deck, _font(12))) + 14)  # room for a longer word than "deck"
    if size > 1:  # the covered cards, as one card's back under the top
        _paste_card(img, x, y, None, face_down=True)
        x += PILE_OFFSET
    for c in top:
        _paste_card(img, x, y, c)
    x += CARD_W + 8 if size else 0
    count = format_message(DISCARD_COUNT, {"n": size}, gettext)
    _paste_text(img, (x, y + 4), f"{gettext(DISCARD)}\n{count}", 12, MUTED)
    if view.get("sundance_played"):
        _paste_text(img, (x, y + 40), gettext(SUNDANCE), 12, COLORS["chief"])
    y += CARD_H + 30
    # the tables
    for p in roles:
        _paste_text(img, (MARGIN, y), _head(view, p, gettext), 14, INK)
        y += 24
        for row in table_rows[p]:
            x = MARGIN
            for g in row:
                cards = _group_cards(g, gettext)
                _paste_text(img, (x, y), _label(g, gettext), 11, MUTED)
                for i, (c, mark) in enumerate(cards):
                    _paste_card(img, x + STEP * i, y + 14, c, mark=mark)
                x += _slot(d, g, gettext) + GAP
            y += row_h
    if pile:
        _paste_text(img, (MARGIN, y), format_message(PILE, {"n": len(pile)}, gettext), 14, INK)
        y = _draw_rows(img, pile_rows, y + 24, None)
    if hand is not None:
        _paste_text(img, (MARGIN, y), format_message(HAND, {"n": len(hand)}, gettext), 14, INK)
        y = _draw_rows(img, hand_rows, y + 24, (view.get("this_turn") or {}).get("drawn"))
    return encode_png(img, compress_level=COMPRESS_LEVEL)
