"""OpenAI chat.completions: the default output and the `serve` front that forwards it."""
