"""The commands' bodies: one module per `wikigen` command; `wikigen.cli` only wires them to click."""
