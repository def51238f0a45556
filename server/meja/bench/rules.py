"""``meja bench rules --game NAME``: random playouts of a game's rules engine (the game's own module)."""

from .pergame import command

_command = command("bench_rules")
add_arguments = _command.add_arguments
WANTS_ARGV = True  # meja.cli hands add_arguments the command line (to read --game before parsing)
run = _command.run
