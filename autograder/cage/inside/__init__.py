"""What runs inside the cage: the worker's bootstrap, its process handling, and the protocol and codec it
shares with the grader. Standard library only: these files are copied into the cage, never imported there
as this package."""
