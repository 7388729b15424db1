"""Job loops: up to N jobs at once, here, in worker processes or on a Dask cluster; they know no game."""
