"""Evidence: the passages of a source, and the passages that best support a claim."""
