"""The Q network self-play trains: :class:`QNet`, in torch (play-time code runs its weights in numpy,
:mod:`bigtwo.bots.learned`, so playing never needs torch)."""

from __future__ import annotations

import numpy as np
import torch
from torch import nn


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
