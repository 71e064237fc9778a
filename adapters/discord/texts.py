"""How Discord names its commands in the words core's texts say ("Start one
with /uno new"), kept without discord.py: the web table shows a Discord
channel's table too (its link is on the channel's status message), and a
page for that channel must name the commands its people have there, not
Telegram's `/new`; the web server may run without discord.py installed."""

from __future__ import annotations

#: A channel's chat id starts so (`dc_<guild>_<channel>`, `place.chat_id`).
CHAT_PREFIX = "dc_"
#: How a lobby names the command that shows the rules here (a subcommand of /uno).
RULES_COMMAND = "/uno rules"
#: How core's texts name a command here (`render.error_text`, `answers.reading_lines`):
#: "Start one with /uno new", not Telegram's `/new`, which no Discord server has.
COMMANDS = {"new": "/uno new", "stop": "/uno stop", "rules": RULES_COMMAND, "variant": "/uno variant",
            "top": "/uno top"}
