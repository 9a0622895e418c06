"""A trained network made wider or deeper without changing what it computes, to train on with more capacity.

Training a larger network from random weights throws away every frame its smaller predecessor learned from.
Growing it keeps them (Chen, Goodfellow and Shlens' Net2Net):

- *deeper*: hidden layers added after the last one start as the identity (the units before them are ReLU
  outputs, never negative, so a ReLU of the identity passes them through unchanged);
- *wider*: each new unit of a hidden layer is a copy of an existing one (the same incoming weights and bias),
  and the units a copy reads from share their outgoing weights, so the sum the next layer sees is the same.
  Copies of one unit would then learn in lockstep, so their shares are drawn unequal (summing to the original,
  so nothing changes yet): their gradients differ and they grow apart as training goes on.
"""

from __future__ import annotations

import numpy as np

Layers = list[tuple[np.ndarray, np.ndarray]]  # (weight as inputs x outputs, bias) of each linear layer


def can_grow(theirs: list[int], ours: list[int]) -> bool:
    """Whether hidden layers ``theirs`` grow into ``ours``: none of theirs narrower in ours, any layers ours adds
    (after the last) at least as wide as that last one, and something larger."""
    if not theirs or len(ours) < len(theirs) or ours == theirs:
        return False
    deep = theirs + [theirs[-1]] * (len(ours) - len(theirs))
    return all(a <= b for a, b in zip(deep, ours, strict=True))


def grown(layers: Layers, hidden: list[int], seed: int = 0, spread: float = 0.1) -> Layers:
    """``layers`` with hidden layers ``hidden`` (deeper, wider or both), computing the same function (up to
    float rounding). ``spread`` is how unequal the copies' shares of a unit's outgoing weights are drawn (a
    standard deviation relative to an equal share); ``seed`` fixes which units are copied and the shares."""
    sizes = [int(np.shape(w)[1]) for w, _b in layers[:-1]]
    if not can_grow(sizes, hidden):
        raise ValueError(
            f"hidden layers {','.join(map(str, sizes))} cannot grow into {','.join(map(str, hidden))}: each as wide "
            "or wider, and any added after the last at least as wide as it"
        )
    rng = np.random.default_rng(seed)
    out = [(np.asarray(w, dtype=np.float64), np.asarray(b, dtype=np.float64)) for w, b in layers]
    last = sizes[-1]
    for _ in range(len(hidden) - len(sizes)):  # deeper: identity layers before the output
        out.insert(len(out) - 1, (np.eye(last), np.zeros(last)))
    sizes += [last] * (len(hidden) - len(sizes))
    for i, (n, m) in enumerate(zip(sizes, hidden, strict=True)):
        if m == n:
            continue
        # every unit first, then copies of units drawn without repeats while there are enough to draw
        extra = np.concatenate([rng.permutation(n) for _ in range(-(-(m - n) // n))])[: m - n]
        source = np.concatenate([np.arange(n), extra])
        w, b = out[i]
        out[i] = (w[:, source], b[source])
        share = 1.0 + spread * rng.standard_normal(m)
        # each unit's shares sum to one (a unit not copied: its share over itself, exactly 1.0)
        share /= np.bincount(source, weights=share, minlength=n)[source]
        w_next, b_next = out[i + 1]
        out[i + 1] = (w_next[source] * share[:, None], b_next)
    return [(w.astype(np.float32), b.astype(np.float32)) for w, b in out]


__all__ = ["can_grow", "grown"]
