"""The documentation (docs/) builds without a warning, and every example in it runs.

Sphinx builds the pages once for the module (``sphinx-build -W --keep-going``: a warning is
a failure).  While it builds, docs/_ext/okldocs.py translates every OKL example with
``okl.translate`` (the "what it becomes" blocks) and collects every example into a JSON
manifest; the tests below run what the manifest lists:

- each OKL example is built (translated, compiled, loaded) on serial and openmp;
- each Python example runs on serial and, with ``okl.Device("serial")`` changed to
  ``okl.Device("openmp")``, on openmp, in a folder holding the OKL examples as files; what
  it prints must match the ``.. output::`` block under it (``...`` matches anything, and
  whitespace differences do not count, as in doctest);
- each console example runs its ``$`` commands there and compares their output the same way;
- the generated blocks in the HTML are the translator's current output, and the hand-written
  pages hold no generated code pasted by hand.

Examples that are not run are listed in NOT_RUN, by the ``:name:`` of their block, each with
the reason.
"""

from __future__ import annotations

import contextlib
import doctest
import html.parser
import io
import json
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

import okl

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: examples that are shown but not run, by the :name: of their block, and why
NOT_RUN = {
    "install-cpu": "installs system and Python packages",
    "install-opencl": "installs system and Python packages",
    "install-cuda": "installs CuPy; needs an NVIDIA GPU",
    "install-hip": "installs CuPy; needs a GPU",
    "build-docs": "installs the docs extra; the build itself is what this module tests",
    "bench-run": "runs every benchmark, for minutes",
    "mpi-build": "needs mpi4py, an MPI launcher and GPUs (okl.mpi has its own tests)",
    "mpi-poisson": "needs mpi4py and an MPI launcher (the example has its own tests)",
    "mpi-model": "needs GPUs and an MPI launcher (benchmarks/mpi_model.py)",
    "graphs-cuda": "needs an NVIDIA GPU (tests/test_graphs.py runs the same on one)",
    "benchparanumal-run": "needs a benchParanumal checkout and a GPU (the driver's parts have "
                          "their own tests: tests/test_benchparanumal.py)",
}
#: the pages written by hand (the others are generated from docstrings and click)
HAND_WRITTEN = ("index", "getting-started", "language", "backends", "from-occa",
                "performance", "troubleshooting", "benchparanumal")
