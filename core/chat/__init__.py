"""The neutral chat layer: commands in, views and notices out.

Adapters (Telegram, the console, ...) translate their platform's input into
`commands` and render `views` and `Outcome`s; every rule stays in the engine
and every chat decision (lobbies, permissions, AI turns, timers, stats) in
`service.ChatService`, so all adapters behave alike.
"""
