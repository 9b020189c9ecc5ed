"""Sphinx extension for okl's documentation.

- ``.. okl-example:: FILE.okl``: an OKL example (the directive's content) shown with what the
  real translator, ``okl.translate``, makes of it for each mode, computed while the docs are
  built: nothing generated is ever pasted into the pages.  A translation that fails, or warns
  without ``:warnings:``, fails the build.
- ``.. okl-error:: FILE.okl``: an OKL example that must fail, shown with the diagnostics okl
  gives (``:mode:``), or the compiler's error from a real build (``:build: MODE``).
- ``.. output::``: the output the Python or console example just above it prints;
  tests/test_docs.py runs the example and compares (``...`` matches anything, as in doctest).
- the ``okl`` Pygments lexer (C plus ``@attributes``).
- ``.. okl-bench-ratios::``: the okl / peer ratios of committed benchmark reports, read from
  them while the docs are built.

Every example (OKL files, Python and console blocks, stated outputs) is collected from the
doctrees and written as JSON to ``okl_examples_manifest`` (a config value, empty by default:
``sphinx-build -D okl_examples_manifest=PATH``), which is what tests/test_docs.py runs.
"""

from __future__ import annotations

import json
import re

from docutils import nodes
from docutils.parsers.rst import directives
from pygments.lexer import inherit
from pygments.lexers.c_cpp import CLexer
from pygments.token import Name
from sphinx.directives.code import container_wrapper
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

log = logging.getLogger(__name__)

MODES = ("serial", "openmp", "opencl", "cuda", "hip")
#: how each mode's output is titled and highlighted
TITLE = {"serial": "serial (C99)", "openmp": "openmp (C99 + OpenMP)", "opencl": "opencl (OpenCL C)",
         "cuda": "cuda (CUDA C++)", "hip": "hip (HIP C++)"}
LEXER = {"serial": "c", "openmp": "c", "opencl": "c", "cuda": "cuda", "hip": "cpp"}
#: which blocks are examples that tests/test_docs.py runs
RUN_LANGUAGES = {"python": "python", "python3": "python", "console": "console"}


class OklLexer(CLexer):
    """C with OKL's attributes (``@outer``, ``@ restrict``, ``@tile(...)``)."""

    name = "OKL"
    aliases = ["okl"]
    filenames = ["*.okl"]
    tokens = {"statements": [(r"@\s*[A-Za-z_]\w*", Name.Decorator), inherit]}


# -- what is shown of a translation -----------------------------------------------------------

_ENTRY = re.compile(r"^void _okl_entry_\w+\(void \*\*args\) \{\n.*?^\}\n", re.M | re.S)
_INCLUDE = re.compile(r"^\s*#\s*include\s*<[^>]*>\s*$")


def shown(source: str) -> str:
    """A translation as the pages show it: without ``#include <...>`` lines and without the
    CPU modes' ``_okl_entry_<kernel>(void **args)`` wrappers (the C function the runtime
    calls), which are the same for every kernel.  ``oklc translate`` prints everything."""
    text = _ENTRY.sub("", source)
    text = "\n".join(line for line in text.split("\n") if not _INCLUDE.match(line))
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n") + "\n"


def _defines(text: str) -> dict[str, str]:
    out = {}
    for item in text.split():
        name, _, value = item.partition("=")
        out[name] = value if _ else "1"
    return out


def _modes(text: str | None, default=MODES) -> list[str]:
    if text is None:
        return list(default)
    words = text.replace(",", " ").split()
    if words == ["none"]:
        return []
    bad = [w for w in words if w not in MODES]
    if bad:
        raise ValueError(f"unknown mode(s) {', '.join(bad)}: choose from {', '.join(MODES)}")
    return words


# -- nodes ------------------------------------------------------------------------------------

class details(nodes.General, nodes.Element):
    """A collapsible block (HTML ``<details>``); other builders show its content."""


