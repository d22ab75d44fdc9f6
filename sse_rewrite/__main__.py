"""`python -m sse_rewrite`: the same as the `sse-rewrite` command."""

from .entry import main

main()
