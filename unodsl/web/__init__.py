"""A web table: people play any variant in their browsers, bots fill the other seats
(`unodsl serve`, the optional [web] extra; docs/serve.md).

    knowledge.py  what one seat (or a spectator) knows of the game now: the only reader of a Game for a page
    frames.py     what a page is sent: the one function that makes a frame, from that knowledge and public facts
    narration.py  the narrator's lines for one seat, as plain text runs with style classes
    protocol.py   what a page may send, parsed and checked; the refusals
    table.py      one table: its game, seats, bots, host actions, event log and saves
    hub.py        the tables and connections of a server: who is told what, the bots' turns
    server.py     the Starlette application: pages, static files, the WebSocket, the host's API
    static/       the page (plain HTML, CSS and JavaScript; no build step, nothing fetched elsewhere)

Only `server.py` imports Starlette; the rest is plain Python (tested without a server).
"""
