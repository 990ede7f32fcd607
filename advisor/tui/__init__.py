"""The Textual app. Nothing outside this package imports Textual."""
