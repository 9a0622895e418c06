"""Train a small Big Two policy on the CPU with masked PPO, and show it beating the ``random`` bot.

    pip install -e ".[rl]"
    python examples/train_ppo.py --minutes 10 --out examples/learning_curve_classic.png

One learning seat (re-drawn every round) plays ``classic`` against three ``random`` bots in a vector of
single-agent environments (``bigtwo.envs.vector_env``). The policy scores every action of the catalogue from
the observation and the action's card vector (the "(state, action)" form: logit = state embedding . action
embedding), over the legal actions only, so what it learns about one five-card hand carries over to others
and an update costs what the legal actions cost, not the 19,899 of the catalogue.
Rewards are the ruleset's scores, normalised to [-1, 1].

At intervals, and at the end, the greedy policy plays a fixed set of evaluation deals against three random
bots; the same deals are played by the ``random`` and ``greedy`` bots in the learning seat as baselines. The
learning curve (evaluation win rate and mean score against rounds trained) goes to ``--out``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import torch
from torch import nn

import bigtwo
from bigtwo.bots import make
from bigtwo.envs import auto_encoding, catalogue, gym_env, vector_env


class Policy(nn.Module):
    """logit(s, a) = f(s) . g(a), where g embeds the action's cards and kind (precomputed per catalogue)."""

    def __init__(self, obs_size: int, action_features: torch.Tensor, width: int = 256, embed: int = 64):
        super().__init__()
        self.register_buffer("action_features", action_features)
        self.state = nn.Sequential(
            nn.Linear(obs_size, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(), nn.Linear(width, embed)
        )
        self.action = nn.Sequential(nn.Linear(action_features.shape[1], 128), nn.ReLU(), nn.Linear(128, embed))
        self.value = nn.Sequential(nn.Linear(obs_size, width), nn.ReLU(), nn.Linear(width, 1))

    def action_embeddings(self) -> torch.Tensor:
        return self.action(self.action_features)

    def forward(self, obs: torch.Tensor, legal: torch.Tensor, valid: torch.Tensor, emb: torch.Tensor | None = None):
        """A distribution over each row's legal actions (``legal``: catalogue indices, padded where not
        ``valid``), and the state values. Scoring only the legal actions keeps the update cheap."""
        if emb is None:  # training: embed only the actions this batch can take
            uniq, inverse = torch.unique(legal, return_inverse=True)
            rows = self.action(self.action_features[uniq])[inverse]
        else:
            rows = emb[legal]
        scores = torch.einsum("be,ble->bl", self.state(obs), rows)
        dist = torch.distributions.Categorical(logits=scores.masked_fill(~valid, -1e9))
        return dist, self.value(obs).squeeze(-1)


def legal_lists(masks: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    """Each row's legal action indices, padded into one tensor, with the padding marked invalid."""
    rows = [np.flatnonzero(m) for m in masks]
    width = max(len(r) for r in rows)
    legal = np.zeros((len(rows), width), dtype=np.int64)
    valid = np.zeros((len(rows), width), dtype=bool)
    for i, r in enumerate(rows):
        legal[i, : len(r)] = r
        valid[i, : len(r)] = True
    return torch.from_numpy(legal), torch.from_numpy(valid)


def pad_cat(parts: list[torch.Tensor], value: int | bool) -> torch.Tensor:
    """Stack rows of different widths, padding on the right."""
    width = max(p.shape[1] for p in parts)
    return torch.cat([nn.functional.pad(p, (0, width - p.shape[1]), value=value) for p in parts])


def action_features(rules: bigtwo.Ruleset) -> torch.Tensor:
    """Per action: its card vector, a one-hot of its kind (pass included) and its number of cards / 5."""
    cat = catalogue(rules)
    kinds = ["pass", *rules.combinations]
    kind = np.zeros((len(cat), len(kinds)), dtype=np.float32)
    kind[np.arange(len(cat)), [kinds.index(p.kind) for p in cat.plays]] = 1
    size = np.array([[p.size / 5] for p in cat.plays], dtype=np.float32)
    return torch.from_numpy(np.concatenate([cat.cards.astype(np.float32), kind, size], axis=1))


def evaluate(choose, rules: str, deals: int, seed: int = 10_000) -> tuple[float, float]:
    """Win rate and mean score (raw points) of ``choose(env, obs)`` in the learning seat over fixed deals."""
    env = gym_env(rules, opponents="random", seat="random")
    wins, total = 0, 0.0
    for d in range(deals):
        obs, info = env.reset(seed=seed + d)
        done = False
        while not done:
            obs, _, term, trunc, info = env.step(choose(env, obs))
            done = term or trunc
        result = info["result"]
        wins += result["finishing_order"][0] == env.seat
        total += result["scores"][env.seat]
    return wins / deals, total / deals


def bot_chooser(name: str):
    bot = make(name, seed=1)

    def choose(env: Any, obs: np.ndarray) -> int:
        seat = env.seat
        return env.aec.encode(bot.choose(env.rules, env.game.observation(seat)))

    return choose


def policy_chooser(policy: Policy):
    with torch.no_grad():
        emb = policy.action_embeddings()

    def choose(env: Any, obs: np.ndarray) -> int:
        with torch.no_grad():
            legal, valid = legal_lists(env.action_masks()[None])
            dist, _ = policy(torch.from_numpy(obs).float()[None], legal, valid, emb)
            return int(legal[0, dist.probs.argmax()])

    return choose


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--minutes", type=float, default=10.0, help="training time budget (evaluation comes on top)")
    ap.add_argument("--envs", type=int, default=16)
    ap.add_argument("--steps", type=int, default=64, help="steps per environment per update")
    ap.add_argument("--eval-deals", type=int, default=400)
    ap.add_argument("--eval-every", type=int, default=30, help="updates between evaluations")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="learning_curve.png")
    args = ap.parse_args()
    start = time.perf_counter()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # small matrices between environment steps: more threads only contend
    torch.distributions.Distribution.set_default_validate_args(False)
    rules = bigtwo.load_rules(args.rules)
    if auto_encoding(rules) != "catalogue":
        raise SystemExit(
            f"{rules.name!r} has no action catalogue (its environments index the legal plays instead), and this "
            "example embeds catalogue actions: pick a ruleset with five-card hands, such as classic"
        )

    envs = vector_env(args.envs, rules, opponents="random", seat="random", normalize_rewards=True)
    obs_size = envs.single_observation_space.shape[0]
    policy = Policy(obs_size, action_features(rules))
    opt = torch.optim.Adam(policy.parameters(), lr=3e-4)
    gamma, lam, clip, epochs, minibatch = 1.0, 0.95, 0.2, 4, 256

    baselines = {name: evaluate(bot_chooser(name), args.rules, args.eval_deals) for name in ("random", "greedy")}
    print(f"baselines over {args.eval_deals} deals (win rate, mean score):", baselines, flush=True)
    curve: list[tuple[int, float, float]] = [(0, *evaluate(policy_chooser(policy), args.rules, args.eval_deals))]
    print(f"rounds 0: policy win rate {curve[-1][1]:.3f}, mean score {curve[-1][2]:+.2f}", flush=True)

    obs, _ = envs.reset(seed=args.seed)
    rounds, update, t0 = 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < args.minutes * 60:
        buf: dict[str, list] = {k: [] for k in ("obs", "legal", "valid", "pos", "logp", "val", "rew", "done")}
        with torch.no_grad():
            emb = policy.action_embeddings()
            for _ in range(args.steps):
                o = torch.from_numpy(obs).float()
                legal, valid = legal_lists(envs.action_masks())
                dist, val = policy(o, legal, valid, emb)
                pos = dist.sample()
                obs, rew, term, trunc, _ = envs.step(legal.gather(1, pos[:, None]).squeeze(1).numpy())
                done = term | trunc
                rounds += int(done.sum())
                for k, v in zip(buf, (o, legal, valid, pos, dist.log_prob(pos), val, rew, done), strict=True):
                    buf[k].append(torch.as_tensor(v))
            legal, valid = legal_lists(envs.action_masks())
            last_val = policy(torch.from_numpy(obs).float(), legal, valid, emb)[1]
        val = torch.stack(buf["val"])
        rew = torch.stack(buf["rew"]).float()
        done = torch.stack(buf["done"]).float()
        adv = torch.zeros_like(rew)
        running = torch.zeros(args.envs)
        for t in reversed(range(args.steps)):
            nxt = last_val if t == args.steps - 1 else val[t + 1]
            delta = rew[t] + gamma * nxt * (1 - done[t]) - val[t]
            running = delta + gamma * lam * (1 - done[t]) * running
            adv[t] = running
        ret = adv + val
        n = args.steps * args.envs
        flat = {
            "obs": torch.cat(buf["obs"]),
            "legal": pad_cat(buf["legal"], 0),
            "valid": pad_cat(buf["valid"], False),
            "pos": torch.cat(buf["pos"]),
            "logp": torch.cat(buf["logp"]),
            "adv": adv.reshape(n),
            "ret": ret.reshape(n),
        }
        for _ in range(epochs):
            for idx in torch.randperm(n).split(minibatch):
                b = {k: v[idx] for k, v in flat.items()}
                dist, v = policy(b["obs"], b["legal"], b["valid"])
                ratio = (dist.log_prob(b["pos"]) - b["logp"]).exp()
                a = (b["adv"] - b["adv"].mean()) / (b["adv"].std() + 1e-8)
                loss_pi = -torch.min(ratio * a, ratio.clamp(1 - clip, 1 + clip) * a).mean()
                loss_v = (v - b["ret"]).pow(2).mean()
                loss = loss_pi + 0.5 * loss_v - 0.01 * dist.entropy().mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                opt.step()
        update += 1
        if update % args.eval_every == 0:
            curve.append((rounds, *evaluate(policy_chooser(policy), args.rules, args.eval_deals)))
            elapsed = (time.perf_counter() - t0) / 60
            print(
                f"rounds {rounds} ({elapsed:.1f} min): policy win rate {curve[-1][1]:.3f}, "
                f"mean score {curve[-1][2]:+.2f}",
                flush=True,
            )
    envs.close()
    final = evaluate(policy_chooser(policy), args.rules, args.eval_deals)
    curve.append((rounds, *final))
    minutes = (time.perf_counter() - t0) / 60
    print(f"trained {rounds} rounds ({update} updates) in {minutes:.1f} min")

    def line(who: str, wins: float, score: float) -> str:
        half = 1.96 * (wins * (1 - wins) / args.eval_deals) ** 0.5  # normal approximation, 95%
        return f"{who:<22} win rate {wins:.3f} +/- {half:.3f}, mean score {score:+.2f}"

    print(f"over the same {args.eval_deals} deals, learning seat vs 3 random bots:")
    print(line("trained policy", *final))
    print(line("random bot", *baselines["random"]))
    print(line("greedy bot", *baselines["greedy"]))
    print(f"whole run: {(time.perf_counter() - start) / 60:.1f} min")
    plot(curve, baselines, args)


def plot(curve, baselines, args) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [c[0] for c in curve]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4), dpi=90)
    for ax, col, label in ((axes[0], 1, "win rate"), (axes[1], 2, "mean score a round")):
        ax.plot(x, [c[col] for c in curve], marker="o", label="PPO policy")
        for name, style in (("random", "--"), ("greedy", ":")):
            ax.axhline(baselines[name][col - 1], linestyle=style, color="grey", label=f"{name} bot")
        ax.set_xlabel("rounds trained")
        ax.set_title(label, fontsize=10)
        ax.legend(fontsize=8)
    fig.suptitle(
        f"bigtwo {args.rules}: masked PPO on the CPU, learning seat vs 3 random bots ({args.eval_deals} fixed deals)",
        fontsize=10,
    )
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"learning curve: {args.out}")


if __name__ == "__main__":
    main()
