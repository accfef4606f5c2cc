"""Tests of solver/puzzle/: the exact solvers, their reasons and the planner's library on disk."""
