"""The picture: a PNG of the board from a view, with the pieces, moves and shots."""

import io
import time

from PIL import Image

from .conftest import LC, PR, position, run


def test_picture_is_a_png_of_the_whole_board(engine):
    state = engine.setup("little_big_horn", {}, None)
    png = engine.picture(engine.view(state, LC))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    assert img.width >= 16 * 40 and img.height >= 16 * 40


def test_picture_is_deterministic_and_fast(engine):
    state = engine.setup("little_big_horn", {}, None)
    view = engine.view(state, PR)
    engine.picture(view)  # fonts loaded once
    t0 = time.perf_counter()
    a = engine.picture(view)
    elapsed = time.perf_counter() - t0
    assert a == engine.picture(view)
    assert elapsed < 0.5  # aims at 60 ms; generous for a loaded test machine


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
    from pbem.engines.peaux_rouges.picture import CELL, MARGIN

    box = (MARGIN + 5 * CELL, MARGIN + 6 * CELL, MARGIN + 6 * CELL, MARGIN + 7 * CELL)
    assert before.crop(box).tobytes() != after.crop(box).tobytes()


def test_picture_uses_only_the_view(engine):
    """Drawn from the view: standing orders (absent from another side's view) change nothing."""
    state = engine.setup("little_big_horn", {}, None)
    a = engine.picture(engine.view(state, LC))
    state["standing"][PR]["answer"] = False
    assert engine.picture(engine.view(state, LC)) == a
