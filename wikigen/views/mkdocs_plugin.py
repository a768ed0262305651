"""The ``wikigen`` MkDocs plugin: the committed snapshot projected into a static site.

A knowledge repo's ``mkdocs.yml`` needs ``docs_dir: content``, ``theme: {name: material}`` and
``plugins: [wikigen]``. At build time the plugin reads the snapshot committed at HEAD (never the
work tree), lists every page it generates (place and title, for the navigation), and writes each one
only when the theme renders it, dropping its HTML once the page is written: a build holds one
generated page's HTML at a time, however large the site.
Nothing under ``content/`` is written, no model is called and no snapshot is made (V5).

Unless ``mkdocs.yml`` says otherwise it also sets what the site needs: ``navigation.prune``, a short
navigation, no Google Fonts, and a local iframe-worker shim, so that the built site makes no request
beyond its own host.
"""

from __future__ import annotations

import html
import json
import logging
import os
import posixpath
import shutil
import unicodedata
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

import yaml
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page as MkPage
from mkdocs.structure.toc import get_toc
from mkdocs.utils.templates import TemplateContext

from wikigen.model.errors import WikigenError
from wikigen.model.objects import object_path
from wikigen.model.sources import CONTENT_DIR
from wikigen.model.terminal import visible
from wikigen.model.tree_problems import is_published_asset
from wikigen.store.git import GitStore
from wikigen.store.snapshot_commit import snapshot_commit
from wikigen.views.agent_files import OKF_FOLDER, OKF_ZIP, agent_files
from wikigen.views.graph import graph_files, site_graph
from wikigen.views.groups import DEFAULT_SEED
from wikigen.views.knowledge import Knowledge, load_knowledge
from wikigen.views.layout import (
    CONCEPT_INDEX,
    GRAPH_JSON,
    GRAPH_PAGE,
    HOME,
    TOPIC_INDEX,
    Layout,
    readable_names,
)
from wikigen.views.lint_page import LINT_PAGE, lint_page
from wikigen.views.markup import PageSpec
from wikigen.views.okf.archive import write_files, zip_bytes
from wikigen.views.okf.bundle import okf_bundle
from wikigen.views.pages import page_specs
from wikigen.views.site import CATEGORY_TITLES, Site
from wikigen.views.source_pages import source_page_specs

log = logging.getLogger("mkdocs.plugins.wikigen")

ASSET_DIR = Path(__file__).parent / "assets"
OWN_ASSETS = ("citations.css", "citations.js", "iframe-worker.js")
GRAPH_ASSETS = ("graph.js", "graph.css", "graph.LICENSES.txt")
SHIM = "assets/wikigen/iframe-worker.js"
MATERIAL_DEFAULT_FONT = {"text": "Roboto", "code": "Roboto Mono"}
PLACEHOLDER = "<!-- wikigen: this page is generated from the committed snapshot -->\n"
COMPILED_FOLDERS = ("wiki/articles/", "wiki/concepts/", "wiki/topics/")


class WikigenPluginConfig(base.Config):  # type: ignore[no-untyped-call]
    repo = c.Optional(c.Type(str))  # the knowledge repo; default: the folder of mkdocs.yml
    nav = c.Type(bool, default=True)  # a short navigation when mkdocs.yml has no `nav`
    prune = c.Type(bool, default=True)  # theme.features: navigation.prune
    offline = c.Type(bool, default=True)  # no Google Fonts; the local iframe-worker shim
    graph = c.Type(bool, default=True)  # the graph page and graph.json
    seed = c.Type(int, default=DEFAULT_SEED)  # Louvain's seed (V3)
    agents = c.Type(bool, default=True)  # objects.json, llms.txt and a JSON file beside each object page
    lint = c.Type(bool, default=True)  # the lint page: `wikigen lint`'s findings at HEAD
    okf = c.Type(bool, default=True)  # the Open Knowledge Format bundle: okf/ and okf.zip (V6)


