"""The values the other packages share: sources, objects, ids, hashing, settings, errors. Pure."""
