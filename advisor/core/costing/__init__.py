"""What a run costs and draws: `estimate()` with its cost, power and energy parts."""
