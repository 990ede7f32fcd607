"""Questions asked of many estimates: ranges, sensitivity, break-even points and deadline sizing."""

SAMPLES = 1000
"""Joint samples drawn for P10-P90 ranges and the winner's robustness (here, not in `uncertainty`, so
the CLI can show the default without loading the analysis)."""
