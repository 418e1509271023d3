"""The ACW pictures, drawn from a view (never from the state).

``draw_pictures(view, gettext=None) -> {name: PNG}``:
- ``map``: the whole table, its title naming the turn just resolved, the 6-inch grid lettered
  and numbered in its margins (the references orders use), terrain with contour shading and
  crest lines, each stand a small rectangle along its facing with a white front edge, every
  unit labelled with its short name (the positions list's), objectives ringed in gold with
  their points, this turn's moves as tracks, fire as lines with their hits, close combats
  ringed, the viewer's own officers as yellow discs, supply wagons in sight as buff boxes;
  a legend under it;
- ``troops1``...: close-ups of where the reader's own troops stand (an observer's: anyone's),
  at most ``MAX_TROOPS``;
- ``fight1``...: close-ups of where this turn's close combats were, else where fire struck,
  at most ``MAX_FIGHTS``.
A close-up shows ``CLOSE_W`` by ``CLOSE_H`` inches about 370 px wide with no word under 10 px, so
it reads on a phone as drawn. Every word is a label of the shared placement
(``pbem.engines.labels``): names, landmarks and hits are placed clear of each other and of the
stands, with a leader line when they had to move away; each picture carries that layout data.

Words drawn are English message ids through the reader's ``gettext``; names stay as they are.
"""

from __future__ import annotations

import math
import string
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from pbem.engines.base import format_message
from pbem.engines.labels import Layout as Labels
from pbem.engines.labels import draw_placed, text_box
from pbem.engines.pictures import encode_png, palette_image, quantize

from .formations import Layout
from .messages import N_
from .scenario import generation, load

WIDTH = 720          # the whole table, at a mail's width
PAD = 6
MARGIN = 16          # the grid's letters and numbers round the table
COMPRESS_LEVEL = 6
CLOSE_W, CLOSE_H = 20.0, 13.0   # inches a close-up shows
CLOSE_SCALE = 18.0              # pixels an inch on a close-up: 360 px for 20 inches
MAX_TROOPS, MAX_FIGHTS = 3, 3


@dataclass(frozen=True)
class Style:
    name: int      # a unit's short name
    place: int     # a landmark's name
    grid: int      # the grid's letters and numbers
    title: int
    hits: int


OVERVIEW = Style(name=10, place=10, grid=9, title=13, hits=10)
CLOSE_UP = Style(name=11, place=11, grid=10, title=12, hits=11)
LEGEND_SIZE = 10

PAPER = (236, 232, 214)
LABEL_PAPER = (255, 252, 240)
INK = (30, 30, 30)
GRID = (200, 195, 175)
GRID_INK = (90, 84, 64)
HILL = (214, 196, 150)
HILL_EDGE = (170, 150, 110)
WOODS = (118, 160, 100)
WOODS_EDGE = (60, 90, 50)
TOWN = (190, 120, 100)
ROAD = (150, 120, 80)
STREAM = (70, 120, 200)
BRIDGE = (120, 90, 60)
FENCE = (90, 70, 40)
CREST = (120, 80, 30)
GOLD = (212, 160, 20)
MOVE = (90, 90, 90)
ROUT = (220, 50, 50)
FIRE = (230, 120, 0)
HITS = (190, 40, 0)
COMBAT = (220, 0, 0)
OFFICER = (250, 220, 60)
WAGON = (225, 205, 160)
WHITE = (255, 255, 255)
SIDES = {"union": (40, 70, 160), "confederate": (140, 140, 146)}
SIDE_PAPER = {"union": (214, 224, 248), "confederate": (232, 232, 232)}
FALLBACK = [(40, 70, 160), (160, 60, 50)]
_PALETTE = palette_image([PAPER, LABEL_PAPER, INK, GRID, GRID_INK, HILL, HILL_EDGE, WOODS, WOODS_EDGE, TOWN, ROAD, STREAM,
                          BRIDGE, FENCE, CREST, GOLD, MOVE, ROUT, FIRE, HITS, COMBAT, OFFICER, WAGON, WHITE,
                          *SIDES.values(), *SIDE_PAPER.values(), *FALLBACK,
                          *(tuple(max(0, c - 18 * i) for c in HILL) for i in range(1, 4)),
                          *(tuple(min(255, c + 80) for c in s) for s in SIDES.values())])

