"""``oklc``: check and translate OKL files from the command line."""

from __future__ import annotations

import sys

import click

from .errors import OKLError
from .modes import MODES


def _defines(items: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        out[name] = value if _ else "1"
    return out


def _read(path: str) -> bytes:
    from .parser.source import read_source

    try:
        return read_source(path)
    except OKLError as e:
        _print_diagnostics(e)
        sys.exit(1)


@click.group()
@click.version_option(package_name="okl")
def main() -> None:
    """okl: compile OKL kernels to serial C, OpenMP, OpenCL, CUDA and HIP."""


@main.command()
@click.argument("paths", nargs=-1, required=True, metavar="FILE|DIR...")
@click.option("-D", "--define", "defines", multiple=True, metavar="N=V",
              help="Define a macro (repeatable).")
@click.option("-I", "--include", "includes", multiple=True, metavar="DIR",
              help="Add an include directory (repeatable).")
@click.option("-m", "--mode", type=click.Choice(MODES, case_sensitive=False), default=None,
              help="Check this mode only (default: every mode).")
@click.option("-r", "--recursive", is_flag=True, help="Check every *.okl file under DIR.")
@click.option("-j", "--jobs", type=click.IntRange(1), default=1, show_default=True,
              help="Files checked in parallel.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON document (files, diagnostics, summary) instead of text.")
def check(paths, defines, includes, mode, recursive: bool, jobs: int, as_json: bool) -> None:
    """Report every error and warning that translating FILE for each mode would give; exit 1
    on any error.  With -r, check whole trees and end with a summary by kind of error."""
    from .check import okl_files

    files = okl_files(paths, recursive)
    modes = [mode.lower()] if mode else list(MODES)
    results = _check_all(files, modes, _defines(defines), includes, jobs,
                         progress=len(files) > 1 and not as_json and sys.stderr.isatty())
    if as_json:
        import json
        click.echo(json.dumps({"files": [r.to_json() for r in results],
                               "summary": _summary(results)}, indent=1))
    else:
        for r in results:
            for d in r.diagnostics:
                click.echo(d.render(), err=True)
            if r.errors:
                click.echo(f"{r.file}: {len(r.errors)} error(s)", err=True)
            else:
                names = ", ".join(r.kernels) or "none"
                click.echo(f"{r.file}: ok ({len(r.kernels)} kernel(s): {names})")
        if len(results) > 1:
            _print_summary(_summary(results))
    sys.exit(1 if any(r.errors for r in results) else 0)


def _check_all(files: list[str], modes: list[str], defines: dict, includes, jobs: int,
               progress: bool) -> list:
    from functools import partial

    from .check import check_file

    work = partial(check_file, modes=modes, defines=defines, include_dirs=includes)
    if jobs > 1 and len(files) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # spawn, not fork: a process that has loaded a GPU runtime may hold threads
        pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))
        results = pool.map(work, files, chunksize=4)
    else:
        pool, results = None, map(work, files)
    try:
        if progress:
            with click.progressbar(results, length=len(files), label="checking",
                                   file=sys.stderr) as bar:
                return list(bar)
        return list(results)
    finally:
        if pool is not None:
            pool.shutdown()


def _summary(results) -> dict:
    from collections import Counter

    from .check import kind_of
    kinds = Counter(kind_of(d) for r in results for d in r.errors)
    return {"files": len(results), "ok": sum(1 for r in results if not r.errors),
            "with_warnings": sum(1 for r in results if r.warnings and not r.errors),
            "with_errors": sum(1 for r in results if r.errors),
            "errors_by_kind": dict(kinds.most_common())}


def _print_summary(s: dict) -> None:
    click.echo(f"\n{s['files']} files: {s['ok']} ok ({s['with_warnings']} with warnings), "
               f"{s['with_errors']} with errors")
    for kind, n in s["errors_by_kind"].items():
        click.echo(f"  {n:5}  {kind}")


def _print_diagnostics(e: OKLError) -> None:
    if e.diagnostics:
        for d in e.diagnostics:
            click.echo(d.render(), err=True)
        n = sum(1 for d in e.diagnostics if d.severity == "error")
        click.echo(f"{n} error(s)", err=True)
    else:
        click.echo(f"oklc: error: {e}", err=True)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--mode", "-m", type=click.Choice(MODES, case_sensitive=False), required=True,
              help="Backend to translate for.")
@click.option("-D", "--define", "defines", multiple=True, metavar="N=V",
              help="Define a macro (repeatable).")
@click.option("-I", "--include", "includes", multiple=True, metavar="DIR",
              help="Add an include directory (repeatable).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the translation here instead of stdout.")
@click.option("--launcher", is_flag=True,
              help="Also print the launch plan of every kernel (device kernels, their outer "
                   "and inner sizes per axis, arguments, host code).")
