"""The Discord adapter: `unobot discord`, on discord.py 2 (slash commands,
buttons and select menus, ephemeral hands), over the neutral chat layer."""
