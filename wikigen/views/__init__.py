"""The views (V1–V5): the committed snapshot projected into a static site by the MkDocs plugin.

``knowledge`` reads the snapshot from git (the I/O edge), ``pages``, ``graph`` and ``communities``
are pure projections, ``mkdocs_plugin`` wires them into MkDocs. Nothing here writes to the repo,
calls a model or makes a snapshot (V5).
"""
