"""The console adapter: `unobot play`, one person against AI players in a terminal.

It speaks only the neutral chat layer (`core.chat`): typed lines become
`commands`, `ChatService` carries them out (AI seats move inside it), and
`views` plus the outcome's events are drawn with rich. No rule is decided
here, so the console plays exactly like every other adapter.

Modules: `cli` (the sub-command and its options), `app` (the game loop),
`input` (a typed line -> what the person means), `render` (rich output),
`terminal` (reading a line, with a turn timer when the variant has one).
"""
