"""People's journeys walked end to end, through the command line and the page."""
