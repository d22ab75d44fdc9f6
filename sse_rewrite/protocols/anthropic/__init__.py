"""Anthropic Messages: `--to anthropic` events and bodies, and the `/v1/messages` front of `serve`."""
