"""The web app: Binary Scrabble in the browser (``binscrabble serve``; docs/web.md)."""
