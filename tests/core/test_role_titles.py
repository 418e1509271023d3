"""Issue 16: a side is named by its title in the reader's language ("Union (Jane R.)"),
never by its role id, in every game: here through STATUS by mail, and the engines' tables."""

import pytest

from pbem.engines import get_engine
from pbem.i18n import gettext_for
from tests.core.helpers import address_of, outbox, raw_text
from tests.support import mail

FR, EN = "fr@joueurs.example", "en@players.example"

# engine, scenario, (first reader's role, second's), first reader's language (lfm and acw are
# offered in English only), the other side's title as each reads it (None: the other side is
# not awaited, so that reader's STATUS names nobody but "you")
GAMES = [
    ("peaux_rouges", "little_big_horn", ("longs_couteaux", "peaux_rouges"), "fr", "Peaux-Rouges", "Long Knives"),
    ("lfm", "east_cavalry_field", ("usa", "csa"), "en", "Confederates", None),
    ("acw", "mcphersons_ridge", ("confederate", "union"), "en", "Union", "Confederates"),
    ("rummy", "two", ("p2", "p1"), "fr", "Joueur 1", None),
]


@pytest.mark.parametrize("engine,scenario,roles,first_lang,fr_sees,en_sees", GAMES, ids=[g[0] for g in GAMES])
def test_status_names_the_sides_by_their_titles_in_each_readers_language(svc, engine, scenario, roles, first_lang,
                                                                          fr_sees, en_sees):
    fr_role, en_role = roles
    gid = svc.games.create(engine, scenario, {fr_role: FR, en_role: EN}, languages={fr_role: first_lang, en_role: "en"})
    svc.mailroom.receive(mail(FR, address_of(svc, gid, fr_role), "STATUS\n"))
    svc.mailroom.receive(mail(EN, address_of(svc, gid, en_role), "STATUS\n"))
    fr_text = raw_text(outbox(svc, kind="ack", to_addr=FR)[-1])
    en_text = raw_text(outbox(svc, kind="ack", to_addr=EN)[-1])
    for text, other_title, other_role, other_addr in ((fr_text, fr_sees, en_role, EN), (en_text, en_sees, fr_role, FR)):
        assert other_title is None or other_title in text
        assert other_role not in text.replace(other_addr, "")


@pytest.mark.parametrize("engine,titles", [
    ("peaux_rouges", {"longs_couteaux": ("Long Knives", "Longs-Couteaux"), "peaux_rouges": ("Indians", "Peaux-Rouges")}),
    ("custer", {"us": ("US", "Américains"), "indians": ("Indians", "Indiens")}),
    ("lfm", {"csa": ("Confederates", "Confédérés"), "usa": ("Union", "Union")}),
    ("acw", {"confederate": ("Confederates", "Confédérés"), "union": ("Union", "Union")}),
    ("rummy", {f"p{n}": (f"Player {n}", f"Joueur {n}") for n in range(1, 5)}),
])
def test_each_side_has_a_title_in_english_and_french(engine, titles):
    """Custer's "Indians" are "Indiens" in French; Peaux-Rouges' are "Peaux-Rouges" (a gettext context)."""
    e = get_engine(engine)
    for role, (english, french) in titles.items():
        assert e.role_title(role) == english
        assert e.role_title(role, gettext_for("en")) == english
        assert e.role_title(role, gettext_for("fr")) == french
    assert e.role_title("moderator", gettext_for("fr")) == "moderator"  # an unknown role keeps its id
