"""Live updates: the broadcaster (``broadcast``), the Server-Sent Events format (``sse``) and
the one stream protocol of every kind of table (``tables``). Each app's streams live in the app:
``conflicts.streams``, every declared game's (``tables.site``: a fight's too), and the
``changed`` streams of the character sheets (``characters.streams``) and the campaign pages
(``campaigns.streams``)."""
