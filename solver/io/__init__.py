"""Files: bounded TOML reading, mission and piece-catalog files (with line-numbered errors),
mission writing, game logs, and where the bundled data lives."""
