"""Parameter tuning machinery shared by the tuner competitions: scales, trees, statistics, simulation."""
