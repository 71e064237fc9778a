"""The web table: your hand as real cards in a browser and in a Telegram Mini App.

`server.py` (aiohttp: the page, its assets, card pictures, the WebSocket),
`state.py` (what one page is sent, from core's table model), `links.py`
(signed links and Telegram's initData), `cli.py` (`unobot web`, and the
server inside `unobot telegram`), `static/` (plain HTML, CSS and JS).
"""
