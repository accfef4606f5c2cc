"""Tests of solver/analysis/: measuring (ladder, campaign's table, rate, calibrate, review, report, generate),
locally and on a cluster."""
