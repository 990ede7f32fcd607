"""Presentation shared by the CLI, the app and the reports: number formats, styles, part labels,
reason lines and the headline. The core never imports it (an import-linter contract)."""
