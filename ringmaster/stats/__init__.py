"""Pure statistics for verdicts and reports: win rates and Elo, the SPRT, joint ratings, hosts, timing."""
