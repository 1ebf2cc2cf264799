import signal

import pytest


def interruptible():
    """preexec_fn for a child that the test interrupts with SIGINT: a shell starting the test run in the
    background (without job control) leaves SIGINT ignored, and Python then installs no Ctrl-C handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(scope="session")
def ray_cluster():
    """A local Ray of two CPUs, shared by the tests of the Ray backends (started once: it takes seconds)."""
    import ray  # an optional dependency of the package (meeple[ray]); the test extra includes it

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()
