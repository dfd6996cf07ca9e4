"""Hypothesis profiles: a small budget by default, a larger one in CI."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=8, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
