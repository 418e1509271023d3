"""The player's page links each of the player's pictures at full size: the whole map and the
close-ups the reports carry (Last Full Measure: the player's sectors), each served to the
player's token alone."""

import re

from pbem.engines.pictures import layout_of

CSA, USA = "stuart@players.example", "gregg@players.example"


def test_the_players_page_links_every_picture_at_full_size(client, svc):
    gid = svc.games.create("lfm", "east_cavalry_field", {"csa": CSA, "usa": USA})
    player = next(p for p in svc.records.players(gid) if p["email"] == USA)
    token = svc.records.token_for(player["id"])
    page = client.get(f"/play/{gid}/{token}").get_data(as_text=True)
    links = re.findall(rf'href="(/play/{gid}/{token}/picture/(\w+)\.png)"', page)
    names = [name for _url, name in links]
    assert names[0] == "map" and any(n.startswith("sector") for n in names), names
    for url, name in links:
        response = client.get(url)
        assert response.status_code == 200 and response.mimetype == "image/png", url
        assert layout_of(response.data)["labels"], name  # the picture itself, words and all
    assert client.get(f"/play/{gid}/{token}/picture/nosuch.png").status_code == 404
    assert client.get(f"/play/{gid}/not-a-token/picture/map.png").status_code == 404