class WikigenPlugin(BasePlugin[WikigenPluginConfig]):  # type: ignore[no-untyped-call]
    """Generates the reading pages, the raw views and the semantic graph from the committed snapshot."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self.root: Path | None = None
        self.pages: dict[str, PageSpec] = {}
        self.knowledge: Knowledge | None = None
        self.okf = False  # whether this build writes the OKF bundle

    # -- configuration -------------------------------------------------------------------------------

    @event_priority(50)  # before Material's offline plugin looks for an iframe-worker shim
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        folder = Path(config.config_file_path or ".").resolve().parent
        wanted = Path(self.config.repo).expanduser() if self.config.repo else folder
        if not wanted.is_absolute():
            wanted = folder / wanted
        try:
            self.root = GitStore(wanted).root.resolve()
        except WikigenError as exc:
            raise PluginError(f"wikigen: {exc.message}") from None
        docs = Path(config.docs_dir).resolve()
        if docs != self.root / "content":
            raise PluginError(
                f"wikigen: docs_dir is {docs}, but the knowledge repo's content folder is "
                f"{self.root / 'content'}; set `docs_dir: content` in mkdocs.yml"
            )
        theme = config.theme
        if theme.name != "material":
            log.info(
                "wikigen: the pages are made for theme `material`; `%s` will render them plainly", theme.name
            )
        features = list(theme.get("features") or [])
        if self.config.prune and "navigation.prune" not in features:
            features.append("navigation.prune")
        theme["features"] = features
        if self.config.offline:
            if theme.get("font") == MATERIAL_DEFAULT_FONT:
                theme["font"] = False  # Material would load Roboto from Google Fonts
            polyfills = list(config.extra.get("polyfills") or [])
            if not any("iframe-worker" in str(p) for p in polyfills):
                polyfills.append(SHIM)  # so that Material's offline plugin adds no unpkg.com script
            config.extra["polyfills"] = polyfills
        for name, target in (("citations.css", config.extra_css), ("citations.js", config.extra_javascript)):
            uri = f"assets/wikigen/{name}"
            if uri not in [str(x) for x in target]:
                target.append(uri)
        if config.validation.nav.omitted_files == logging.INFO:
            # Thousands of source pages are reached from their category pages, not from the nav.
            config.validation.nav.omitted_files = logging.DEBUG
        return config

    # -- pages ---------------------------------------------------------------------------------------

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        assert self.root is not None
        _drop_links(files, Path(config.docs_dir))
        try:
            _drop_untracked(files, Path(config.docs_dir), GitStore(self.root).tracked(CONTENT_DIR))
            knowledge = load_knowledge(self.root)
        except WikigenError as exc:
            raise PluginError(f"wikigen: {exc.message}") from None
        _drop_active_assets(files)
        if not knowledge.sources_dir.startswith(CONTENT_DIR + "/"):
            _add_media(files, config, self.root, knowledge.sources_dir)
        for problem in knowledge.problems:
            log.warning("wikigen: %s", visible(problem))
        self.knowledge = knowledge

        # Sources and compiled files are rendered from git by this plugin, never as raw Markdown.
        for file in list(files):
            uri = file.src_uri
            rendered_here = uri.startswith(("sources/", *COMPILED_FOLDERS)) and uri.endswith(".md")
            if rendered_here or uri == "wiki/relations.jsonl" or uri.startswith("wiki/relations/"):
                files.remove(file)
        user_pages = {f.src_uri for f in files if f.is_documentation_page()}
        home = HOME if not ({"index.md", "README.md"} & user_pages) else "wiki/index.md"
        layout = Layout(
            source_ids=knowledge.sources,
            object_files={
                oid: object_path(oid) for oid in knowledge.objects if not oid.startswith("relation/")
            },
            use_directory_urls=config.use_directory_urls,
            home=home,
            names=readable_names(knowledge.objects),
        )
        bundle = all((ASSET_DIR / name).is_file() for name in GRAPH_ASSETS[:2])
        if self.config.graph and not bundle:
            log.info(
                "wikigen: this copy of wikigen has no graph viewer (%s), so the graph page draws no graph "
                "and says how to get one: install wikigen from a release, or run `make assets` in a checkout",
                ASSET_DIR / "graph.js",
            )
        site = Site(knowledge, layout, graph_bundle=bundle)
        pages = page_specs(site) + source_page_specs(site)
        if not self.config.graph:
            pages = [p for p in pages if p.src_uri != GRAPH_PAGE]
        if self.config.lint:
            pages.append(_lint_spec(self.root, knowledge))

        self.pages = {}
        for page in pages:
            if page.src_uri in user_pages:
                log.info(
                    "wikigen: %s exists in docs_dir; it is kept instead of the generated page", visible(page.src_uri)
                )
                continue
            self.pages[page.src_uri] = page
            files.append(File.generated(config, page.src_uri, content=_stub(page)))
        if self.config.graph:
            folder = posixpath.dirname(GRAPH_JSON)
            for name, document in graph_files(site_graph(site, seed=self.config.seed)).items():
                data = json.dumps(document, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
                files.append(File.generated(config, posixpath.join(folder, name), content=data))
        self.okf = self.config.okf and knowledge.exists and not _okf_taken(files)
        if self.config.agents:  # E6: a static API for agents, no server
            made = agent_files(
                knowledge, layout, site_name=config.site_name, site_url=config.site_url, okf=self.okf
            )
            for uri, text in made.items():
                if files.get_file_from_path(uri) is None:
                    files.append(File.generated(config, uri, content=text))
        names = OWN_ASSETS + (GRAPH_ASSETS if bundle and self.config.graph else ())
        for name in names:
            uri = f"assets/wikigen/{name}"
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(ASSET_DIR / name)))

        if self.config.nav and config.nav is None:
            config.nav = _navigation(home, files, set(self.pages), self.config.graph, self.config.lint)
        return files

    def on_page_content(self, html: str, page: MkPage, config: MkDocsConfig, files: Files) -> str:
        # MkDocs keeps every page's content from here until the build ends, so a generated page's
        # HTML is made only in on_page_context, just before the theme renders it.
        return "" if self._spec(page) is not None else html

    @event_priority(100)  # before the search plugin indexes the page's content and headings
    def on_page_context(
        self, context: TemplateContext, /, *, page: MkPage, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        spec = self._spec(page)
        if spec is not None:
            made = spec.make()
            page.content = made.html
            page.toc = get_toc(_toc_tokens(made.toc))
        return context

    @event_priority(-100)  # after every other plugin has seen the written page
    def on_post_page(self, output: str, page: MkPage, config: MkDocsConfig) -> str:
        if self._spec(page) is not None:
            page.content = ""  # written; the next page's HTML need not wait for this one's
        return output

    def _spec(self, page: MkPage) -> PageSpec | None:
        return self.pages.get(page.file.src_uri) if page.file.generated_by is not None else None

    def on_post_build(self, config: MkDocsConfig) -> None:
        """V6: the snapshot's OKF bundle, as plain files (never rendered as pages) and as one zip."""
        if not self.okf or self.knowledge is None or self.root is None:
            return
        try:
            bundle = okf_bundle(self.knowledge, snapshot_commit(GitStore(self.root), self.knowledge.head))
        except WikigenError as exc:
            raise PluginError(f"wikigen: {exc.message}") from None
        site = Path(config.site_dir)
        folder = site / OKF_FOLDER
        if folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder)  # a previous build's bundle (`mkdocs build --dirty`)
        write_files(folder, bundle.files)
        (site / OKF_ZIP).write_bytes(zip_bytes(bundle.files, OKF_FOLDER))

    def on_serve(self, server: LiveReloadServer, config: MkDocsConfig, builder: Any) -> LiveReloadServer:
        """Rebuild when a commit moves HEAD: the site shows what is committed, not the work tree."""
        assert self.root is not None
        git_dir = Path(GitStore(self.root).repo.path)
        for path in (git_dir / "HEAD", git_dir / "refs" / "heads", git_dir / "packed-refs"):
            if path.exists():
                server.watch(str(path))
        return server


