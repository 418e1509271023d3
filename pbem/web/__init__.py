"""The web side of pbem: the moderators' console, dispute review, the public
archive and the players' private pages.

``create_app(svc)`` builds the Flask app; ``pbem serve`` runs it. Every page
asks the service for what it shows (the web never touches the store). One
blueprint per area: ``auth`` (login, logout), ``console`` (dashboard, game,
actions), ``disputes`` (corrections, manual adjustment) and ``public``
(archive, pictures, a player's token page).
"""

from __future__ import annotations

from datetime import timedelta

from flask import Flask, g, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect

from pbem.i18n import N_, translations
from pbem.resources import templates_dir
from pbem.web import auth, club_console, clubs, console, disputes, filters, public, unsubscribe

csrf = CSRFProtect()

# Pages that carry secrets (console, a player's token page) are never cached or
# sent as a Referer (a token link must not leak to another site).
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'"
    ),
}


def create_app(svc, *, testing: bool = False) -> Flask:
    app = Flask(__name__, template_folder=str(templates_dir() / "web"), static_folder="static")
    _configure(app, svc, testing)
    app.extensions["pbem.service"] = svc
    csrf.init_app(app)
    filters.install(app)
    _install_translations(app)
    for blueprint in (auth.bp, console.bp, disputes.bp, public.bp, unsubscribe.bp, clubs.bp, club_console.bp):
        app.register_blueprint(blueprint)
    csrf.exempt(unsubscribe.bp)  # a mail provider's one-click POST carries no form token: the signed link is the authority
    _install_request_hooks(app, svc)
    _register_error_pages(app)
    return app


def _configure(app: Flask, svc, testing: bool) -> None:
    """Session cookies, CSRF and request limits from the service's settings."""
    app.secret_key = svc.settings.secret_key
    app.config.update(
        TESTING=testing,
        SESSION_COOKIE_NAME="pbem_session",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=svc.settings.web_url.startswith("https://"),
        PERMANENT_SESSION_LIFETIME=timedelta(hours=12),
        WTF_CSRF_TIME_LIMIT=12 * 3600,
        MAX_CONTENT_LENGTH=max(svc.settings.max_orders_chars * 8, 1_000_000),
        SEND_FILE_MAX_AGE_DEFAULT=3600,
    )


def _install_translations(app: Flask) -> None:
    """Pages speak g.lang: a player's own page the player's language, the archive and the
    games list the reader's browser's (pbem.web.public); the console the moderator's
    own setting, else the browser's (auth.console_language)."""
    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(
        lambda message: translations(g.get("lang")).gettext(message),
        lambda singular, plural, n: translations(g.get("lang")).ngettext(singular, plural, n),
        newstyle=True,
    )


def _install_request_hooks(app: Flask, svc) -> None:
    """Before each request: who is logged in and which language to speak; after it: the
    security headers; at its end: the thread's database connection closed."""

    @app.before_request
    def _moderator():
        g.moderator = auth.current_moderator()
        g.lang = auth.console_language(g.moderator)

    @app.teardown_request
    def _release(exc=None):
        # werkzeug serves each request on a fresh thread: close its connection.
        release = getattr(svc, "release_thread_store", None)
        if release is not None:
            release()

    @app.after_request
    def _headers(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if request.path.startswith(("/console", "/play", "/login", "/unsubscribe")):
            response.headers["Cache-Control"] = "no-store"
        return response


ERROR_PAGES = (
    (401, N_("Log in first"), N_("This page is for moderators: log in first.")),
    (403, N_("Not yours"), N_("You do not moderate this game.")),
    (404, N_("Not found"), N_("There is nothing here. A link from an old mail may have been withdrawn: use the link in the latest mail from your game.")),
    (405, N_("Not allowed"), N_("That address does not take this kind of request.")),
    (413, N_("Too large"), N_("What you sent is larger than the server accepts.")),
)


def _register_error_pages(app: Flask) -> None:
    """A page in the site's own style, in the reader's language, for each error a visitor can meet."""

    @app.errorhandler(CSRFError)
    def _csrf(exc):
        return render_template("error.html", code=400, title=N_("The form could not be used"),
                               message=N_("The form expired or was not sent from this site. Go back, reload the page and try again.")), 400

    for code, title, message in ERROR_PAGES:
        app.register_error_handler(code, _error_page(code, title, message))


def _error_page(code: int, title: str, message: str):
    def handler(exc):
        return render_template("error.html", code=code, title=title, message=message), code
    return handler
