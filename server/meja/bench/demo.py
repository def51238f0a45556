"""``meja demo --game NAME``: a round between bots, narrated in the terminal (the game's own module)."""

from .pergame import command

_command = command("demo")
add_arguments = _command.add_arguments
WANTS_ARGV = True  # meja.cli hands add_arguments the command line (to read --game before parsing)
run = _command.run
