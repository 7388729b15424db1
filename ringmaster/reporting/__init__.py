"""Reports built from a competition's JSON report: the self-contained HTML page and its SVG plots."""
