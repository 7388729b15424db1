"""`python -m ringmaster`: the same command line as the `ringmaster` console script."""

from ringmaster.cli import main

main()
