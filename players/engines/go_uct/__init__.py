"""The numba Go engine: UCT with RAVE and priors over fast incremental playouts."""
