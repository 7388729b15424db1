"""The numba options of the Go engine's kernels: KERNEL, without reference counting, and INLINE.

Kernels called once a move or more often are compiled with KERNEL, without
numba's reference counting (NRT). With it, numba atomically increments and
decrements a count for every array argument of every call: perf put 42% of a
light playout's time in NRT_incref/NRT_decref, and light playouts ran 1.7 to
2.1 times faster without it. Such kernels must never allocate an array, so
their scratch space lives in the workspace (groups.new_workspace). The tests run
for every candidate point (playable, the eye, self-atari and pattern tests)
and the move choosers and groups.place are also inlined by numba (INLINE), since
each call passed every array as seven scalars: 1.1 to 1.3 times faster
playouts. Inlining only pays inside a kernel without NRT: inlined into a
function with it, every array the inlined body touches is counted again
(light playouts ran half as fast). So the playout, scoring included
(playout.final_score), and the search's loop (uct.run_simulations) allocate nothing.

A cached kernel (cache=True) is checked against its own file only: one that
calls a kernel of another of these modules keeps the old callee until its own
file changes (docs/development.md: test with a fresh NUMBA_CACHE_DIR).
"""

from __future__ import annotations

KERNEL = {"cache": True, "nogil": True, "_nrt": False}
INLINE = dict(KERNEL, inline="always")
