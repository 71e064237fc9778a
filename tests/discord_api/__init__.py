"""An offline stand-in for Discord's REST API and gateway, for end-to-end tests."""

from tests.discord_api.server import DiscordAPIServer, Guild, Member, Message, Sent

__all__ = ["DiscordAPIServer", "Guild", "Member", "Message", "Sent"]
