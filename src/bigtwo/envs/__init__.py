"""Research environments: PettingZoo AEC for every seat, Gymnasium for one learning seat against bots.

``bigtwo.envs.aec_env(rules="classic", players=4)``; ``bigtwo.envs.gym_env(rules="classic", opponents="random")``;
``bigtwo.envs.vector_env(8, rules="classic")``; or ``gymnasium.make("bigtwo/classic-v2")``. The procedures
before play (auctions, free trade, requests, exchanges) are answer actions where the rules have them
(:mod:`bigtwo.envs.aec`).
"""

from bigtwo.envs.actions import (
    ActionCatalogue,
    CatalogueTooLarge,
    auto_encoding,
    catalogue,
    estimate_catalogue_size,
    fits_catalogue,
    fold_copies,
    masks_to_vectors,
    pack_mask,
    vector_to_mask,
)
from bigtwo.envs.aec import ANSWER_WORDS, ENV_VERSION, BigTwoAECEnv, IllegalAction, aec_env, raw_env
from bigtwo.envs.legal_bound import answer_bound, legal_play_bound, max_hand_size
from bigtwo.envs.observations import ObservationEncoder
from bigtwo.envs.rewards import Rewards
from bigtwo.envs.single import (
    BigTwoGymEnv,
    MaskedAsyncVectorEnv,
    MaskedSyncVectorEnv,
    gym_env,
    register_envs,
    vector_env,
)

register_envs()

__all__ = [
    "ANSWER_WORDS",
    "ENV_VERSION",
    "ActionCatalogue",
    "BigTwoAECEnv",
    "BigTwoGymEnv",
    "CatalogueTooLarge",
    "IllegalAction",
    "MaskedAsyncVectorEnv",
    "MaskedSyncVectorEnv",
    "ObservationEncoder",
    "Rewards",
    "aec_env",
    "answer_bound",
    "auto_encoding",
    "catalogue",
    "estimate_catalogue_size",
    "fits_catalogue",
    "fold_copies",
    "gym_env",
    "legal_play_bound",
    "masks_to_vectors",
    "max_hand_size",
    "pack_mask",
    "raw_env",
    "register_envs",
    "vector_env",
    "vector_to_mask",
]
