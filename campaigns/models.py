from __future__ import annotations

# Models arrive with their features; this app has none yet.
