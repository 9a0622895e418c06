"""The mean of a training run's snapshots: one network whose weights are the element-wise mean of several.

Deep Monte-Carlo's networks keep wandering once a run's evaluations level off: snapshots two million frames
apart play a tenth of a point apart head to head, above and below one another. The mean of the last several
snapshots of one run (all descended from the same start, so their weights stay close enough for their mean to
be a network of the same kind) played better head to head than any of them in the run measured (``bigtwo
average``; the README's *A thirteenth stage* gives the measurement). Numpy alone: torch is not needed.

Only networks of one run are meant: the same shape and the same table, inputs and values. A file that differs
in any of them is refused, naming it and what differs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bigtwo.bots.learned import QPolicy
from bigtwo.errors import BigTwoError

# what a network's weights mean: files that differ in any of these are not snapshots of one network
SAME = (
    "rules",
    "rules_settings",
    "players",
    "history",
    "features_version",
    "utility",
    "reward_scale",
    "target",
    "state_size",
    "hidden",
)


def average_weights(paths: Sequence[str | Path]) -> QPolicy:
    """The network whose every weight is the mean of those of the networks at ``paths`` (two or more weights
    files of one run). Its description is the last file's, with ``averaged_from`` naming each file and its
    frames, ``frames`` the most any of them had, and no ``evaluation`` (that measured one snapshot, not the
    mean)."""
    if len(paths) < 2:
        raise BigTwoError(f"a mean of networks needs two weights files or more, not {len(paths)}")
    policies = [QPolicy.load(p) for p in paths]
    first, first_path = policies[0], paths[0]
    # each network's (weight, bias) pairs, joined once (``layers()`` concatenates the first layer's two parts)
    stacks = [p.layers() for p in policies]
    shapes = [w.shape for w, _ in stacks[0]]
    for policy, path, layers_of in zip(policies[1:], paths[1:], stacks[1:], strict=True):
        for key in SAME:
            mine, theirs_ = policy.meta.get(key), first.meta.get(key)
            if mine == theirs_:
                continue
            if isinstance(mine, dict) and isinstance(theirs_, dict):  # the rules' settings: name those that differ
                differ = sorted(k for k in mine.keys() | theirs_.keys() if mine.get(k) != theirs_.get(k))
                said = f"rules settings other than {first_path}'s (these differ: {', '.join(differ)})"
            else:
                said = f"{key} {mine!r} where {first_path} has {theirs_!r}"
            raise BigTwoError(f"weights {path}: {said}; only snapshots of one network can be averaged")
        theirs = [w.shape for w, _ in layers_of]
        if theirs != shapes:
            raise BigTwoError(
                f"weights {path}: layers of shapes {theirs}, {first_path} has {shapes}; only snapshots of one "
                "network can be averaged"
            )
    layers: list[tuple[np.ndarray, np.ndarray]] = []
    for i in range(len(shapes)):
        w, b = (
            np.asarray(np.mean([stack[i][part] for stack in stacks], axis=0, dtype=np.float64), dtype=np.float32)
            for part in (0, 1)
        )
        layers.append((w, b))
    meta = {k: v for k, v in policies[-1].meta.items() if k != "evaluation"}
    meta["averaged_from"] = [
        {"file": Path(path).name, "frames": policy.meta.get("frames")}
        for policy, path in zip(policies, paths, strict=True)
    ]
    frames = [p.meta["frames"] for p in policies if isinstance(p.meta.get("frames"), int)]
    if frames:
        meta["frames"] = max(frames)
    return QPolicy(layers, first.state_size, meta)


__all__ = ["average_weights"]