def _visit_details_html(self, node):
    attrs = ' open=""' if node.get("open") else ""
    classes = " ".join(node.get("classes", []))
    summary = node.get("summary", "")
    self.body.append(f'<details class="{classes}"{attrs}><summary>'
                     f"{self.encode(summary)}</summary>\n")


def _depart_details_html(self, node):
    self.body.append("</details>\n")


def _pass(self, node):
    pass


def _literal(text: str, language: str, *classes: str) -> nodes.literal_block:
    node = nodes.literal_block(text, text, language=language, classes=list(classes))
    node["okl_role"] = classes[0] if classes else ""
    return node


def _collapsible(summary: str, body: nodes.Node, *, open_: bool, kind: str) -> details:
    box = details(summary=summary, open=open_, classes=["okl-details", kind])
    box += body
    return box


# -- directives -------------------------------------------------------------------------------

def _store(env, key: str, item: dict) -> None:
    data = env.__dict__.setdefault("okl_docs", {})
    data.setdefault(env.docname, {}).setdefault(key, []).append(item)


class OklExample(SphinxDirective):
    """``.. okl-example:: name.okl`` with options ``:modes:`` (default: all five; ``none``),
    ``:open:`` (the mode shown unfolded), ``:plan:`` (show the launch plan), ``:defines:``
    (``N=V ...``, as ``oklc -D``), ``:warnings:`` (show the warnings okl gives; without it a
    warning fails the build)."""

    required_arguments = 1
    has_content = True
    option_spec = {"modes": directives.unchanged, "open": directives.unchanged,
                   "plan": directives.flag, "defines": directives.unchanged,
                   "warnings": directives.flag}

    def run(self):
        import okl

        filename = self.arguments[0]
        source = "\n".join(self.content) + "\n"
        defines = _defines(self.options.get("defines", ""))
        try:
            modes = _modes(self.options.get("modes"))
        except ValueError as e:
            raise self.error(str(e)) from None
        opened = self.options.get("open", "")
        shown_source = _literal(source, "okl", "okl-source")
        out: list[nodes.Node] = [container_wrapper(self, shown_source, filename)]
        translations = {}
        warnings = None
        plan = None
        for mode in modes:
            try:
                t = okl.translate(source, mode, defines=defines, filename=filename,
                                  line_directives=False)
            except okl.OKLError as e:
                raise self.error(f"{filename} does not translate for {mode}:\n{e}") from None
            text = shown(t.source)
            translations[mode] = text
            rendered = "\n".join(d.render() for d in t.diagnostics)
            if warnings is None:
                warnings = rendered
            if mode == "cuda" or plan is None:
                plan = t.launcher()
            out.append(_collapsible(TITLE[mode], _literal(text, LEXER[mode], "okl-generated"),
                                    open_=mode == opened, kind="okl-mode-" + mode))
        if warnings and "warnings" not in self.options:
            log.warning("%s: okl warns about this example (add :warnings: to show it):\n%s",
                        filename, warnings, location=self.get_location())
        if "warnings" in self.options:
            if not warnings:
                raise self.error(f"{filename}: :warnings: given, but okl gives none")
            box = _literal(warnings, "none", "okl-warnings")
            out.insert(1, container_wrapper(self, box, "okl's warnings (every mode)"))
        if "plan" in self.options and plan is not None:
            out.append(_collapsible("launch plan", _literal(plan, "none", "okl-plan"),
                                    open_=opened == "plan", kind="okl-plan"))
        _store(self.env, "okl", {
            "file": filename, "source": source, "defines": defines, "modes": modes,
            "translations": translations, "line": self.lineno,
            "plan": plan if "plan" in self.options else None,
            "warnings": warnings if "warnings" in self.options else None})
        return out