def _okf_taken(files: Files) -> bool:
    """Whether docs_dir has its own ``okf/`` or ``okf.zip``, which the bundle would overwrite: then
    it is kept and the bundle is not written."""
    own = [f.src_uri for f in files if f.src_uri == OKF_ZIP or f.src_uri.startswith(OKF_FOLDER + "/")]
    if own:
        log.info("wikigen: %s exists in docs_dir, so the site has no OKF bundle", visible(own[0]))
    return bool(own)


def _drop_links(files: Files, docs_dir: Path) -> None:
    """R41: never copy a symbolic link into the site, whatever `wikigen check` said.

    MkDocs follows links (folders too) and copies their targets, which could publish the build
    machine's files (`.git/config`, `/proc/self/environ`). A file that is a link, lies in a linked
    folder, or resolves outside ``docs_dir`` is dropped with a warning; `--strict` then fails.
    """
    docs = Path(os.path.realpath(docs_dir))
    for file in list(files):
        if file.generated_by is not None or file.abs_src_path is None or file.src_dir is None:
            continue
        if Path(os.path.realpath(file.src_dir)) != docs:
            continue  # the theme's own files
        if _escapes(docs_dir, Path(file.src_uri).parts, docs):
            log.warning(
                "wikigen: %s/%s is a symbolic link (or lies in a linked folder), so it is not copied into "
                "the site; replace the link with a plain file (`wikigen check` lists every link)",
                docs_dir.name,
                visible(file.src_uri),
            )
            files.remove(file)


