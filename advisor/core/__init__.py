"""The pure core: models, catalog schema, cost model, rule engine, recommendation. No I/O, no UI."""
