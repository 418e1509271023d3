"""The console's replay check names the phases resolved under rules this release no longer
carries (issue 16: games that outlast a release), apart from the differences."""


def test_the_verify_page_names_phases_whose_rules_are_gone(logged_in, svc, game):
    resolved = [ph for ph in svc.records.phase_rows(game) if ph["status"] == "resolved"]
    with svc.store.write():
        svc.store.execute("UPDATE phases SET rules_version = '0' WHERE id = ?", (resolved[0]["id"],))
    page = logged_in.get(f"/console/games/{game}/verify").get_data(as_text=True)
    assert '<span class="pill warn">1 not replayed</span>' in page
    assert f"{resolved[0]['label']}: resolved under custer rules version 0, which this release no longer carries" in page
    assert "all agree" not in page and "difference(s)" not in page
    assert f"{len(resolved) - 1} resolved phase(s) replayed" in page
