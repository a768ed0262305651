"""R41: only what git tracks is published, and beside sources only passive media.

Before the fix, `evil.mdown` and `evil.markdown` under the sources folder were rendered by MkDocs
with their raw HTML, `evil.html` and `evil.svg` were copied as they were (scripts on the site's
origin), and `check` said nothing. Untracked and ignored files under content/ (`content/private/`,
a `*.pem` beside sources) were copied into the site by `wikigen build`.
"""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo, source

K = "content/sources/knowledge"
SCRIPT = "<script>window.__pwned = 1</script>"
MKDOCS_YML = "site_name: kb\ndocs_dir: content\nsite_dir: site\ntheme:\n  name: material\nplugins:\n  - wikigen\n"
GOOD = source("# Pods\n\nA pod is a group of containers that share storage and network.\n", title="Pods")
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
ACTIVE = {
    f"{K}/evil.mdown": f"# Evil\n\n{SCRIPT}\n",
    f"{K}/evil.markdown": f"# Evil\n\n{SCRIPT}\n",
    f"{K}/evil.html": f"<html>{SCRIPT}</html>\n",
    f"{K}/evil.svg": f'<svg xmlns="http://www.w3.org/2000/svg">{SCRIPT}</svg>\n',
    f"{K}/evil.js": "window.__pwned = 1;\n",
    f"{K}/notes.MD": "# Upper case\n\nNot a source: only `*.md` is.\n",
}
PASSIVE = {
    f"{K}/diagram.png": PNG,
    f"{K}/photo.JPG": b"\xff\xd8\xff\xe0" + b"\x00" * 16,
    f"{K}/paper.pdf": b"%PDF-1.4\n%%EOF\n",
    f"{K}/anim.gif": b"GIF89a" + b"\x00" * 16,
    f"{K}/pic.webp": b"RIFF\x00\x00\x00\x00WEBP",
    f"{K}/pic.avif": b"\x00\x00\x00\x1cftypavif",
    f"{K}/pic.jpeg": b"\xff\xd8\xff\xe0",
    "content/sources/tasks/.gitkeep": "",
}


def test_check_refuses_active_files_beside_sources_and_names_each(git_repo: GitRepo):
    """R41, R5: `check` (work tree, --staged, named files), `plan` and `compile` refuse HTML, SVG,
    scripts and other Markdown extensions under the sources folder, each file named; passive media,
    hidden files and files git ignores (never committed) pass; nothing is published."""
    git_repo.commit({".gitignore": "*.pem\n", f"{K}/pods.md": GOOD, **PASSIVE})
    git_repo.write({f"{K}/key.pem": "-----BEGIN PRIVATE KEY-----\n"})
    assert git_repo.wikigen("check").code == 0
    git_repo.commit(ACTIVE, message="no hook ran")
    head = git_repo.head()
    for args in (("check",), ("check", "--staged"), ("plan",), ("check", *(str(git_repo.root / p) for p in ACTIVE))):
        result = git_repo.wikigen(*args)
        assert result.code == 1, (args, result)
        for rel in ACTIVE:
            assert f"{rel}:1: " in result.out, (args, rel, result.out)
        for rel in [*PASSIVE, f"{K}/key.pem"]:
            assert rel not in result.out, (args, rel)
        assert "only passive media" in result.out and "Traceback" not in result.out + result.err
    assert "rename it to `evil.md`" in git_repo.wikigen("check").out
    compiled = git_repo.wikigen("compile", "--engine", "offline")
    assert compiled.code == 1 and all(rel in compiled.err for rel in ACTIVE), compiled.err
    assert git_repo.head() == head


@pytest.fixture
def built(git_repo: GitRepo) -> GitRepo:
    """A repo with tracked, untracked, ignored and active files under content/, built by the real
    `wikigen build` (MkDocs in a subprocess, the plugin of this checkout)."""
    git_repo.commit(
        {
            "mkdocs.yml": MKDOCS_YML,
            ".gitignore": "site/\ncontent/private/\n*.pem\n",
            "content/manual/index.md": "# Manual\n",
            f"{K}/pods.md": GOOD,
            f"{K}/diagram.png": PNG,
            **ACTIVE,
        }
    )
    git_repo.write(
        {
            "content/private/creds.txt": "password=hunter2\n",  # ignored
            f"{K}/key.pem": "-----BEGIN PRIVATE KEY-----\n",  # ignored
            "content/manual/draft.md": "# Draft\n\nNot added yet.\n",  # untracked
            f"{K}/notes.png": PNG,  # untracked
        }
    )
    git_repo.stage({"content/manual/preview.md": "# Preview\n\nAdded, not committed.\n"})
    result = git_repo.wikigen("build")
    assert result.code == 0, result
    return git_repo


def test_the_site_holds_no_untracked_or_ignored_file(built: GitRepo):
    """R41: `wikigen build` publishes only what git tracks under content/ — committed, or added to
    the index for a preview; never an ignored or untracked file."""
    site = built.root / "site"
    assert (site / "sources/knowledge/diagram.png").is_file()
    assert (site / "manual/preview/index.html").is_file()  # tracked in the work tree: a preview
    for gone in ("private/creds.txt", "sources/knowledge/key.pem", "manual/draft/index.html",
                 "sources/knowledge/notes.png"):
        assert not (site / gone).exists(), gone
    text = "\n".join(p.read_bytes().decode("utf-8", "replace") for p in site.rglob("*") if p.is_file())
    assert "hunter2" not in text and "PRIVATE KEY" not in text


def test_the_site_copies_no_active_file_from_the_sources_folder(built: GitRepo):
    """R41: HTML, SVG, scripts and other Markdown extensions beside sources are neither copied nor
    rendered, whatever `check` said; passive media still ships."""
    site = built.root / "site"
    assert (site / "sources/knowledge/diagram.png").is_file()
    assert (site / "sources/knowledge/pods/index.html").is_file()
    for rel in ACTIVE:
        uri = rel.removeprefix("content/")
        stem = uri.rsplit(".", 1)[0]
        assert not (site / uri).exists(), uri
        assert not (site / stem / "index.html").exists(), stem
    text = "\n".join(p.read_bytes().decode("utf-8", "replace") for p in site.rglob("*.html"))
    assert "window.__pwned" not in text
