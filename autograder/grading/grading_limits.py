"""Every limit a teacher can change, by name: the hand-in's (``hand_in.hand_in_limits``) and the cage's
(``cage.cage_limits``).

``grade`` and ``grade batch`` take them together (``--limit NAME=VALUE``) and give each step its own:
reading the hand-in its ``hand_in``, the worker and the calls into it their ``cage``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from autograder.cage.cage_limits import CageLimits
from autograder.hand_in.hand_in_limits import ALLOW_MODULES, HandInLimits


@dataclass(frozen=True)
class Limits:
    cage: CageLimits = field(default_factory=CageLimits)
    hand_in: HandInLimits = field(default_factory=HandInLimits)

    def as_dict(self) -> dict[str, Any]:
        """Every limit by name, the cage's first: README.md's table, ``--limit``'s help, the grading hash."""
        return {**self.cage.as_dict(), **self.hand_in.as_dict()}

    @classmethod
    def names(cls) -> list[str]:
        return [*CageLimits.names(), *HandInLimits.names()]

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> Limits:
        """The limits ``values`` sets by name (as ``as_dict`` names them), with the defaults for the rest."""
        unknown = sorted(set(values) - set(cls.names()) - {ALLOW_MODULES})
        if unknown:
            raise ValueError(f"{', '.join(unknown)}: no such limit; the limits are {', '.join(cls.names())}")
        return cls(
            cage=CageLimits(**{name: values[name] for name in CageLimits.names() if name in values}),
            hand_in=HandInLimits(
                **{name: values[name] for name in HandInLimits.names() if name in values},
                allow_modules=frozenset(values.get(ALLOW_MODULES, ())),
            ),
        )
