"""The offline engine: embedded, deterministic, extractive (R20). `engine.OfflineEngine` is the entry."""
