"""The exceptions every part of fiesta_envs raises for bad input.

All of them derive from ``ValueError`` so that generic code that guards against bad
values keeps working, and from ``FiestaError`` so that a caller can catch ours only.
"""

from __future__ import annotations


class FiestaError(Exception):
    """Base class of every error fiesta_envs raises on purpose."""


class IllegalActionError(FiestaError, ValueError):
    """An action that the rules do not allow now (or that is no action at all).

    The message names the action (index and name) and says why it is refused.
    """


class InvalidOptionError(FiestaError, ValueError):
    """An unknown option, an option value out of its allowed set, or a bad player count."""


class InvalidStateError(FiestaError, ValueError):
    """A state dict that is malformed or belongs to another game or configuration."""
