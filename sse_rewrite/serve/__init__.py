"""`sse-rewrite serve`: an HTTP proxy shell around the sans-IO rewriter."""
