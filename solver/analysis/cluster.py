"""Running report tasks on a Dask distributed cluster (the optional ``cluster`` extra).

Each task carries its mission and catalog as text and is decided by the same function as
locally (``report.run_task``), with one process per task on the worker, so the numbers are
those of a local run. The workers need kakapo installed (the same version), nothing else.
"""

from __future__ import annotations

from solver.analysis.tasks import run_task
from solver.core.errors import InputError

CONNECT_TIMEOUT = "10s"


def run_on_cluster(address: str, tasks):
    """Yield (task, result) as the cluster finishes them."""
    try:
        from distributed import Client, as_completed  # the optional cluster extra
    except ImportError:
        raise InputError("--scheduler", "Dask's distributed package is not installed",
                         'install the cluster extra: pip install "kakapo[cluster]"') from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as e:
        raise InputError("--scheduler", f"cannot reach a Dask scheduler at {address} ({e})",
                         "start one with `dask scheduler` and workers with `dask worker ADDRESS`, "
                         "or check the address") from None
    try:
        futures = {client.submit(run_task, t, 1, key=f"kakapo-{t.kind}-{t.key}"): t for t in tasks}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        client.close()
