"""``meja bench rules --game NAME``: random playouts of a game's rules engine (the game's own module)."""

from .pergame import command

_command = command("bench_rules")
add_arguments = _command.add_arguments
run = _command.run
