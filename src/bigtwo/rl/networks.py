"""The training side's networks and what the training commands share: :class:`QNet`, the Q network self-play
trains (in torch; play-time code runs its weights in numpy, :mod:`bigtwo.bots.learned`), a network named on the
command line, and settings checked in words."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from bigtwo.arena.provenance import DIGEST
from bigtwo.bots.learned import QPolicy, load_weights, policy_for
from bigtwo.errors import BigTwoError
from bigtwo.rules.ruleset import load_rules


class QNet(nn.Module):
    """Q(s, a): a multilayer perceptron over the state vector and the action vector side by side."""

    def __init__(self, state_size: int, action_size: int, hidden: tuple[int, ...]):
        super().__init__()
        sizes = [state_size + action_size, *hidden, 1]
        layers: list[nn.Module] = []
        for i in range(len(sizes) - 1):
            layers.append(nn.Linear(sizes[i], sizes[i + 1]))
            if i < len(sizes) - 2:
                layers.append(nn.ReLU())
        self.net = nn.Sequential(*layers)
        self.state_size = state_size

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x).squeeze(-1)

    def score(self, states: torch.Tensor, actions: torch.Tensor, segment: torch.Tensor) -> torch.Tensor:
        """Q of each action row beside its decision's state (``segment``): the first layer's state part is
        computed once a decision, not once an action (the same values as ``forward`` on the joined rows)."""
        first = self.net[0]
        assert isinstance(first, nn.Linear)
        w = first.weight
        s = self.state_size
        h = actions @ w[:, s:].T + (states @ w[:, :s].T + first.bias)[segment]
        for m in list(self.net)[1:]:
            h = m(h)
        return h.squeeze(-1)

    def layers(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """``(weight, bias)`` of each linear layer as numpy (weight as inputs x outputs)."""
        return [
            (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
            for m in self.net
            if isinstance(m, nn.Linear)
        ]

    def load_layers(self, layers: list[tuple[np.ndarray, np.ndarray]]) -> None:
        """Set the weights from ``(weight, bias)`` pairs shaped as :meth:`layers` gives them (its inverse)."""
        linear = [name for name, m in self.net.named_children() if isinstance(m, nn.Linear)]
        if len(layers) != len(linear):
            raise RuntimeError(f"{len(layers)} layers given, {len(linear)} in the network")
        state: dict[str, torch.Tensor] = {}
        for name, (w, b) in zip(linear, layers, strict=True):
            state[f"net.{name}.weight"] = torch.from_numpy(np.ascontiguousarray(w.T, dtype=np.float32))
            state[f"net.{name}.bias"] = torch.from_numpy(np.asarray(b, dtype=np.float32))
        self.load_state_dict(state)


def named_network(name: str, rules: str | None, players: int | None, role: str) -> tuple[QPolicy, str]:
    """The network ``name`` gives (a weights file, or ``shipped``: the package's for ``rules`` and ``players``)
    and the name messages and records give it; ``role`` is the option's word in messages (``teacher``)."""
    if name != "shipped":
        if not Path(name).is_file():
            raise BigTwoError(f"{role} {name}: no such weights file (a network's .npz, or 'shipped')")
        return load_weights(name), name
    if rules is None:
        raise BigTwoError(f"{role} 'shipped' needs the rules (and players) whose network it is")
    ruleset = load_rules(rules)
    n = ruleset.players if players is None else players
    return policy_for(ruleset, n), f"shipped {ruleset.name} {n}p"


def network_digest(net: QPolicy) -> str:
    """A short digest of the network's weights (as played, whatever file they were read from): what tells two
    teachers apart when a name (``shipped``) stays the same while the package's network changes."""
    h = hashlib.sha256()
    for w, b in net.layers():
        for part in (w, b):
            h.update(np.ascontiguousarray(part, dtype=np.float32).tobytes())
    return h.hexdigest()[:DIGEST]


def check_settings(checks: tuple[tuple[str, Any, bool, str], ...]) -> None:
    """Refuse the first setting whose check fails: ``(name, value, ok, rule)``, the rule in words ("be 1 or
    more")."""
    for name, value, ok, rule in checks:
        if not ok:
            raise BigTwoError(f"{name}={value}: must {rule}")


__all__ = ["check_settings", "named_network", "network_digest"]
