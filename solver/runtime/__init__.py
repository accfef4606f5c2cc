"""How work runs: worker processes that die with their parent, and the Numba setup (the
compiled kernels' cache folder)."""