def _escapes(base: Path, parts: Sequence[str], inside: Path) -> bool:
    """R41: the file at ``base``/``parts`` is a symbolic link, lies in a linked folder, or resolves
    outside ``inside`` (a real path): its bytes are not the repository's to publish."""
    linked = any(base.joinpath(*parts[:end]).is_symlink() for end in range(1, len(parts) + 1))
    return linked or not Path(os.path.realpath(base.joinpath(*parts))).is_relative_to(inside)


def _docs_files(files: Files, docs_dir: Path) -> list[File]:
    """The files MkDocs found in ``docs_dir`` (not the theme's, not generated ones)."""
    docs = Path(os.path.realpath(docs_dir))
    return [
        file
        for file in files
        if file.generated_by is None and file.src_dir is not None and Path(os.path.realpath(file.src_dir)) == docs
    ]


def _drop_untracked(files: Files, docs_dir: Path, tracked: frozenset[str]) -> None:
    """R41: the site publishes what git tracks under content/ (committed, or added for a preview),
    never an untracked or ignored file that happens to lie there (a key, private notes)."""
    known = {unicodedata.normalize("NFC", path) for path in tracked}
    left_out = []
    for file in _docs_files(files, docs_dir):
        if unicodedata.normalize("NFC", f"{CONTENT_DIR}/{file.src_uri}") not in known:
            files.remove(file)
            left_out.append(file.src_uri)
    if left_out:
        shown = visible(", ".join(f"{CONTENT_DIR}/{uri}" for uri in sorted(left_out)[:5]))
        more = f" and {len(left_out) - 5} more" if len(left_out) > 5 else ""
        log.info(
            "wikigen: %d file(s) that git does not track are left out of the site: %s%s (`git add` a file "
            "to publish it)", len(left_out), shown, more,
        )


def _drop_active_assets(files: Files) -> None:
    """R41: beside sources only passive media is copied (``wikigen.model.tree_problems.ASSET_EXTENSIONS``); an
    HTML, SVG, script or other Markdown file there would run on the site, whatever `check` said.
    Sources themselves (``*.md``) are rendered from git by this plugin."""
    for file in list(files):
        uri = file.src_uri
        if file.generated_by is not None or not uri.startswith("sources/") or uri.endswith(".md"):
            continue
        if not is_published_asset(uri) and not uri.rsplit("/", 1)[-1].startswith("."):
            log.warning(
                "wikigen: %s/%s is not copied into the site: beside sources only passive media is published "
                "(`wikigen check` says why)", CONTENT_DIR, visible(uri),
            )
        if not is_published_asset(uri):
            files.remove(file)


