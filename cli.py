"""`python cli.py ...` in a checkout runs the `kakapo` command (solver/cli/)."""

from solver.cli import main

if __name__ == "__main__":
    main()
