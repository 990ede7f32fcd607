"""`python -m advisor`: the same as the `advisor` command."""

from advisor.cli.main import main

raise SystemExit(main())
