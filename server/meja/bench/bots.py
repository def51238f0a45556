"""``meja bench bots --game NAME``: the duplicate-deal strength of a game's bots (the game's own module)."""

from .pergame import command

_command = command("bench_bots")
add_arguments = _command.add_arguments
run = _command.run