CPU_MODES = ("serial", "openmp")
CHECKER = doctest.OutputChecker()
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Build the docs once: (HTML folder, manifest of examples, build seconds)."""
    if os.environ.get("CI") is None:
        pytest.importorskip("sphinx", reason="the docs need the docs extra: "
                                             "pip install -e .[docs]")
    out = tmp_path_factory.mktemp("docs")
    manifest = out / "examples.json"
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-D", f"okl_examples_manifest={manifest}", str(DOCS), str(out / "html")],
        capture_output=True, text=True, timeout=300)
    seconds = time.perf_counter() - start
    assert run.returncode == 0, f"sphinx-build failed:\n{run.stdout}\n{run.stderr}"
    assert not run.stderr.strip(), f"sphinx-build printed warnings:\n{run.stderr}"
    return out / "html", json.loads(manifest.read_text()), seconds


@pytest.fixture(scope="module")
def workdir(built, tmp_path_factory):
    """A folder with every OKL example saved under its name, and a private cache."""
    folder = tmp_path_factory.mktemp("examples")
    seen = {}
    for doc, example in _items(built[1], "okl"):
        name = example["file"]
        assert name not in seen, f"{name} is the name of two OKL examples ({seen[name]}, {doc})"
        seen[name] = doc
        (folder / name).write_text(example["source"])
    return folder


@pytest.fixture
def in_workdir(workdir, tmp_path_factory, monkeypatch):
    monkeypatch.chdir(workdir)
    monkeypatch.setenv("OKL_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "docs-cache"))
    return workdir


def _items(manifest: dict, kind: str):
    for doc, data in manifest.items():
        for item in data.get(kind, []):
            yield doc, item


def _name(block: dict) -> str:
    return block["names"][0] if block["names"] else ""


def _where(doc: str, block: dict) -> str:
    return f"docs/{doc}.rst:{block['line']}" + (f" ({_name(block)})" if block["names"] else "")


def _runnable(manifest: dict, language: str):
    for doc, block in _items(manifest, "blocks"):
        if block["language"] == language and _name(block) not in NOT_RUN:
            yield doc, block


def _matches(want: str, got: str) -> bool:
    return CHECKER.check_output(want.rstrip("\n") + "\n", got, FLAGS)


def test_docs_build_without_warnings(built):
    html, manifest, seconds = built
    print(f"docs built in {seconds:.1f} s")
    assert (html / "index.html").exists()
    for page in HAND_WRITTEN + ("python-api", "cli"):
        assert (html / f"{page}.html").exists(), page
    assert sum(1 for _ in _items(manifest, "okl")) >= 15  # the language reference's examples


def test_not_run_list_is_current(built):
    """Every name in NOT_RUN is a block of the docs: the list cannot outlive its reasons."""
    names = {_name(block) for _, block in _items(built[1], "blocks")}
    assert not set(NOT_RUN) - names, f"NOT_RUN names no block: {set(NOT_RUN) - names}"


@pytest.mark.parametrize("mode", CPU_MODES)
def test_okl_examples_build(built, in_workdir, mode):
    """Every OKL example translates, compiles and loads on the CPU modes."""
    dev = okl.Device(mode)
    built_any = 0
    for _, example in _items(built[1], "okl"):
        names = [k.name for k in okl.translate(example["source"], mode,
                                               defines=example["defines"]).kernels]
        assert names, f"{example['file']} has no kernel"
        for name in names:
            dev.build_kernel(example["file"], name, defines=example["defines"])
            built_any += 1
    assert built_any


@pytest.mark.parametrize("mode", CPU_MODES)
def test_python_examples(built, in_workdir, mode):
    """Every Python example runs on serial and openmp and prints the output stated."""
    failures, ran = [], 0
    for doc, block in _runnable(built[1], "python"):
        code = block["code"]
        uses_device = "okl.Device(" in code
        if uses_device and 'okl.Device("serial"' not in code:
            failures.append(f"{_where(doc, block)}: make the example's Device "
                            'okl.Device("serial") (the test runs it on openmp too)')
            continue
        if mode != "serial":
            if not uses_device:
                continue  # no device: nothing differs between modes
            code = code.replace('okl.Device("serial"', f'okl.Device("{mode}"')
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(code, _where(doc, block), "exec"), {"__name__": "__docs__"})
        except Exception as e:
            failures.append(f"{_where(doc, block)} on {mode}: {type(e).__name__}: {e}")
            continue
        ran += 1
        want = block.get("output")
        if want is not None and not _matches(want, out.getvalue()):
            failures.append(f"{_where(doc, block)} on {mode} printed\n{out.getvalue()}"
                            f"instead of\n{want}")
    assert not failures, "\n\n".join(failures)
    assert ran


def test_console_examples(built, in_workdir, tmp_path):
    """Every console example's commands succeed and print the output stated."""
    env = dict(os.environ, PWD=str(in_workdir), COLUMNS="100")
    # `oklc` is this checkout's, run by this Python, wherever pip put the installed script
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "oklc").write_text(f'#!/bin/sh\nexec "{sys.executable}" -c "'
                                  f'from okl.entry import main; main(prog_name=\'oklc\')" "$@"\n')
    (bin_dir / "oklc").chmod(0o755)
    env["PATH"] = os.pathsep.join([str(bin_dir), os.path.dirname(sys.executable),
                                   env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(
        os.pathsep)
    failures, ran = [], 0
    for doc, block in _runnable(built[1], "console"):
        for command, want in _commands(block["code"]):
            if command.startswith("export "):
                name, _, value = command[len("export "):].partition("=")
                env[name] = os.path.expandvars(value.replace("$PWD", str(in_workdir)))
                continue
            run = subprocess.run(["bash", "-c", command], cwd=in_workdir, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 timeout=120)
            ran += 1
            if run.returncode != 0:
                failures.append(f"{_where(doc, block)}: `{command}` exited {run.returncode}:\n"
                                f"{run.stdout}")
            elif want and not _matches(want, run.stdout):
                failures.append(f"{_where(doc, block)}: `{command}` printed\n{run.stdout}"
                                f"instead of\n{want}")
    assert not failures, "\n\n".join(failures)
    assert ran


def _commands(text: str) -> list[tuple[str, str]]:
    """A console block as (command, the output stated under it) pairs."""
    out: list[tuple[str, list[str]]] = []
    for line in text.split("\n"):
        if line.startswith("$ "):
            command = line[2:].split("  #")[0].strip()
            shlex.split(command)  # a block that is not shell fails here, not in bash
            out.append((command, []))
        elif out:
            out[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"console block starts with output, not a command: {line!r}")
    return [(c, "\n".join(w).strip("\n")) for c, w in out]


class _Pre(html.parser.HTMLParser):
    """The text of every <pre> of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        if tag == "pre":
            self._depth += 1
            if self._depth == 1:
                self.blocks.append("")

    def handle_endtag(self, tag):
        if tag == "pre":
            self._depth -= 1

    def handle_data(self, data):
        if self._depth:
            self.blocks[-1] += data


def _pre_blocks(page: Path) -> list[str]:
    parser = _Pre()
    parser.feed(page.read_text(encoding="utf-8"))
    return [b.strip("\n") for b in parser.blocks]


def test_generated_blocks_are_the_translators_output(built):
    """What the pages show under each OKL example is okl.translate's output now."""
    sys.path.insert(0, str(DOCS / "_ext"))
    import okldocs  # what the pages show of a translation (imports sphinx: after `built`)

    html, manifest, _ = built
    for doc, example in _items(manifest, "okl"):
        shown = _pre_blocks(html / f"{doc}.html")
        assert example["source"].strip("\n") in shown
        for mode in example["modes"]:
            t = okl.translate(example["source"], mode, defines=example["defines"],
                              filename=example["file"], line_directives=False)
            expected = okldocs.shown(t.source)
            assert example["translations"][mode] == expected, (example["file"], mode)
            assert expected.strip("\n") in shown, (example["file"], mode)
    for doc, error in _items(manifest, "errors"):
        if not error["build"]:
            with pytest.raises(okl.OKLError) as caught:
                okl.translate(error["source"], error["mode"], filename=error["file"])
            assert str(caught.value) == error["message"]
            assert error["message"].strip("\n") in _pre_blocks(html / f"{doc}.html")


def test_hand_written_pages_paste_no_generated_code(built):
    """Every code block of the hand-written pages is an example (OKL, Python, console), a
    stated output, or something okl generated while the pages were built."""
    html, manifest, _ = built
    for page in HAND_WRITTEN:
        source = (DOCS / f"{page}.rst").read_text(encoding="utf-8")
        languages = set(re.findall(r"^\s*\.\. code-block::\s*(\S+)", source, re.M))
        assert languages <= {"python", "console"}, (page, languages)
        assert not re.search(r"::\s*\n\s*\n\s+(__|#pragma|extern)", source), page
    known = set()
    for _, example in _items(manifest, "okl"):
        known.add(example["source"])
        known.update(example["translations"].values())
        known.update(filter(None, (example.get("plan"), example.get("warnings"))))
    for _, error in _items(manifest, "errors"):
        known.update((error["source"], error["message"]))
    for _, block in _items(manifest, "blocks"):
        known.update(filter(None, (block["code"], block.get("output"))))
    known = {k.strip("\n") for k in known}
    for page in HAND_WRITTEN:
        for block in _pre_blocks(html / f"{page}.html"):
            assert block in known, f"{page}.html shows a block no example accounts for:\n{block}"


def test_cited_benchmark_reports_exist():
    cited = set()
    for page in DOCS.glob("*.rst"):
        cited.update(re.findall(r"benchmarks/results/[\w.-]+\.md", page.read_text()))
    assert cited
    missing = [c for c in cited if not (ROOT / c).exists()]
    assert not missing, missing
