"""Production: every secret from the environment, no defaults; ``check --deploy`` clean."""

from config.settings.base import *  # noqa: F403
from config.settings.base import env

SECRET_KEY = env("DJANGO_SECRET_KEY")
DEBUG = False
DATABASES = {"default": env.db("DATABASE_URL")}
DATABASES["default"].update(DATABASE_CONNECTION_SETTINGS)  # noqa: F405 — persistent, health-checked
CELERY_BROKER_URL = env("CELERY_BROKER_URL")
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default=CELERY_BROKER_URL)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")
# Links in mail: the site's public address (by default the first allowed host, over HTTPS).
SITE_URL = env("SITE_URL", default=f"https://{ALLOWED_HOSTS[0]}" if ALLOWED_HOSTS else "")

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
# Load balancers probe the health check over plain HTTP: a redirect to https would read as "down".
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

# No HTTP Basic on the API in production: scripts use personal tokens (Bearer), never a password.
API_BASIC_AUTH = env.bool("API_BASIC_AUTH", default=False)
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_AUTHENTICATION_CLASSES": [
        c
        for c in API_AUTHENTICATION_CLASSES  # noqa: F405
        if API_BASIC_AUTH or c != "campaign.api.authentication.LockoutAwareBasicAuthentication"
    ],
}
