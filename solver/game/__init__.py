"""The card game: true state, per-seat observations, policies, and two engines.

``engine.py`` is the plain Python reference; ``fast.py`` is its Numba twin for
Monte Carlo runs. Both draw every random number from the same SplitMix64
stream in the same order, so one seed plays the same game on both.
"""
