"""Tests for blas_threads: numpy imported with one BLAS thread, the environment put back."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from ringmaster.tuning.blas_threads import BLAS_THREAD_VARIABLES, import_numpy_with_one_blas_thread

PROBE = textwrap.dedent("""
    import json, os, sys
    from ringmaster.tuning.blas_threads import import_numpy_with_one_blas_thread
    before = dict(os.environ)
    done = import_numpy_with_one_blas_thread()
    print(json.dumps({"done": done, "numpy": "numpy" in sys.modules, "same": dict(os.environ) == before,
                      "threads": len(os.listdir("/proc/self/task"))}))
""")


def probe(**environment):
    """The probe's findings in a fresh interpreter with BLAS_THREAD_VARIABLES unset but for environment."""
    env = {k: v for k, v in os.environ.items() if k not in BLAS_THREAD_VARIABLES}
    env.update(environment, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    output = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True,
                            check=True).stdout
    return json.loads(output)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
def test_numpy_is_imported_with_one_blas_thread_and_the_environment_put_back():
    found = probe()
    assert found == {"done": True, "numpy": True, "same": True, "threads": 1}


@pytest.mark.skipif(not os.path.isdir("/proc/self/task") or (os.cpu_count() or 1) < 2,
                    reason="counts threads in /proc, with more than one core")
def test_a_users_setting_is_left_to_them():
    found = probe(OPENBLAS_NUM_THREADS="2")
    assert found["done"] and found["same"] and found["threads"] == 2


def test_nothing_is_done_once_numpy_is_imported():
    import numpy  # noqa: F401

    before = dict(os.environ)
    assert import_numpy_with_one_blas_thread() is False and dict(os.environ) == before
