"""Rule-of-thumb agents, one module per ruleset."""
