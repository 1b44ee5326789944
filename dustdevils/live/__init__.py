"""Live updates: the broadcaster (``broadcast``) and the Server-Sent Events streams of the
conflict screens (``conflict_streams``) and the character sheets (``character_stream``)."""
