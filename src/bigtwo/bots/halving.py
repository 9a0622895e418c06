"""How ``isearch`` shares its deals among its candidates: successive halving over weighted deals.

The search runs in stages (``ceil(log2(k))`` for ``k`` candidates): each stage's share of the budget (of the
deals, or of the time) is spent playing every live candidate out on the same sampled deals, and at its end the
worse half is dropped, so the best candidates are compared on the most deals. A candidate's value is the
weighted mean of its play-outs (the beliefs' weights, tempered: :func:`tempered_weights`), shrunk towards the
network's value of it by ``prior`` deals where the network's values are points of the same measure.
"""

from __future__ import annotations

import math

from bigtwo.combos.play import Play


def effective_size(weights: list[float]) -> float:
    """Kish's effective number of equally weighted samples."""
    squares = math.fsum(w * w for w in weights)
    return math.fsum(weights) ** 2 / squares if squares > 0 else 0.0


def tempered_weights(logw: list[float], min_ess: float) -> list[float]:
    """The deals' weights ``exp(beta * logw)``, with the largest ``beta`` in [0, 1] that keeps the effective
    number of deals at least ``min_ess`` of them (adaptive tempering).

    Weighted by the full likelihood, a few deals that explain the table best take nearly all the weight (an
    effective 2 to 10 deals of 50 to 100 searched, measured on classic rounds), and the search's averages become
    as noisy as a handful of play-outs; tempering keeps what the beliefs say about which deals are likelier
    while every estimate rests on a share of the deals searched."""
    if not logw:
        return []
    top = max(logw)
    centred = [x - top for x in logw]

    def at(beta: float) -> list[float]:
        return [math.exp(beta * x) for x in centred]

    full = at(1.0)
    need = min_ess * len(logw)
    if min_ess <= 0 or effective_size(full) >= need:
        return full
    low, high = 0.0, 1.0  # ESS(low) >= need > ESS(high)
    for _ in range(20):
        mid = (low + high) / 2
        if effective_size(at(mid)) >= need:
            low = mid
        else:
            high = mid
    return at(low)


def stages(candidates: int, halving: bool) -> int:
    """How many stages a search over ``candidates`` runs: one without halving."""
    return max(1, math.ceil(math.log2(candidates))) if halving else 1


def stage_deals(iterations: int, stage: int, rounds: int) -> int:
    """The deals searched by the end of ``stage`` (from 0) of ``rounds``, for a budget of ``iterations`` deals."""
    return math.ceil(iterations * (stage + 1) / rounds)


def estimates(
    which: list[int],
    weights: list[float],
    values: list[dict[int, float]],
    cands: list[Play],
    prior: dict[int, float],
    shrink: bool,
    prior_deals: float,
) -> dict[int, float]:
    """Each candidate of ``which`` (indices into ``cands``) valued from ``values`` (by deal, each candidate's
    play-out points) under the deals' ``weights``: the weighted mean, shrunk towards the network's value
    (``prior``, by the candidate's cards) by ``prior_deals`` deals where ``shrink``; the network's value alone (or
    minus infinity) where no deal was searched."""
    out = {}
    for i in which:
        ws = [(w, v[i]) for w, v in zip(weights, values, strict=True) if i in v]
        total = math.fsum(w for w, _ in ws)
        p = prior.get(cands[i].mask)
        if total <= 0:
            out[i] = p if p is not None else -math.inf
            continue
        mean = math.fsum(w * x for w, x in ws) / total
        if p is None or not shrink or prior_deals <= 0:
            out[i] = mean
        else:
            ess = total * total / math.fsum(w * w for w, _ in ws)
            out[i] = (ess * mean + prior_deals * p) / (ess + prior_deals)
    return out


def halved(alive: list[int], est: dict[int, float]) -> list[int]:
    """The better half of ``alive`` by ``est`` (the earlier of equals), in index order."""
    ranked = sorted(alive, key=lambda i: (-est[i], i))
    return sorted(ranked[: math.ceil(len(ranked) / 2)])


__all__ = ["effective_size", "estimates", "halved", "stage_deals", "stages", "tempered_weights"]
