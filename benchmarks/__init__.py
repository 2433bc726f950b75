"""Speed measurements of tacsim (JSON + markdown results in benchmarks/results/)."""