class OklError(SphinxDirective):
    """``.. okl-error:: name.okl`` with ``:mode:`` (translate for this mode; default
    serial) or ``:build: MODE`` (build it on a Device of that mode: the compiler's error).
    The example must fail; the message okl gives is shown under it."""

    required_arguments = 1
    has_content = True
    option_spec = {"mode": directives.unchanged, "build": directives.unchanged}

    def run(self):
        import okl

        filename = self.arguments[0]
        source = "\n".join(self.content) + "\n"
        build = self.options.get("build")
        mode = (build or self.options.get("mode") or "serial").strip()
        if mode not in MODES:
            raise self.error(f"unknown mode {mode!r}")
        try:
            if build:
                message = _build_error(source, filename, mode)
            else:
                okl.translate(source, mode, filename=filename)
                message = None
        except okl.OKLError as e:
            message = str(e)
        if message is None:
            raise self.error(f"{filename} was expected to fail for {mode}, but it "
                             + ("builds" if build else "translates"))
        caption = f"okl's message ({'building' if build else 'translating'} for {mode})"
        _store(self.env, "errors", {"file": filename, "source": source, "mode": mode,
                                    "build": bool(build), "message": message,
                                    "line": self.lineno})
        return [container_wrapper(self, _literal(source, "okl", "okl-source"), filename),
                container_wrapper(self, _literal(message, "none", "okl-error"), caption)]


def _build_error(source: str, filename: str, mode: str) -> str | None:
    """Build ``source`` on a fresh Device with a private cache; the BuildError's message,
    with the temporary build folder's random name replaced by ``XXXXXXXX``."""
    import tempfile

    import okl

    with tempfile.TemporaryDirectory() as cache:
        dev = okl.Device(mode, cache_dir=cache)
        kernels = re.findall(r"@kernel\s+void\s+(\w+)", source)
        try:
            dev.build_kernel_from_string(source, kernels[0], filename=filename)
        except okl.BuildError as e:
            return re.sub(r"(okl-build-)\w+", r"\1XXXXXXXX", str(e))
    return None


class Output(SphinxDirective):
    """``.. output::``: what the example block just before it prints."""

    has_content = True

    def run(self):
        text = "\n".join(self.content)
        node = _literal(text, "none", "okl-output")
        return [container_wrapper(self, node, "Output")]


# -- benchmark results ------------------------------------------------------------------------

BENCH_ORDER = ("stream", "addvectors", "reduction", "fd2d", "bk5", "edges", "launch")


