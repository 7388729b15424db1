"""The training run's metrics: rows, and metrics.svg with its axes."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree

from players.alphazero.metrics import PLOTTED, write_plot


def test_each_panel_of_metrics_svg_has_ticked_labelled_axes(tmp_path):
    rows = [{"iteration": i, "loss": 3.0 - 0.4 * i, "policy_entropy": 1.2, "elo": 40.0 * i,
             "selfplay_positions_per_s": 500.0, "vs_random_score": 0.5, "value_loss": 0.9}
            for i in range(1, 6)]
    (tmp_path / "metrics.json").write_text(json.dumps(rows))
    write_plot(tmp_path / "metrics.svg", tmp_path / "metrics.json")
    root = ElementTree.fromstring((tmp_path / "metrics.svg").read_text())
    texts = [e.text for e in root.iter() if e.tag.endswith("text")]
    assert texts.count("iteration") == len(PLOTTED)            # each panel's x-axis label
    assert {"1", "2", "3", "4", "5"} <= set(texts)              # iterations ticked
    assert {"50", "100", "150", "200"} <= set(texts)            # Elo 40..200: round ticks
    assert {"1", "1.5", "2", "2.5"} <= set(texts)               # the loss 1.0..2.6

