"""A battle pack as a PDF, printed by Chromium (issue 15).

Why Chromium: the machines that run Admiralty already have Debian's Chromium (the browser tests use
it) and Playwright drives it; WeasyPrint would need Pango and its system libraries besides. The pack's
HTML page is printed exactly as a browser prints it, with its print stylesheet (A4, no navigation).
``CHROMIUM_PATH`` (default ``/usr/bin/chromium``) names the browser.
"""

from __future__ import annotations

from django.conf import settings
from playwright.sync_api import sync_playwright

_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]


class PdfUnavailable(RuntimeError):
    """Chromium could not be started or could not print the page."""


def html_to_pdf(html: str) -> bytes:
    """Print a self-contained HTML page (inline styles, no outside resources) to an A4 PDF."""
    path = getattr(settings, "CHROMIUM_PATH", "/usr/bin/chromium")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=path, args=_ARGS)
            try:
                page = browser.new_page()
                page.set_content(html, wait_until="load")
                pdf = page.pdf(
                    format="A4",
                    print_background=True,
                    margin={"top": "12mm", "bottom": "12mm", "left": "10mm", "right": "10mm"},
                )
            finally:
                browser.close()
    except Exception as exc:  # Playwright raises its own error types; the page says what happened
        raise PdfUnavailable(
            f"The PDF could not be printed ({type(exc).__name__}); use the printable page instead."
        ) from exc
    return pdf
