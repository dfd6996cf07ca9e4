"""Hypothesis profiles.

`default` and `ci` are derandomized: the same examples every run, so that a test
run (and the CI gate) never fails by luck. `ci` draws 60 examples (CI's long property
runs: about 11 minutes in parallel on two cores).
`explore` draws fresh random examples, many of them, to look for new failures:

    HYPOTHESIS_PROFILE=explore pytest -m "slow or not slow" tests/property
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=8, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", max_examples=400, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