def bench_ratios(path: str) -> tuple[str, dict[tuple[str, str], list[float]]]:
    """The machine line and, per (bench, okl mode), the ``ratio okl/peer`` column of every
    row of a report written by ``python -m benchmarks report``."""
    machine = ""
    ratios: dict[tuple[str, str], list[float]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("- ") and ".json:" in line and not machine:
                machine = line.split(":", 1)[1].strip()
            cells = [c.strip() for c in line.split("|")]
            if len(cells) > 12 and cells[1] in BENCH_ORDER:
                try:
                    ratio = float(cells[11])
                except ValueError:
                    continue
                ratios.setdefault((cells[1], cells[6]), []).append(ratio)
    return machine, ratios


class BenchRatios(SphinxDirective):
    """``.. okl-bench-ratios::`` with one report (``benchmarks/results/*.md``, relative to
    the repository) per line: a table of the okl / peer ratios of each benchmark and mode,
    read from the reports while the docs are built."""

    has_content = True

    def run(self):
        import os

        root = os.path.dirname(self.env.srcdir)
        columns, data = [], {}
        for rel in (line.strip() for line in self.content if line.strip()):
            path = os.path.join(root, rel)
            if not os.path.exists(path):
                raise self.error(f"no benchmark report {rel}")
            self.env.note_dependency(path)
            machine, ratios = bench_ratios(path)
            modes = list(dict.fromkeys(mode for _, mode in ratios))
            for mode in modes:
                columns.append((rel, mode, machine))
                for (bench, m), values in ratios.items():
                    if m == mode:
                        data[(bench, rel, mode)] = values
        table = nodes.table(classes=["okl-bench"])
        group = nodes.tgroup(cols=len(columns) + 1)
        table += group
        for width in [12] + [14] * len(columns):
            group += nodes.colspec(colwidth=width)
        head, body = nodes.thead(), nodes.tbody()
        group += head
        group += body

        def row(cells):
            r = nodes.row()
            for text in cells:
                entry = nodes.entry()
                entry += nodes.paragraph(text=text)
                r += entry
            return r

        head += row(["benchmark"] + [f"{mode} ({os.path.basename(rel).removesuffix('.md')})"
                                     for rel, mode, _ in columns])
        for bench in BENCH_ORDER:
            cells = [bench]
            for rel, mode, _ in columns:
                values = data.get((bench, rel, mode))
                if not values:
                    cells.append("-")
                elif min(values) == max(values):
                    cells.append(f"{values[0]:g}")
                else:
                    cells.append(f"{min(values):g} - {max(values):g}")
            body += row(cells)
        machines = nodes.bullet_list()
        for rel in dict.fromkeys(rel for rel, _, _ in columns):
            item = nodes.list_item()
            item += nodes.paragraph(text=f"{rel}: {bench_ratios(os.path.join(root, rel))[0]}")
            machines += item
        return [table, machines]


# -- collection -------------------------------------------------------------------------------

def _names(node: nodes.Element) -> list[str]:
    names = list(node.get("names", []))
    parent = node.parent
    if isinstance(parent, nodes.container) and "literal-block-wrapper" in parent["classes"]:
        names += parent.get("names", [])
    return names


def collect(app, doctree) -> None:
    """Every Python and console block of the page, in order, each with the output stated
    after it (an ``.. output::`` block following it)."""
    env = app.env
    last = None
    for node in doctree.findall(nodes.literal_block):
        role = node.get("okl_role", "")
        if role == "okl-output":
            if last is None or "output" in last:
                log.warning("an output block with no example block just before it",
                            location=node)
                continue
            last["output"] = node.astext()
            continue
        language = RUN_LANGUAGES.get(node.get("language", ""))
        if role or language is None:
            last = None
            continue
        last = {"language": language, "code": node.astext(), "names": _names(node),
                "line": node.line or (node.parent.line if node.parent else None)}
        _store(env, "blocks", last)


def purge(app, env, docname) -> None:
    env.__dict__.get("okl_docs", {}).pop(docname, None)


def merge(app, env, docnames, other) -> None:
    mine = env.__dict__.setdefault("okl_docs", {})
    for name in docnames:
        if name in other.__dict__.get("okl_docs", {}):
            mine[name] = other.okl_docs[name]


def write_manifest(app, exception) -> None:
    path = app.config.okl_examples_manifest
    if exception is not None or not path:
        return
    data = app.env.__dict__.get("okl_docs", {})
    with open(path, "w", encoding="utf-8") as f:
        json.dump({doc: data[doc] for doc in sorted(data)}, f, indent=1)


def escape_click_help(app, ctx, lines) -> None:
    """sphinx-click reads click's help texts as reStructuredText, where ``*.okl`` opens an
    emphasis that never closes: show such words literally."""
    lines[:] = [re.sub(r"(?<![`\\w])(\*\.\w+)", r"``\1``", line) for line in lines]


def setup(app):
    app.add_config_value("okl_examples_manifest", "", "env")
    app.add_lexer("okl", OklLexer)
    app.add_node(details, html=(_visit_details_html, _depart_details_html),
                 latex=(_pass, _pass), text=(_pass, _pass), man=(_pass, _pass),
                 texinfo=(_pass, _pass))
    app.add_directive("okl-example", OklExample)
    app.add_directive("okl-error", OklError)
    app.add_directive("output", Output)
    app.add_directive("okl-bench-ratios", BenchRatios)
    app.connect("doctree-read", collect)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("build-finished", write_manifest)
    app.setup_extension("sphinx_click")
    for event in ("sphinx-click-process-description", "sphinx-click-process-options",
                  "sphinx-click-process-arguments", "sphinx-click-process-epilog"):
        app.connect(event, escape_click_help)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
