"""One module per `satsudoku` subcommand; each has `register(subparsers)` and a `run(args)`."""

COMMANDS = ("solve", "convert")
