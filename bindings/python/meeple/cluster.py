"""Batches of C++ games as Ray tasks (Ray is optional: pip install meeple[ray]).

Each task plays its games in C++ on one CPU; the cluster spreads the tasks. Results come back per batch,
so callers put them in game order and the same seeds give the same results as local threads.
"""
from __future__ import annotations

BACKENDS = ("local", "ray")


def check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        raise ValueError(f"backend must be 'local' or 'ray', not {backend!r}")


def run_batches(task, batches: list[tuple], address: str | None, on_result) -> None:
    """Runs task(*args) for each args in `batches` as a Ray task, connecting to the cluster at `address`
    (None: the one this process is connected to, or a new local one); on_result(batch index, result) is
    called as each finishes, in any order. Tasks not yet finished are cancelled if this is interrupted."""
    import ray

    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(num_cpus=1)(task)
    pending = {remote.remote(*args): i for i, args in enumerate(batches)}
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                on_result(pending.pop(ref), ray.get(ref))
    finally:
        for ref in pending:
            ray.cancel(ref)


def split(items: list, batch: int) -> list[list]:
    """`items` in consecutive batches of `batch` (the last may be shorter)."""
    size = max(1, batch)
    return [items[i:i + size] for i in range(0, len(items), size)]
