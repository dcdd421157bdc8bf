"""The reference solutions, for hidden tests that need an expected value or an input.

Loaded by path in the trusted process only: the worker never sees this
folder. Not shipped in the student release, where ``solutions/`` is absent.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from types import ModuleType

from autograder.kit_root import KIT_ROOT


@cache
def reference(module: str) -> ModuleType:
    path = KIT_ROOT / "solutions" / f"{module}.py"
    spec = importlib.util.spec_from_file_location(f"bpe_kit_reference_{module}", path)
    if spec is None or spec.loader is None or not path.exists():
        raise FileNotFoundError(f"{path}: the reference solution is missing from this copy of the kit")
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = loaded  # dataclasses (and pickling) look their module up there
    spec.loader.exec_module(loaded)
    return loaded
