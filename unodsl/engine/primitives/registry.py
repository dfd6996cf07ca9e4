"""The registry every primitive is declared in, with the types their modules share.

Functions receive the game first, then their evaluated arguments; a lambda
argument arrives as a Python callable of one value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...lang.signature import Registry

REGISTRY = Registry()
Env = dict[str, Any]
Pred = Callable[[Any], Any]