AFTER = N_("%(title)s - after turn %(turn)s of %(turns)s")
BEFORE = N_("%(title)s - before turn %(turn)s of %(turns)s")
DEPLOYED = N_("%(title)s - after deployment, before turn 1 of %(turns)s")
TROOPS_TITLE = N_("Your troops around %(square)s, %(when)s")
ALL_TROOPS_TITLE = N_("Troops around %(square)s, %(when)s")
FIGHT_TITLE = N_("Fighting around %(square)s, %(when)s")
AFTER_TURN = N_("after turn %(turn)s")
AT_START = N_("at the start")
OBJECTIVE = N_("%(name)s: %(points)s pts")
OBJECTIVE_ONE = N_("%(name)s: 1 pt")
LEGEND = [
    ("union", N_("a Union regiment or battery: its stands, white front edge, short name")),
    ("confederate", N_("a Confederate regiment or battery (paler: routed)")),
    ("objective", N_("objective: gold ring where it is held, its points")),
    ("move", N_("moves this turn; red: routs")),
    ("fire", N_("fire this turn, with its hits")),
    ("combat", N_("close combat")),
    ("officer", N_("your officers (named when riding alone)")),
    ("wagon", N_("supply wagon (optional rule)")),
]


def _english(msgid: str) -> str:
    return msgid


@dataclass(frozen=True)
class Frame:
    """Inches to pixels: ``(x - x0) * s + left``."""
    x0: float
    y0: float
    s: float
    left: float
    top: float

    def px(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.x0) * self.s + self.left, (y - self.y0) * self.s + self.top


# --- the table without troops ------------------------------------------------------------------------
@lru_cache(maxsize=16)
def _terrain(name: str, registration: int, window: tuple[float, float, float, float], s: float,
             size: tuple[int, int], offset: tuple[float, float]) -> Image.Image:
    """Terrain, contours, crest lines and the grid's lines of ``window`` (inches) at ``s`` pixels
    an inch, on a picture of ``size`` whose window starts at ``offset`` (the same every turn)."""
    t = load(name).table
    frame = Frame(window[0], window[1], s, *offset)
    px = frame.px
    img = Image.new("RGB", size, PAPER)
    d = ImageDraw.Draw(img)
    for f in t.hills:
        for level in range(1, f.level + 1):
            shade = tuple(max(0, c - 18 * (level - 1)) for c in HILL)
            d.polygon([px(*p) for p in f.shape.exterior.coords], fill=shade, outline=HILL_EDGE)
    for f in t.features:
        if f.kind in ("woods", "town"):
            d.polygon([px(*p) for p in f.shape.exterior.coords], fill=WOODS if f.kind == "woods" else TOWN,
                      outline=WOODS_EDGE)
    for f in t.features:
        if f.kind == "road":
            d.line([px(*p) for p in f.shape.coords], fill=ROAD, width=max(3, round(s * 0.4)))
        elif f.kind == "stream":
            d.line([px(*p) for p in f.shape.coords], fill=STREAM, width=max(2, round(s * 0.3)))
            for p in f.fords:
                d.ellipse([px(p.x - 0.6, p.y - 0.6), px(p.x + 0.6, p.y + 0.6)], outline=STREAM, width=2)
            for p in f.bridges:
                d.rectangle([px(p.x - 0.8, p.y - 0.5), px(p.x + 0.8, p.y + 0.5)], fill=BRIDGE)
        elif f.kind in ("fence", "wall", "hedge", "breastworks"):
            d.line([px(*p) for p in f.shape.coords], fill=FENCE, width=2)
    for f in t.hills:
        if f.crest is not None:
            pts = [px(*p) for p in f.crest.coords]
            for a, b in zip(pts, pts[1:]):
                _dashed(d, a, b, CREST)
    for i in range(t.columns + 1):
        d.line([px(i * t.grid, 0), px(i * t.grid, t.height)], fill=GRID)
    for j in range(t.rows + 1):
        d.line([px(0, j * t.grid), px(t.width, j * t.grid)], fill=GRID)
    # what lies outside the window is paper (the margins hold the grid's words)
    left, top = frame.px(window[0], window[1])
    right, bottom = frame.px(window[2], window[3])
    d.rectangle([0, 0, size[0], top - 1], fill=PAPER)
    d.rectangle([0, bottom + 1, size[0], size[1]], fill=PAPER)
    d.rectangle([0, 0, left - 1, size[1]], fill=PAPER)
    d.rectangle([right + 1, 0, size[0], size[1]], fill=PAPER)
    d.rectangle([left, top, right, bottom], outline=GRID_INK)
    return img


