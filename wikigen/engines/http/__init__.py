"""The HTTP engine: an OpenAI-compatible chat-completions client, its prompts and its replies."""
