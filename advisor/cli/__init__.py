"""The command-line shell: parses flags, calls the core, renders tables or JSON."""
