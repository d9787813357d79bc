"""A trained actor network as plain numpy: observation -> action logits, without torch.

``ActorSnapshot`` holds the actor half of a MaskablePPO ``MlpPolicy`` (the policy MLP and the
action head) as float32 matrices. It is what the training league freezes its past selves into
(``training/league.py``) and what the agents shipped inside the package are made of
(``fiesta_envs/agents``). A forward pass is a few matrix-vector products.

On disk a snapshot is one ``.npz`` (read with ``allow_pickle=False``: no Python objects)::

    activations   str array, one per layer: "tanh", "relu" or "identity"
    w0, b0        first layer: weight (inputs x outputs) and bias (outputs)
    w1, b1 ...    the following layers, the last one giving one logit per action

Only ``ActorSnapshot.from_model`` needs torch (it copies a live model), and imports it itself.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from fiesta_envs.files.atomic import atomic_target


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


def _identity(x: np.ndarray) -> np.ndarray:
    return x


#: module-level functions, so that frozen policies pickle (evaluation sends them to worker processes)
SPARSE_SHARE = 2  # a single observation with fewer than 1 / SPARSE_SHARE of its entries nonzero goes the sparse way
ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {"tanh": np.tanh, "relu": _relu, "identity": _identity}


class ActorSnapshot:
    """The actor half of a MaskablePPO MLP policy as numpy arrays: observation -> action logits."""

    def __init__(self, weights: Sequence[np.ndarray], biases: Sequence[np.ndarray], activations: Sequence[str]):
        if not len(weights) == len(biases) == len(activations):
            raise ValueError("one weight, bias and activation per layer")
        unknown = set(activations) - set(ACTIVATIONS)
        if unknown:
            raise ValueError(f"unsupported activations {sorted(unknown)}; supported: {sorted(ACTIVATIONS)}")
        self.weights = [np.ascontiguousarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.ascontiguousarray(b, dtype=np.float32) for b in biases]
        self.activations = list(activations)
        self._functions = [ACTIVATIONS[name] for name in self.activations]
        for i, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            if weight.ndim != 2 or bias.shape != (weight.shape[1],):
                raise ValueError(f"layer {i}: weight {weight.shape} and bias {bias.shape} do not fit together")
            if i and weight.shape[0] != self.weights[i - 1].shape[1]:
                raise ValueError(
                    f"layer {i} takes {weight.shape[0]} inputs but layer {i - 1} gives {self.weights[i - 1].shape[1]}"
                )

    @classmethod
    def from_model(cls, model: Any) -> ActorSnapshot:
        """Copy the actor of a MaskablePPO ``MlpPolicy`` (flatten features -> policy MLP -> action head).

        Needs torch and stable-baselines3 (imported here). A network that is not a plain MLP on
        flat observations raises ``ValueError`` naming what it cannot copy.
        """
        import torch.nn as nn
        from stable_baselines3.common.torch_layers import FlattenExtractor

        policy = model.policy
        if not isinstance(policy.pi_features_extractor, FlattenExtractor):
            raise ValueError(
                f"only MLP policies on flat observations can be frozen; this one extracts features with "
                f"{type(policy.pi_features_extractor).__name__}"
            )
        weights, biases, activations = [], [], []
        for module in [*policy.mlp_extractor.policy_net, policy.action_net]:
            if isinstance(module, nn.Linear):
                weights.append(module.weight.detach().cpu().numpy().T.copy())
                biases.append(module.bias.detach().cpu().numpy().copy())
                activations.append("identity")
            elif isinstance(module, (nn.Tanh, nn.ReLU)) and activations and activations[-1] == "identity":
                activations[-1] = "tanh" if isinstance(module, nn.Tanh) else "relu"
            else:
                raise ValueError(f"cannot freeze a policy layer of type {type(module).__name__}")
        return cls(weights, biases, activations)

    # ------------------------------------------------------------------ shape
    @property
    def input_size(self) -> int:
        return int(self.weights[0].shape[0]) if self.weights else 0

    @property
    def output_size(self) -> int:
        return int(self.weights[-1].shape[1]) if self.weights else 0

    @property
    def layer_sizes(self) -> list[int]:
        """Inputs, then the outputs of every layer: ``[obs, 64, 64, actions]``."""
        return [self.input_size, *(int(w.shape[1]) for w in self.weights)] if self.weights else []

    @property
    def parameter_count(self) -> int:
        return int(sum(w.size + b.size for w, b in zip(self.weights, self.biases, strict=True)))

    # ------------------------------------------------------------------ forward pass
    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The action logits of one observation (a vector) or of a batch (one observation per row)."""
        x = np.asarray(observation, dtype=np.float32)
        if x.ndim != 1 or not self.weights:
            return self.layers_from(0, x)
        return self.layers_from(1, self.first_layer(x))

    def first_layer(self, observation: np.ndarray) -> np.ndarray:
        """The first layer's output for one observation (a float32 vector).

        An observation that is mostly zeros (one-hot encodings are) is multiplied through its nonzero entries
        only: the rows of the first weight matrix that count, a fraction of the matrix to read from memory. The
        sums are those of the whole product up to float32 rounding."""
        weight, bias, function = self.weights[0], self.biases[0], self._functions[0]
        nonzero = np.flatnonzero(observation)
        if len(nonzero) * SPARSE_SHARE < len(observation):
            return function(observation[nonzero] @ weight[nonzero] + bias)
        return function(observation @ weight + bias)

    def layers_from(self, start: int, x: np.ndarray) -> np.ndarray:
        """``x`` through the layers from number ``start`` on."""
        for weight, bias, function in zip(
            self.weights[start:], self.biases[start:], self._functions[start:], strict=True
        ):
            x = function(x @ weight + bias)
        return x

    # ------------------------------------------------------------------ files
    def save(self, path: Path | str) -> None:
        """Write atomically (temp file, then rename): a reader never sees half a snapshot."""
        with atomic_target(path) as temporary, open(temporary, "wb") as handle:
            self.write(handle)
            handle.flush()
            os.fsync(handle.fileno())

    def write(self, handle: Any) -> None:
        """Write the ``.npz`` to an open binary file."""
        arrays: dict[str, Any] = {"activations": np.array(self.activations, dtype=str)}
        for i, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"], arrays[f"b{i}"] = weight, bias
        np.savez(handle, **arrays)

    @classmethod
    def load(cls, path: Path | str) -> ActorSnapshot:
        with np.load(path, allow_pickle=False) as data:
            activations = [str(a) for a in data["activations"]]
            count = len(activations)
            return cls([data[f"w{i}"] for i in range(count)], [data[f"b{i}"] for i in range(count)], activations)


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The probabilities of the legal actions under the softmax of ``logits`` (0 for the illegal ones)."""
    legal = np.flatnonzero(mask)
    values = logits[legal].astype(np.float64)
    values = np.exp(values - values.max())
    probabilities = np.zeros(len(mask), dtype=np.float32)
    probabilities[legal] = values / values.sum()
    return probabilities


def masked_choice(logits: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None) -> int:
    """The best legal action (``rng=None``) or one sampled from the masked softmax."""
    if rng is None:  # the first legal action of the highest logit
        best = int(np.argmax(np.where(mask, logits, -np.inf)))
        if mask[best]:
            return best
    legal = np.flatnonzero(mask)
    if not len(legal):
        raise ValueError("no legal action: the action mask is all zeros")
    values = logits[legal].astype(np.float64)
    if rng is None:  # every legal logit is -inf
        return int(legal[int(np.argmax(values))])
    values = np.exp(values - values.max())
    return int(legal[int(rng.choice(len(legal), p=values / values.sum()))])
