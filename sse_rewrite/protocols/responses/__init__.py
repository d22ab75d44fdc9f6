"""The OpenAI Responses API (`/v1/responses`, `--to responses`): Codex CLI's protocol."""
