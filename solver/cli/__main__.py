"""`python -m solver.cli`: the `kakapo` command."""

from solver.cli import main

main()
