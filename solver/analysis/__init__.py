"""Many games and many missions: Monte Carlo runs, the batch report (rows, page, plots,
cluster runs), the mission generator and the validator of fan missions."""
