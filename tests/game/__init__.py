"""Tests of solver/game/: the game's rules, the reference and Numba engines as twins, the simulated players,
recorded and continued games."""
