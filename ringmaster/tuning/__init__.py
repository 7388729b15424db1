"""The tuners' numerics, importing no competition: scales, parameters, UCT tree, GP, SPSA, cross-entropy."""
