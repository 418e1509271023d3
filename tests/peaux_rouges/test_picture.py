"""The picture: a PNG of the board from a view, with the pieces, moves and shots."""

import io

from PIL import Image

from .conftest import LC, PR, position, run


def test_picture_is_a_png_of_the_whole_board(engine):
    state = engine.setup("little_big_horn", {}, None)
    png = engine.picture(engine.view(state, LC))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    assert img.width >= 16 * 40 and img.height >= 16 * 40


def test_picture_is_the_same_drawn_afresh_or_from_the_caches(engine):
    """The terrain layer, the tokens and the finished pictures are kept between calls;
    dropping them all draws the same bytes."""
    from pbem.engines.peaux_rouges import picture

    state = engine.setup("little_big_horn", {}, None)
    view = engine.view(state, PR)
    a = engine.picture(view)
    assert engine.picture(view) == a
    for cache in (picture._FINISHED, picture._TERRAIN, picture._TILES):
        cache.clear()
    assert engine.picture(view) == a


def test_picture_is_a_palette_png(engine):
    """A palette image: one byte a pixel, the board's colours exact (the open ground's
    colour is the most common pixel)."""
    from pbem.engines.peaux_rouges.picture import COLOURS
    from pbem.engines.peaux_rouges.board import OPEN

    img = Image.open(io.BytesIO(engine.picture(engine.view(engine.setup("little_big_horn", {}, None), LC))))
    assert img.mode == "P"
    counts = sorted(img.convert("RGB").getcolors(1 << 16), reverse=True)
    assert counts[0][1] == COLOURS[OPEN]


def test_both_sides_share_one_drawing(engine):
    """Both sides see the same board: the second picture is the first one's PNG."""
    from pbem.engines.peaux_rouges import picture

    state = engine.setup("little_big_horn", {}, None)
    picture._FINISHED.clear()
    a = engine.picture(engine.view(state, LC))
    assert engine.picture(engine.view(state, PR)) == a and len(picture._FINISHED) == 1


def test_picture_shows_moves_and_shots(engine):
    from .conftest import TEST  # noqa: F401  (the test board is registered)

    state = position({"S1": "F9", "C": "F9", "I1": "F6", "CH1": "K3"}, flag="F9")
    quiet = engine.picture(engine.view(state, LC))
    new, _ = run(engine, state, "MOVE S1 F8 WITH FLAG\nFIRE S1 AT I1", rolls=[6, 1, 1, 1])
    busy = engine.picture(engine.view(new, LC))
    assert quiet != busy
    before = Image.open(io.BytesIO(quiet)).convert("RGB")
    after = Image.open(io.BytesIO(busy)).convert("RGB")
    # the square between F8 and F6 (F7) now carries the shot's line
    from pbem.engines.peaux_rouges.picture import CELL, MARGIN, TOP

    box = (MARGIN + 5 * CELL, TOP + MARGIN + 6 * CELL, MARGIN + 6 * CELL, TOP + MARGIN + 7 * CELL)
    assert before.crop(box).tobytes() != after.crop(box).tobytes()


def test_picture_uses_only_the_view(engine):
    """Drawn from the view: standing orders (absent from another side's view) change nothing."""
    state = engine.setup("little_big_horn", {}, None)
    a = engine.picture(engine.view(state, LC))
    state["standing"][PR]["answer"] = False
    assert engine.picture(engine.view(state, LC)) == a


def test_every_word_is_in_the_layout_data_and_the_close_ups_read_on_a_phone(engine):
    """The map and each close-up carry their layout data: no two words overlap, every piece on
    the board shows its code (the positions list's), every square name sits in the margins; a
    close-up is 8 by 8 squares about 400 px wide, its words at 12 px or more, and holds the
    reader's pieces; the title names the phase just played."""
    from pbem.engines.labels import overlaps
    from pbem.engines.pictures import layout_of

    state = position({"S1": "F9", "C": "F9", "O1": "G9", "I1": "F6", "CH1": "K3", "T1": "L10"}, flag="F9")
    new, _ = run(engine, state, "MOVE S1 F8 WITH FLAG\nFIRE S1 AT I1", rolls=[6, 1, 1, 1])
    view = engine.view(new, LC)
    pictures = engine.pictures(view)
    assert set(pictures) >= {"map", "near"}
    for name, png in pictures.items():
        layout = layout_of(png)
        assert not overlaps(layout) and not layout["unplaced"], name
        codes = {x["text"] for x in layout["labels"] if x["kind"] == "name"}
        title = next(x["text"] for x in layout["labels"] if x["kind"] == "title")
        assert f"after {view['last']['phase']}" in title, title
        if name == "map":
            assert codes == {p["code"] for p in view["pieces"] if p["square"]}
            assert {x["text"] for x in layout["labels"] if x["kind"] == "square"} == {chr(65 + i) for i in range(12)} | {str(j) for j in range(1, 11)}
        else:
            assert 350 <= layout["width"] <= 400 and min(x["size"] for x in layout["labels"]) >= 12, name
    near = {x["text"] for x in layout_of(pictures["near"])["labels"] if x["kind"] == "name"}
    assert {"S1", "C", "O1"} <= near  # the window holding the most of the reader's pieces