def _dashed(d, a, b, fill, dash: float = 6.0) -> None:
    (x0, y0), (x1, y1) = a, b
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    if length == 0:
        return
    n = int(length // dash)
    for i in range(0, n, 2):
        t0, t1 = i * dash / length, min(1.0, (i + 1) * dash / length)
        d.line([(x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0), (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)], fill=fill, width=2)


# --- titles and places -------------------------------------------------------------------------------
def title(view: dict, _) -> str:
    """The whole table's title, naming the turn just resolved."""
    done = view.get("resolved")
    args = {"title": view["title"], "turn": view["turn"], "turns": view["turns"]}
    if done == "D":
        return format_message(DEPLOYED, args, _)
    if done:
        return format_message(AFTER, dict(args, turn=done[1:]), _)
    return format_message(BEFORE, args, _)


def _when(view: dict, _) -> str:
    done = view.get("resolved")
    return format_message(AFTER_TURN, {"turn": done[1:]}, _) if done and done != "D" else _(AT_START)


def square(table: dict, x: float, y: float) -> str:
    grid = table["grid"]
    columns, rows = int(table["width"] // grid), int(table["height"] // grid)
    col, row = min(max(int(x // grid), 0), columns - 1), min(max(int(y // grid), 0), rows - 1)
    return f"{string.ascii_uppercase[col]}{row + 1}"


def _on_table(u: dict) -> bool:
    return u["status"] != "reserve" and "x" in u


def _window(table: dict, cx: float, cy: float) -> tuple[float, float, float, float]:
    """The close-up's window centred on (cx, cy), kept on the table."""
    x0 = min(max(cx - CLOSE_W / 2, 0.0), max(table["width"] - CLOSE_W, 0.0))
    y0 = min(max(cy - CLOSE_H / 2, 0.0), max(table["height"] - CLOSE_H, 0.0))
    return (x0, y0, x0 + CLOSE_W, y0 + CLOSE_H)


def _clusters(points: list[tuple[float, float]], most: int) -> list[tuple[float, float]]:
    """Centres of at most ``most`` windows covering ``points`` (the first uncovered point starts
    a window; every point within half a window of it joins, and the window centres on them)."""
    out: list[tuple[float, float]] = []
    left = list(points)
    while left and len(out) < most:
        x, y = left[0]
        group = [(px, py) for px, py in left if abs(px - x) <= CLOSE_W / 2 and abs(py - y) <= CLOSE_H / 2]
        cx, cy = sum(p[0] for p in group) / len(group), sum(p[1] for p in group) / len(group)
        left = [(px, py) for px, py in left if not (abs(px - cx) <= CLOSE_W / 2 - 1 and abs(py - cy) <= CLOSE_H / 2 - 1)]
        out.append((cx, cy))
    return out


def troop_spots(view: dict) -> list[tuple[float, float]]:
    """Where the reader's own troops stand (an observer's: anyone's), one window each."""
    role = view.get("role")
    mine = [(u["x"], u["y"]) for u in view["units"] if _on_table(u) and (role not in view["sides"] or u["side"] == role)]
    return _clusters(sorted(mine), MAX_TROOPS)


def engagements(view: dict) -> list[tuple[float, float]]:
    """Where this turn's close combats were, else where fire struck, one window each."""
    points = [tuple(c["at"]) for c in view["combats"]] + [tuple(f["to"]) for f in view["fires"] if f["hits"]]
    return _clusters(points, MAX_FIGHTS)


# --- drawing ----------------------------------------------------------------------------------------
class Scene:
    """One picture being drawn: its image, its labels and how inches map to its pixels."""

    def __init__(self, view: dict, window, s: float, style: Style, size: tuple[int, int], offset: tuple[float, float]):
        self.view, self.window, self.style = view, window, style
        self.frame = Frame(window[0], window[1], s, *offset)
        self.img = _terrain(view["scenario"], generation(), tuple(window), s, size, offset).copy()
        self.d = ImageDraw.Draw(self.img)
        self.labels = Labels(*size)
        self.colour = {r: SIDES.get(r, FALLBACK[i % 2]) for i, r in enumerate(view["sides"])}

    def px(self, x: float, y: float) -> tuple[float, float]:
        return self.frame.px(x, y)

    def inside(self, x: float, y: float, margin: float = 0.0) -> bool:
        x0, y0, x1, y1 = self.window
        return x0 - margin <= x <= x1 + margin and y0 - margin <= y <= y1 + margin

    def grid_words(self) -> None:
        """The grid's letters above the table and numbers on its left (those the window shows)."""
        table, st = self.view["table"], self.style
        g = table["grid"]
        x0, y0, x1, y1 = self.window
        left, top = self.px(x0, y0)
        for i in range(int(table["width"] // g)):
            cx = (i + 0.5) * g
            if x0 <= cx <= x1:
                self.labels.fixed_text(self.d, (self.px(cx, 0)[0], top - MARGIN / 2), string.ascii_uppercase[i], st.grid,
                                       GRID_INK, "grid", anchor="mm")
        for j in range(int(table["height"] // g)):
            cy = (j + 0.5) * g
            if y0 <= cy <= y1:
                self.labels.fixed_text(self.d, (left - MARGIN / 2, self.px(0, cy)[1]), str(j + 1), st.grid, GRID_INK,
                                       "grid", anchor="mm")

    def moves_and_fire(self) -> list[tuple[str, tuple[float, float]]]:
        """Tracks and fire lines drawn; the hits to label, with where."""
        s = self.frame.s
        for m in self.view["moves"]:
            if len(m.get("path", [])) > 1:
                self.d.line([self.px(*p) for p in m["path"]], fill=ROUT if m.get("kind") == "rout" else MOVE,
                            width=max(1, round(s / 9)))
        hits = []
        for f in self.view["fires"]:
            a, b = self.px(*f["from"]), self.px(*f["to"])
            self.d.line([a, b], fill=FIRE, width=max(1, round(s / 9)))
            r = max(2.0, s / 5)
            self.d.ellipse([b[0] - r, b[1] - r, b[0] + r, b[1] + r], fill=FIRE)
            if f["hits"] and self.inside(*f["to"]):
                hits.append((str(f["hits"]), b))
        return hits

    def objectives(self) -> None:
        held = self.view.get("objectives", {})
        for obj in self.view.get("objective_points", []):
            x, y = obj["at"]
            r = obj["radius"] * self.frame.s
            cx, cy = self.px(x, y)
            self.d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=GOLD, width=3)
            holder = held.get(obj["name"])
            if holder:
                self.d.ellipse([cx - r + 4, cy - r + 4, cx + r - 4, cy + r - 4], outline=self.colour.get(holder, INK), width=2)

    def units(self) -> list[tuple[dict, tuple[float, float]]]:
        """Every unit on the table drawn, its box blocked; the names to place, with where."""
        out = []
        for u in self.view["units"]:
            if not _on_table(u) or not self.inside(u["x"], u["y"], 4.0):
                continue
            lay = Layout({"arm": u["arm"], "x": u["x"], "y": u["y"], "facing": u["facing"], "formation": u["formation"],
                          "mounted": u["mounted"], "stands": u["casualties"]}, self.view["scale"])
            fill = self.colour.get(u["side"], INK)
            if u["status"] == "routed":
                fill = tuple(min(255, c + 80) for c in fill)
            pts = []
            for shape in lay.stand_shapes():
                poly = [self.px(*p) for p in shape.exterior.coords]
                pts += poly
                self.d.polygon(poly, fill=fill, outline=INK)
            self.d.line([self.px(*p) for p in lay.front.coords], fill=WHITE, width=2)
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            self.labels.block((min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1))
            out.append((u, self.px(*lay.centre)))
        return out

    def officers_and_wagons(self) -> list[tuple[str, tuple[float, float]]]:
        out = []
        for o in self.view["officers"]:
            if "x" in o and not o.get("lost") and self.inside(o["x"], o["y"]):
                x, y = self.px(o["x"], o["y"])
                self.d.ellipse([x - 4, y - 4, x + 4, y + 4], fill=OFFICER, outline=INK)
                self.labels.block((x - 5, y - 5, x + 5, y + 5))
                if not o.get("attached"):
                    out.append((o["name"], (x, y)))
        for w in self.view.get("wagons", []):
            if "x" in w and self.inside(w["x"], w["y"]):
                x, y = self.px(w["x"], w["y"])
                self.d.rectangle([x - 6, y - 4, x + 6, y + 4], fill=WAGON, outline=self.colour.get(w["side"], INK), width=2)
                self.labels.block((x - 7, y - 5, x + 7, y + 5))
                out.append((w["name"], (x, y)))
        return out

    def combats(self) -> None:
        r = max(10.0, 1.5 * self.frame.s)
        for c in self.view["combats"]:
            x, y = self.px(*c["at"])
            self.d.ellipse([x - r, y - r, x + r, y + r], outline=COMBAT, width=2)

    def place_words(self, units, others, hits, _) -> None:
        """Names, landmarks and hits, placed clear of each other and of the stands."""
        st, inside = self.style, self.inside
        for text, (x, y) in hits:
            label = self.labels.place(text, st.hits, (x, y), "hits", clear=2.0, reach=40.0)
            if label:
                draw_placed(self.d, label, HITS, LABEL_PAPER, leader_ink=FIRE)
        for u, (x, y) in units:
            if not inside(u["x"], u["y"]):
                continue
            label = self.labels.place(u["short"], st.name, (x, y), "name", clear=2.0, pad=1.0)
            if label:
                draw_placed(self.d, label, INK, SIDE_PAPER.get(u["side"], LABEL_PAPER), leader_ink=INK)
        for text, (x, y) in others:
            label = self.labels.place(text, st.name, (x, y), "name", clear=3.0, pad=1.0)
            if label:
                draw_placed(self.d, label, INK, LABEL_PAPER)
        points = {o["name"]: o["points"] for o in self.view.get("objective_points", [])}
        for mark in self.view["table"]["landmarks"]:
            name, (lx, ly) = mark["name"], mark["at"]
            if not inside(lx, ly):
                continue
            text = format_message(OBJECTIVE if points[name] != 1 else OBJECTIVE_ONE, {"name": name, "points": points[name]}, _) if name in points else name
            label = self.labels.place(text, st.place, self.px(lx, ly), "place", clear=0.0, pad=1.0)
            if label:
                draw_placed(self.d, label, INK, (250, 236, 180) if name in points else LABEL_PAPER, leader_ink=GRID_INK)

    def draw(self, _) -> None:
        self.grid_words()
        self.objectives()
        hits = self.moves_and_fire()
        self.combats()
        units = self.units()
        others = self.officers_and_wagons()
        self.place_words(units, others, hits, _)

    def png(self) -> bytes:
        return encode_png(quantize(self.img, _PALETTE), COMPRESS_LEVEL, self.labels)


def _legend_sample(d: ImageDraw.ImageDraw, kind: str, x: float, y: float) -> None:
    """The little drawing before each legend line, in a 26 x 14 box from (x, y)."""
    if kind in SIDES:
        for i in range(3):
            d.rectangle([x + i * 8, y + 3, x + i * 8 + 7, y + 10], fill=SIDES[kind], outline=INK)
        d.line([(x, y + 3), (x + 23, y + 3)], fill=WHITE, width=2)
    elif kind == "objective":
        d.ellipse([x + 5, y, x + 19, y + 14], outline=GOLD, width=3)
    elif kind == "move":
        d.line([(x, y + 4), (x + 24, y + 4)], fill=MOVE, width=2)
        d.line([(x, y + 11), (x + 24, y + 11)], fill=ROUT, width=2)
    elif kind == "fire":
        d.line([(x, y + 7), (x + 20, y + 7)], fill=FIRE, width=2)
        d.ellipse([x + 18, y + 5, x + 23, y + 10], fill=FIRE)
    elif kind == "combat":
        d.ellipse([x + 5, y, x + 19, y + 14], outline=COMBAT, width=2)
    elif kind == "officer":
        d.ellipse([x + 8, y + 3, x + 16, y + 11], fill=OFFICER, outline=INK)
    elif kind == "wagon":
        d.rectangle([x + 6, y + 3, x + 18, y + 11], fill=WAGON, outline=SIDES["union"], width=2)


# an observer's picture shows no side's own officers: the line says whose they are
OFFICERS_SEEN = N_("officers (named when riding alone)")


def _legend_rows(view: dict, _) -> list[tuple[str, str]]:
    kinds = [k for k, _t in LEGEND if k in view["sides"] or k not in SIDES]
    if not view.get("wagons"):
        kinds.remove("wagon")
    reader = view.get("role")
    return [(k, _(OFFICERS_SEEN if k == "officer" and reader is None else t)) for k, t in LEGEND if k in kinds]


def draw_overview(view: dict, _) -> bytes:
    table = view["table"]
    s = (WIDTH - MARGIN - PAD) / table["width"]
    title_h = 20
    top, left = title_h + MARGIN, MARGIN
    map_h = table["height"] * s
    rows = _legend_rows(view, _)
    widest = max(text_box(t, LEGEND_SIZE, 0, 0)[2] for _k, t in rows) + 34
    columns = 2 if 2 * widest + 12 <= WIDTH - 2 * PAD else 1
    line = 18
    legend_top = int(top + map_h + PAD)
    height = legend_top + math.ceil(len(rows) / columns) * line + PAD
    scene = Scene(view, (0.0, 0.0, table["width"], table["height"]), s, OVERVIEW, (WIDTH, height), (left, top))
    scene.labels.fixed_text(scene.d, (PAD, 4), title(view, _), OVERVIEW.title, INK, "title")
    scene.labels.block((0, legend_top, WIDTH, height))  # the legend's strip: no word is placed there
    for i, (kind, text) in enumerate(rows):
        col, row = (i % columns, i // columns) if columns == 2 else (0, i)
        x, y = PAD + col * (widest + 12), legend_top + row * line
        _legend_sample(scene.d, kind, x, y + 1)
        scene.labels.fixed_text(scene.d, (x + 32, y + 8), text, LEGEND_SIZE, INK, "legend", anchor="lm", inside=True)
    scene.draw(_)
    return scene.png()


def draw_close_up(view: dict, centre: tuple[float, float], heading: str, _) -> bytes:
    window = _window(view["table"], *centre)
    title_h = CLOSE_UP.title + 10
    s = CLOSE_SCALE
    left, top = MARGIN, title_h + MARGIN
    size = (int(left + CLOSE_W * s + PAD), int(top + CLOSE_H * s + PAD))
    scene = Scene(view, window, s, CLOSE_UP, size, (left, top))
    scene.labels.block((0, 0, size[0], title_h))
    scene.draw(_)
    scene.labels.keep_within((0, title_h, size[0], size[1]))
    scene.d.rectangle([0, 0, size[0], title_h - 1], fill=PAPER)
    scene.labels.fixed_text(scene.d, (PAD, 4), heading, CLOSE_UP.title, INK, "title")
    return scene.png()


def draw_pictures(view: dict, gettext=None) -> dict[str, bytes]:
    """Every picture of a report: the whole table, the reader's troops, the fighting."""
    _ = gettext or _english
    out = {"map": draw_overview(view, _)}
    when = _when(view, _)
    own = view.get("role") in view["sides"]
    for i, (x, y) in enumerate(troop_spots(view), 1):
        heading = format_message(TROOPS_TITLE if own else ALL_TROOPS_TITLE, {"square": square(view["table"], x, y), "when": when}, _)
        out[f"troops{i}"] = draw_close_up(view, (x, y), heading, _)
    for i, (x, y) in enumerate(engagements(view), 1):
        heading = format_message(FIGHT_TITLE, {"square": square(view["table"], x, y), "when": when}, _)
        out[f"fight{i}"] = draw_close_up(view, (x, y), heading, _)
    return out


def draw_table(view: dict, gettext=None) -> bytes:
    """The whole table alone (``Engine.picture``)."""
    return draw_overview(view, gettext or _english)
