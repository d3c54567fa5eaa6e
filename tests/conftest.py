"""Suite-wide fixtures. Tests run against PostgreSQL and Redis on 127.0.0.1 (config.settings.test)."""

import os

# Playwright's sync API keeps an event loop running in the test thread; without this every ORM
# call after the first browser test raises SynchronousOnlyOperation (STACK.md).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
