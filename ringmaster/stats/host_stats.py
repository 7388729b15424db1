"""Results per host on a cluster, and a chi-squared test flagging a host whose results differ."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

FLAG_LEVEL = 0.01


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for a chi-squared variable with dof degrees of freedom (1 for dof < 1)."""
    if dof < 1 or x <= 0:
        return 1.0
    y = x / 2
    if dof % 2:
        q, a = math.erfc(math.sqrt(y)), 0.5
    else:
        q, a = math.exp(-y), 1.0
    while a < dof / 2:
        q += math.exp(a * math.log(y) - y - math.lgamma(a + 1))
        a += 1
    return min(1.0, max(0.0, q))


def chi2_statistic(table: list[list[int]]) -> tuple[float, int]:
    """Pearson's statistic of homogeneity and its degrees of freedom; empty rows and columns are dropped."""
    rows = [r for r in table if sum(r)]
    if len(rows) < 2:
        return 0.0, 0
    columns = [j for j in range(len(rows[0])) if any(r[j] for r in rows)]
    if len(columns) < 2:
        return 0.0, 0
    total = sum(sum(r) for r in rows)
    row_sums = [sum(r) for r in rows]
    col_sums = [sum(r[j] for r in rows) for j in columns]
    stat = 0.0
    for i, r in enumerate(rows):
        for k, j in enumerate(columns):
            expected = row_sums[i] * col_sums[k] / total
            stat += (r[j] - expected) ** 2 / expected
    return stat, (len(rows) - 1) * (len(columns) - 1)


@dataclass
class HostComparison:
    """Games and outcomes per host, the test over all hosts, and the hosts flagged.

    Public attributes:
      counts   -- {host: [black wins, white wins, other]} summed over pairings
      games    -- {host: games}
      p_value  -- the test that outcomes don't depend on the host (None: nothing to compare)
      host_p   -- {host: p-value of that host against all the others}
      flagged  -- hosts whose results differ (host_p below FLAG_LEVEL / hosts, and p_value below FLAG_LEVEL)
    """

    counts: dict[str, list[int]] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    p_value: float | None = None
    host_p: dict[str, float] = field(default_factory=dict)
    flagged: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"games": self.games, "outcomes": self.counts, "p_value": self.p_value,
                "host_p": self.host_p, "flagged": self.flagged}


def compare_hosts(games: Iterable[tuple[str | None, str, str, str | None]]) -> HostComparison:
    """Compare hosts from (host, black, white, winner) per game; games without a host are left out.

    Pairings (black player, white player) are compared separately, so that
    neither colour nor strength differs between the hosts compared; the
    chi-squared statistics and degrees of freedom are summed over pairings,
    so a tuner's many candidates count too.
    """
    by_pairing: dict[tuple[str, str], dict[str, list[int]]] = {}
    result = HostComparison()
    for host, black, white, winner in games:
        if host is None:
            continue
        pairing = (black, white)
        outcome = 0 if winner == black else 1 if winner == white else 2
        by_pairing.setdefault(pairing, {}).setdefault(host, [0, 0, 0])[outcome] += 1
        result.counts.setdefault(host, [0, 0, 0])[outcome] += 1
        result.games[host] = result.games.get(host, 0) + 1
    hosts = sorted(result.games)
    if len(hosts) < 2:
        return result
    stat = dof = 0
    host_stats = {h: [0.0, 0] for h in hosts}
    for table in by_pairing.values():
        s, d = chi2_statistic(list(table.values()))
        stat, dof = stat + s, dof + d
        for host in table:
            rest = [sum(c[j] for h, c in table.items() if h != host) for j in range(3)]
            s, d = chi2_statistic([table[host], rest])
            host_stats[host][0] += s
            host_stats[host][1] += d
    if dof == 0:
        return result
    result.p_value = chi2_sf(stat, dof)
    result.host_p = {h: chi2_sf(s, d) for h, (s, d) in host_stats.items() if d}
    if result.p_value < FLAG_LEVEL:
        result.flagged = [h for h, p in result.host_p.items() if p < FLAG_LEVEL / len(hosts)]
    return result


def host_report(comparison: HostComparison) -> str:
    """The report's section on hosts ('' when no game names its host)."""
    if not comparison.games:
        return ""
    width = max(len(h) for h in comparison.games) + 2
    lines = ["Games per host (wins by colour; 'other': no result):",
             f"{'host':<{width}}{'games':>6}{'black':>7}{'white':>7}{'other':>7}"]
    for host in sorted(comparison.games):
        black, white, other = comparison.counts[host]
        lines.append(f"{host:<{width}}{comparison.games[host]:>6}{black:>7}{white:>7}{other:>7}")
    if comparison.p_value is None:
        lines.append("chi-squared test of results by host: too few games to compare")
    else:
        lines.append(f"chi-squared test that results don't depend on the host: "
                     f"p = {comparison.p_value:.3g}")
    for host in comparison.flagged:
        lines.append(f"host {host}: results differ from the other hosts' "
                     f"(p = {comparison.host_p[host]:.3g}): check its engines and files")
    return "\n".join(lines) + "\n"
