"""Reinforcement learning: Deep Monte-Carlo self-play training (``bigtwo train``; needs the ``[rl]`` extra).

:mod:`bigtwo.rl.dmc` (torch) trains; :mod:`bigtwo.rl.evaluate` (numpy) measures a policy against bots.
"""
