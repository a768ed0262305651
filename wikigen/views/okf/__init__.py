"""The committed snapshot as an Open Knowledge Format v0.2 bundle (V6): one concept document per
article, concept and topic, an ``index.md`` per folder, relations as Markdown links. Pure building
lives in the modules named by what they make; :mod:`.bundle` reads the snapshot (the I/O edge)."""
