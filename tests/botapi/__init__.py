"""An offline stand-in for the Telegram Bot API, for end-to-end tests.

The real python-telegram-bot client talks to :class:`BotAPIServer` over HTTP on
127.0.0.1, so a test exercises the same request encoding, error mapping and
long polling as production, without a network or a real bot token.
"""

from tests.botapi.server import BOT_API_SERVER_TOKEN, ApiError, BotAPIServer, Call, parse_html

__all__ = ["BOT_API_SERVER_TOKEN", "ApiError", "BotAPIServer", "Call", "parse_html"]
