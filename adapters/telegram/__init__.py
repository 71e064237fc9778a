"""The Telegram adapter: python-telegram-bot 22 in front of the chat service.

Every game lives in the store and goes through `core.chat.service.ChatService`;
this package only turns updates into neutral commands and outcomes into
messages, so any number of bot processes can serve the same bot.
"""
