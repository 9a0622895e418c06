import bigtwo


def test_a_random_game_ends():
    g = bigtwo.Game("classic", seed=1)
    import random

    rng = random.Random(1)
    while not g.is_over:
        g.play(rng.choice(g.legal_plays()))
    assert sum(g.result.scores) == 0
