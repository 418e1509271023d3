"""Read models for the web pages, one module per audience: the moderators' console,
the public archive, and one player's own page. The web never touches the store:
every page asks one method here for plain dicts."""
