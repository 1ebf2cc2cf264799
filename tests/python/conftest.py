import pytest


@pytest.fixture(scope="session")
def ray_cluster():
    """A local Ray of two CPUs, shared by the tests of the Ray backends (started once: it takes seconds)."""
    import ray  # an optional dependency of the package (meeple[ray]); the test extra includes it

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()
