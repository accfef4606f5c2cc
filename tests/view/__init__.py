"""Tests of solver/view/: what is drawn and printed, and the figures said in words."""
