"""numpy imported with one BLAS thread in the ringmaster: its models are small, and more threads took
CPU from the engines."""

from __future__ import annotations

import os
import sys

BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def import_numpy_with_one_blas_thread() -> bool:
    """Import numpy with its BLAS (OpenBLAS, or MKL) limited to one thread, where the user has set
    none of BLAS_THREAD_VARIABLES; the environment is put back at once, so that the engines started
    after see the user's. False (nothing done) if numpy was already imported: BLAS reads the
    variables when it loads.

    On the shared 2-core machine numpy's default threads made bayes_tuner's refit 5 to 8 times
    slower (4.6 s against 0.94 s at 250 matches), and they compete with the engines for the cores.
    """
    if "numpy" in sys.modules:
        return False
    added = [name for name in BLAS_THREAD_VARIABLES if name not in os.environ]
    if len(added) < len(BLAS_THREAD_VARIABLES):
        added = []   # the user chose: leave it to them
    for name in added:
        os.environ[name] = "1"
    try:
        import numpy  # noqa: F401
    finally:
        for name in added:
            os.environ.pop(name, None)
    return True
