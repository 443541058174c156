"""``python -m hearts_analysis.analysis``: regenerate docs/statistics.md from the catalogue."""

from .catalogue import write_docs

print(f"wrote {write_docs()}")