@click.option("--no-line", is_flag=True, help="Leave out #line directives.")
def translate(file: str, mode: str, defines, includes, output, launcher: bool,
              no_line: bool) -> None:
    """Translate FILE to MODE's source code; exit 1 with diagnostics on bad input."""
    from .translation import translate as run_translate

    source = _read(file)
    try:
        result = run_translate(source, mode, defines=_defines(defines), include_dirs=includes,
                               filename=file, line_directives=not no_line)
    except OKLError as e:
        _print_diagnostics(e)
        sys.exit(1)
    for w in result.diagnostics:
        click.echo(w.render(), err=True)
    text = result.source
    if launcher:
        text += "\n/* launch plan\n" + result.launcher() + "*/\n"
    if output:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        click.echo(text, nl=False)


@main.command()
@click.option("-v", "--verbose", is_flag=True,
              help="Print every device property the backend reports, not only the main ones.")
def info(verbose: bool) -> None:
    """Print which modes run here (and why not), every OpenCL device found, then the
    properties of each available mode's device."""
    from .runtime.device import backends

    available = []
    for b in backends():
        click.echo(str(b))
        if b.available:
            available.append(b.name)
    _opencl_devices()
    _device_properties(available, verbose)


#: shown by ``oklc info`` after the common keys (``-v``: everything)
_INFO_EXTRAS = ("arch", "compute_capability", "type", "version", "driver_version",
                "openmp_threads", "compiler", "compiler_flags")


def _device_properties(modes: list[str], verbose: bool) -> None:
    """dev.properties of each available mode (okl.runtime.properties)."""
    from .runtime.device import Device
    from .runtime.properties import KEYS

    for mode in modes:
        try:
            props = Device(mode).properties
        except Exception as e:  # listed as available, yet it would not start: say so
            click.echo(f"\n{mode} device properties: unavailable ({type(e).__name__}: {e})")
            continue
        click.echo(f"\n{mode} device properties:")
        keys = [k for k in props if k != "mode"] if verbose else \
            list(KEYS) + [k for k in _INFO_EXTRAS if props.get(k) is not None]
        _print_properties(props, keys, "  ")


def _print_properties(props: dict, keys, indent: str) -> None:
    for key in keys:
        value = props.get(key)
        if isinstance(value, dict):
            click.echo(f"{indent}{key}:")
            _print_properties(value, list(value), indent + "  ")
            continue
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            click.echo(f"{indent}{key}:")  # e.g. loops: one line per @outer loop nest
            for item in value:
                click.echo(f"{indent}  " + ", ".join(f"{k}={_text(v)}" for k, v in item.items()))
            continue
        click.echo(f"{indent}{key + ':':24} {_text(value)}")


def _text(value) -> str:
    if isinstance(value, (list, tuple)):
        return "x".join(map(str, value)) if value and all(isinstance(v, int) for v in value) \
            else " ".join(map(str, value))
    return "-" if value is None else str(value)


def _opencl_devices() -> None:
    """Every OpenCL device the ICD loader lists, which one okl uses, and why not the others."""
    from .runtime import clselect

    try:
        survey = clselect.survey()
    except (ImportError, clselect.SelectionError):
        return  # the backend table already says why opencl is unavailable
    click.echo("\nOpenCL devices (platform:device; OKL_OPENCL_DEVICE=P[:D] picks one):")
    for candidate, status in survey:
        click.echo(f"  {candidate}\n      {status}")


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, exists=True))
@click.argument("kernel")
@click.option("--mode", "-m", type=click.Choice(MODES, case_sensitive=False), required=True)
@click.option("-D", "--define", "defines", multiple=True, metavar="N=V")
@click.option("-I", "--include", "includes", multiple=True, metavar="DIR")
@click.option("-v", "--verbose", is_flag=True,
              help="Also print what the compiled kernel uses (registers, shared and local "
                   "memory, work-group sizes: Kernel.properties).")
def build(file: str, kernel: str, mode: str, defines, includes, verbose: bool) -> None:
    """Build KERNEL of FILE for MODE into the cache; report the time and cache hit/miss."""
    from .runtime.device import Device

    try:
        dev = Device(mode)
        k = dev.build_kernel(file, kernel, defines=_defines(defines), include_dirs=includes)
    except OKLError as e:
        _print_diagnostics(e)
        sys.exit(1)
    state = "hit" if k.cache_hit else "miss"
    binary = {True: "hit", False: "miss", None: "cached by the backend"}[k.build_hit]
    click.echo(f"{kernel} ({dev.mode}, {dev.name}): {k.build_seconds * 1e3:.1f} ms, cache "
               f"{state} (translation {'hit' if k.translation_hit else 'miss'}, binary {binary})")
    if verbose:
        props = k.properties
        _print_properties(props, [key for key in props if key not in ("mode", "name")], "  ")


@main.group()
def cache() -> None:
    """Inspect or clear the on-disk cache (OKL_CACHE_DIR overrides its location)."""


@cache.command("info")
def cache_info() -> None:
    """Where the cache is and how much it holds."""
    from .runtime.cache import Cache

    data = Cache().info()
    click.echo(f"root: {data['root']}")
    for level, stats in data["levels"].items():
        click.echo(f"{level}: {stats['entries']} entries, {stats['bytes']} bytes")


@cache.command("clear")
def cache_clear() -> None:
    """Remove every cache entry."""
    from .runtime.cache import Cache

    click.echo(f"removed {Cache().clear()} entries")