def _add_media(files: Files, config: MkDocsConfig, root: Path, folder: str) -> None:
    """R41: the passive media beside the sources of a folder outside content/ (a docs/ folder adopted
    in place), where they would lie under content/sources/ (``sources/…``), since MkDocs never copies
    that folder itself: files git tracks only, never a link, a file in a linked folder or a hidden one."""
    try:
        tracked = GitStore(root).tracked(folder)
    except WikigenError as exc:
        raise PluginError(f"wikigen: {exc.message}") from None
    inside = Path(os.path.realpath(root / folder))
    for path in sorted(tracked):
        parts = path.split("/")
        if not is_published_asset(path) or any(part.startswith(".") for part in parts):
            continue
        full = root / path
        if _escapes(root, parts, inside) or not full.is_file():
            continue  # `wikigen check` names every link under the sources folder
        uri = "sources/" + path[len(folder) + 1 :]
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(full)))


def _stub(page: PageSpec) -> str:
    # Titles are HTML in MkDocs' templates (the nav, <title>): escaped here, once.
    meta: dict[str, Any] = {"title": html.escape(page.title, quote=False), **page.meta}
    return "---\n" + yaml.safe_dump(meta, allow_unicode=True, sort_keys=True) + "---\n\n" + PLACEHOLDER


def _toc_tokens(entries: tuple[tuple[int, str, str], ...]) -> list[Any]:
    tokens: list[dict[str, Any]] = []
    stack: list[dict[str, Any]] = []
    for level, anchor, text in entries:
        token = {"level": level, "id": anchor, "name": html.escape(text, quote=False), "children": []}
        while stack and stack[-1]["level"] >= level:
            stack.pop()
        (stack[-1]["children"] if stack else tokens).append(token)
        stack.append(token)
    return tokens


def _lint_spec(root: Path, knowledge: Knowledge) -> PageSpec:
    """The lint page, its findings found now (the page is written later, as every page is)."""
    from wikigen.lint import lint
    from wikigen.views.lint_inputs import read_lint_inputs

    try:
        inputs = read_lint_inputs(root, knowledge=knowledge)
    except WikigenError as exc:
        raise PluginError(f"wikigen: {exc.message}") from None
    return PageSpec(LINT_PAGE, "Lint", partial(lint_page, lint(inputs), inputs.now))


def _navigation(home: str, files: Files, generated: set[str], graph: bool, lint: bool = True) -> list[Any]:
    """Home, the category directories, the concept index, topics, the graph, the lint page, then
    people's own pages grouped by folder — never the thousands of source and compiled pages."""
    nav: list[Any] = [{"Home": home}]
    categories = sorted(u for u in generated if u.startswith("categories/"))
    order = list(CATEGORY_TITLES)
    categories.sort(key=lambda u: (order.index(u[11:-3]) if u[11:-3] in order else len(order), u))
    nav.append({"Categories": [{CATEGORY_TITLES.get(u[11:-3], u[11:-3]): u} for u in categories]})
    nav.append({"Concepts": CONCEPT_INDEX})
    nav.append({"Topics": TOPIC_INDEX})
    if graph and GRAPH_PAGE in generated:
        nav.append({"Graph": GRAPH_PAGE})
    if lint and LINT_PAGE in generated:
        nav.append({"Lint": LINT_PAGE})
    own = sorted(f.src_uri for f in files if f.is_documentation_page() and f.src_uri not in generated)
    sections: dict[str, list[str]] = {}
    for uri in own:
        folder, _, _ = uri.rpartition("/")
        if not folder:
            nav.append(uri)
            continue
        sections.setdefault(folder.split("/")[0], []).append(uri)
    for folder, uris in sorted(sections.items()):
        uris.sort(key=lambda u: (u.rsplit("/", 1)[-1] not in ("index.md", "README.md"), u))
        nav.append({folder.replace("-", " ").replace("_", " ").capitalize(): uris})
    return nav
