"""Tests of solver/play/: the human seat at the terminal."""
