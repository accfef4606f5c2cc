"""Pictures of a board: the terminal drawing and PNG files."""
