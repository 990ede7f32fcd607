"""Shell code that touches files: loading the catalog, rules and scenarios; atomic writes."""
