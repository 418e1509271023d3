"""A Custer report lists where every unit is, the reader's side first, each by the short name
its counter carries on the picture (``A = Co. A``) as well as its full name."""

from pbem.dice import Dice
from pbem.engines.base import event_text
from pbem.engines.custer import CusterEngine
from pbem.service.render import environment

ENGINE = CusterEngine()


def test_every_unit_on_the_board_is_listed_by_hex_with_its_short_name_the_readers_side_first():
    state = ENGINE.setup("little_bighorn", {}, Dice("00" * 32))
    env = environment("en")
    for role, first in (("us", "US:"), ("indians", "Indians:")):
        view = ENGINE.view(state, role)
        text = env.get_template("custer/report.txt.j2").render(
            game={"id": "g"}, role=role, lang="en", phase_id="T1", view=view, events=[], orders={}, outcome=None,
            picture_cid=None)
        where = text.split("WHERE THE UNITS ARE", 1)[1]
        assert where.strip().startswith(first)
        lines = where.splitlines()
        for u in view["units"]:
            if u["status"] == "on_board":
                line = next(x for x in lines if x.strip().startswith(u["hex"] + ":"))
                assert u["name"] in line and (u["short"] == u["name"] or f"{u['short']} = {u['name']}" in line), (u, line)
    assert next(u for u in ENGINE.view(state, None)["units"] if u["name"] == "Co. A")["short"] == "A"
