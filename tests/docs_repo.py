"""A docs repo's own site settings, for the adopt-in-place tests: as Typer's mkdocs.yml has them, an
inherited file that is not in the copy, hooks, plugins wikigen does not install, and tags only
MkDocs' own loader knows."""

OWN_MKDOCS = """INHERIT: ./mkdocs.env.yml
site_name: Typer
site_url: https://typer.tiangolo.com/
theme:
  name: material
  custom_dir: docs/overrides
plugins:
  social: null
  search: null
  macros:
    include_yaml:
      - sponsors: docs/data/sponsors.yml
  redirects:
    redirect_maps:
      typer-cli.md: tutorial/typer-command.md
hooks:
  - scripts/mkdocs_hooks.py
markdown_extensions:
  pymdownx.emoji:
    emoji_index: !!python/name:material.extensions.emoji.twemoji
    emoji_generator: !!python/name:material.extensions.emoji.to_svg
  mdx_include:
    base_path: docs
"""
