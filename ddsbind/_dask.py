"""A Dask client for the commands that can spread their work over a cluster (``generate``, ``dealer``).

Dask is an optional extra (``distributed``: ``pip install 'dask[distributed]'``); nothing
here imports it until a client is asked for.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ddsbind.errors import Error


@contextlib.contextmanager
def dask_client(workers: int | None, scheduler: str | None = None, *, error: type[Error]) -> Iterator[Any]:
    """A Dask client of a new ``LocalCluster`` of ``workers``, or of the ``scheduler`` at its address; closed after.

    Each worker is its own process with one thread (ddsbind's pool inside a
    task takes the cores).  ``error`` (the caller's class) when Dask is
    missing or the scheduler cannot be reached (a malformed address included).
    """
    try:
        import logging

        from distributed import Client, LocalCluster
    except ImportError:
        raise error("--workers and --scheduler need Dask: pip install 'dask[distributed]'") from None
    if scheduler is not None:
        try:
            client = Client(scheduler)
        except (OSError, ValueError, TypeError) as exc:
            raise error(f"cannot use the Dask scheduler {scheduler!r}: {exc}") from None
        with contextlib.closing(client):
            yield client
        return
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    with contextlib.closing(cluster), contextlib.closing(Client(cluster)) as client:
        yield client
