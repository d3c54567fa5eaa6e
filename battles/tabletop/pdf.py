"""A battle pack as a PDF, printed by Chromium (issue 15).

Why Chromium: the machines that run Admiralty already have Debian's Chromium (the browser tests use
it) and Playwright drives it; WeasyPrint would need Pango and its system libraries besides. The pack's
HTML page is printed exactly as a browser prints it, with its print stylesheet (A4, no navigation).
``settings.CHROMIUM_PATH`` names the browser (Debian's headless shell where installed, else chromium).

Chromium never runs inside a web request (issue 27: four concurrent prints held every web worker):
``campaign.tabletop.pdf.pack_pdf_request`` records the page to print (one :class:`~battles.models.PackPdf`
row per pack as it reads) and queues :func:`pack_pdf_print` (the ``battles.pack_pdf_print`` task) after
commit; the page says "preparing" until the stored PDF is ready.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from battles.models import PackPdf

logger = logging.getLogger(__name__)

# Launching Chromium can take several seconds on a loaded machine; one more try after a failure
# covers a browser that did not come up in time, without hiding a missing one.
_ATTEMPTS = 2
_LAUNCH_TIMEOUT_MS = 60_000

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


def _print_once(html: str, path: str) -> bytes:
    # Imported here, not at the top: Playwright's generated API is ~0.14 s of CPU to import, and this
    # module is imported by every web process, Celery worker and management command (through the GM's
    # table views), of which only the one printing a pack needs it.
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=_ARGS, timeout=_LAUNCH_TIMEOUT_MS)
        try:
            page = browser.new_page()
            page.set_content(html, wait_until="load")
            return page.pdf(
                format="A4",
                print_background=True,
                margin={"top": "12mm", "bottom": "12mm", "left": "10mm", "right": "10mm"},
            )
        finally:
            browser.close()


def _print_in_own_thread(html: str, path: str) -> bytes:
    # Playwright's sync API refuses to start in a thread whose asyncio loop is running (an ASGI
    # server's, or another Playwright session's); a fresh thread has none.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="pack-pdf") as pool:
        return pool.submit(_print_once, html, path).result()


def html_to_pdf(html: str) -> bytes:
    """Print a self-contained HTML page (inline styles, no outside resources) to an A4 PDF."""
    path = settings.CHROMIUM_PATH
    last: Exception | None = None
    for attempt in range(1, _ATTEMPTS + 1):
        try:
            return _print_in_own_thread(html, path)
        except Exception as exc:  # Playwright raises its own error types; the log keeps the cause
            logger.warning("Printing a battle pack failed (attempt %d of %d)", attempt, _ATTEMPTS, exc_info=True)
            last = exc
    assert last is not None
    cause = (str(last).splitlines() or ["no message"])[0][:200]
    raise PdfUnavailable(
        f"The PDF could not be printed ({type(last).__name__}: {cause}); use the printable page instead."
    ) from last


#: A print claimed longer ago than this is taken over (its worker died half-way).
PRINT_LEASE = timedelta(minutes=5)


def pack_pdf_print(pdf_id: int) -> str:
    """Print one queued pack (the task's body): claimed by a conditional UPDATE, so that a second
    delivery of the task, or a second task, prints nothing; a claim past :data:`PRINT_LEASE` is taken
    over. Returns what happened: ``printed``, ``failed`` or ``skipped``."""
    now = timezone.now()
    claimable = Q(state=PackPdf.State.QUEUED) | Q(state=PackPdf.State.PRINTING, claimed_at__lt=now - PRINT_LEASE)
    if not PackPdf.objects.filter(claimable, pk=pdf_id).update(state=PackPdf.State.PRINTING, claimed_at=now):
        return "skipped"
    html = PackPdf.objects.filter(pk=pdf_id).values_list("html", flat=True).get()
    try:
        pdf = html_to_pdf(html)
    except PdfUnavailable as trouble:
        PackPdf.objects.filter(pk=pdf_id, state=PackPdf.State.PRINTING).update(
            state=PackPdf.State.FAILED, error=str(trouble)[:300]
        )
        return "failed"
    PackPdf.objects.filter(pk=pdf_id, state=PackPdf.State.PRINTING).update(
        state=PackPdf.State.READY, pdf=pdf, printed_at=timezone.now()
    )
    return "printed"
