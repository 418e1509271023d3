"""The table as a PNG, drawn from a view: every table's melds as cards, the discard
pile's top, the viewer's own hand (when the view holds one)."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH = 1040
MARGIN = 16
CARD_W, CARD_H = 58, 82
STEP = 24  # how much of a card shows under the next one in a meld
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
COMPANY_TINT = {"C": (160, 50, 50), "E": (120, 120, 120), "F": (54, 92, 150), "I": (60, 120, 110), "L": (120, 80, 150), "M": (150, 110, 40)}


@lru_cache(maxsize=None)
def _font(size: int):
    return ImageFont.load_default(size=size)


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
        d.rounded_rectangle([x, y, x + CARD_W, y + CARD_H], 6, fill=(90, 60, 40), outline=INK, width=1)
        d.rounded_rectangle([x + 5, y + 5, x + CARD_W - 5, y + CARD_H - 5], 4, outline=(200, 170, 120), width=1)
        return
    color = _card_color(card)
    d.rounded_rectangle([x, y, x + CARD_W, y + CARD_H], 6, fill=(250, 247, 240), outline=INK, width=1)
    d.rounded_rectangle([x + 2, y + 2, x + CARD_W - 2, y + 19], 4, fill=color)
    pts = card["points"]
    d.text((x + 5, y + 4), str(pts), fill=(255, 255, 255), font=_font(12))
    if mark:
        d.text((x + CARD_W - 14, y + 4), mark, fill=(255, 255, 255), font=_font(12))
    for i, line in enumerate(_wrap(card["short"], CARD_W - 8, _font(11))):
        d.text((x + 4, y + 24 + 13 * i), line, fill=INK, font=_font(11))


def _group_cards(g: dict) -> list[tuple[dict, str]]:
    out = [(c, "") for c in g["cards"]]
    if g.get("wild"):
        out.append((g["wild"], "W"))
    out += [(c, "+") for c in g.get("on", [])]
    return out


def _group_width(n: int) -> int:
    return CARD_W + STEP * max(0, n - 1)


def _label(g: dict) -> str:
    return f"{g['label']} ({g['points']})" + (" escaped" if g.get("escaped") else "")


def _slot(g: dict) -> int:
    return max(_group_width(len(_group_cards(g))), int(_font(11).getlength(_label(g))) + 4)


def _layout_groups(groups: list[dict], x0: int, width: int) -> list[list[dict]]:
    rows, row, x = [], [], x0
    for g in groups:
        w = _slot(g)
        if row and x + w > x0 + width:
            rows.append(row)
            row, x = [], x0
        row.append(g)
        x += w + GAP
    if row:
        rows.append(row)
    return rows


def draw(view: dict) -> bytes:
    roles = view["roles"]
    inner = WIDTH - 2 * MARGIN
    table_rows = {p: _layout_groups(view["tables"][p], MARGIN, inner) or [[]] for p in roles}
    hand = view.get("hand")
    hand_rows = []
    if hand is not None:
        per_row = max(1, (inner - CARD_W) // (CARD_W + 6) + 1)
        hand_rows = [hand[i:i + per_row] for i in range(0, len(hand), per_row)] or [[]]
    row_h = CARD_H + 24
    height = MARGIN + 30 + (CARD_H + 30) + sum(24 + row_h * len(table_rows[p]) for p in roles) + MARGIN
    if hand is not None:
        height += 24 + (CARD_H + 8) * len(hand_rows)
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    y = MARGIN
    title = f"Little Bighorn Rummy - hand {view['hand_no']}, turn {view['turn_no']}"
    if view.get("outcome"):
        title += " - game over"
    elif view.get("player"):
        title += f" - {view['player']} to play"
    d.text((MARGIN, y), title, fill=INK, font=_font(18))
    y += 30
    # the deck and the discard pile
    _draw_card(d, MARGIN, y, None, face_down=True)
    d.text((MARGIN + CARD_W + 6, y + 4), f"deck\n{view['deck_size']}", fill=MUTED, font=_font(12))
    pile = view["discard"]
    x = MARGIN + CARD_W + 60
    shown = pile[-6:]
    for i, c in enumerate(shown):
        _draw_card(d, x + STEP * i, y, c)
    x += _group_width(len(shown)) + 8 if shown else 0
    d.text((x, y + 4), f"discard pile\n{len(pile)} (top at right)", fill=MUTED, font=_font(12))
    if view.get("sundance_played"):
        d.text((x, y + 40), "Sundance played: no escape for Custer", fill=COLORS["chief"], font=_font(12))
    y += CARD_H + 30
    # the tables
    for p in roles:
        me = " (you)" if p == view.get("me") else ""
        head = f"{p}{me}: {view['hand_sizes'][p]} cards in hand, {view['table_points'][p]} points on the table, total {view['totals'][p]}"
        d.text((MARGIN, y), head, fill=INK, font=_font(14))
        y += 24
        for row in table_rows[p]:
            x = MARGIN
            for g in row:
                cards = _group_cards(g)
                d.text((x, y), _label(g), fill=MUTED, font=_font(11))
                for i, (c, mark) in enumerate(cards):
                    _draw_card(d, x + STEP * i, y + 14, c, mark=mark)
                x += _slot(g) + GAP
            y += row_h
    if hand is not None:
        d.text((MARGIN, y), f"Your hand ({len(hand)})", fill=INK, font=_font(14))
        y += 24
        drawn = (view.get("this_turn") or {}).get("drawn")
        for row in hand_rows:
            for i, c in enumerate(row):
                _draw_card(d, MARGIN + (CARD_W + 6) * i, y, c, mark="*" if drawn and c["id"] == drawn["id"] else "")
            y += CARD_H + 8
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False, compress_level=3)
    return buf.getvalue()
