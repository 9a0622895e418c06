import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60)
settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_xdist_auto_num_workers(config) -> int:
    """``-n auto``: a worker a core, at most four (the browser and server tests run servers and browsers of their
    own, and more workers than that only wait on one another)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()  # Linux; others
    return max(1, min(4, cores or 1))


@pytest.fixture
def torch_one_thread():
    """Torch on one thread for the test (as training runs: one core), restored after."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(autouse=True)
def _terminal_width(monkeypatch):
    """Commands print at 80 columns, the width of output that is not a terminal, whatever the width of the
    terminal running the suite (rich reads COLUMNS); a test that needs another width passes its own."""
    monkeypatch.setenv("COLUMNS", "80")


@pytest.fixture(autouse=True, scope="session")
def _empty_data_dir(tmp_path_factory):
    """Networks a developer trained (``bigtwo train`` installs them in the user's data folder) stay out of the
    suite: every test starts from an empty data folder of its own session; a test that installs one sets its own."""
    before = os.environ.get("BIGTWO_DATA_DIR")
    os.environ["BIGTWO_DATA_DIR"] = str(tmp_path_factory.mktemp("data"))
    yield
    if before is None:
        os.environ.pop("BIGTWO_DATA_DIR", None)
    else:
        os.environ["BIGTWO_DATA_DIR"] = before
