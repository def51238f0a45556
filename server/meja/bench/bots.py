"""``meja bench bots --game NAME``: the duplicate-deal strength of a game's bots (the game's own module)."""

from .pergame import command

_command = command("bench_bots")
add_arguments = _command.add_arguments
WANTS_ARGV = True  # meja.cli hands add_arguments the command line (to read --game before parsing)
run = _command.run
