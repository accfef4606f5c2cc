"""Tests of the pages in headless Chromium: the studio's page and the report page (and the page's scripts run
by node)."""
