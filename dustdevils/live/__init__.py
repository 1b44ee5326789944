"""Live updates: the broadcaster (``broadcast``), the one stream protocol of every kind of
table (``tables``: conflicts in ``conflict_streams``, fights and saloon games in their apps)
and the streams of the character sheets and the campaign page."""
