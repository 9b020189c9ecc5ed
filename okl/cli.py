"""``oklc``: check, translate and build OKL files from the command line.

Conventions are those of C compilers and of click-based tools, so that scripts and editors
that drive them drive ``oklc`` too:

* ``-`` names standard input (a FILE) or standard output (``-o -``);
* ``check``, ``translate`` and ``build`` share ``-m/--mode`` (case-insensitive, as OCCA's mode
  names: ``CUDA``, ``OpenMP``), ``-D``, ``-I`` and ``-o``;
* every problem is one line ``oklc: error: ...`` (or a located ``file:line:col: error: ...``)
  on stderr, exit status 1; a bad command line is exit status 2; no Python traceback for an
  operating-system error (an unreadable input, a missing output folder, a full disk);
* ``--color=auto|always|never`` (auto: only when stderr is a terminal and ``NO_COLOR`` is
  unset) and ``--diagnostics-format=text|json|sarif``, on every command or before it.

``oklc`` and ``python -m okl`` start in okl.entry, which answers ``--version`` and a plain
``translate`` without loading click (issue 30) and hands every other command line to
:data:`main` here.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import click

from .console import (
    COLORS,
    FORMATS,
    PROG,
    REPORT,
    Failure,
    Output,
    echo,
    finish,
    read_input,
)
from .console import defines as _defines
from .modes import MODES
from .version import __version__


class OklcGroup(click.Group):
    """click's group, with okl's one error style (okl.console.finish): click reports its
    own errors (a bad option) as ``Error: ...`` after a usage line, and Python errors as
    tracebacks; here every failure is ``oklc: error: ...`` on stderr (or a JSON/SARIF
    record), exit status 1 (2 for a bad command line, as click and compilers use)."""

    group_class = type  # ``oklc cache``, a group of this group, answers a typo the same way

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra) -> NoReturn:
        finish(lambda: self._run(args, complete_var, extra))

    def _run(self, args, complete_var, extra: dict) -> int:
        try:
            # one name, however it was started (oklc, python -m okl, a test runner)
            rv = super().main(args, PROG, complete_var, standalone_mode=False, **extra)
        except click.UsageError as e:
            where = e.ctx.command_path if e.ctx is not None else PROG
            message = " ".join(e.format_message().split()).rstrip(".")  # one line
            REPORT.error(f"{message} (see '{where} --help')")
            raise SystemExit(e.exit_code) from None
        except click.ClickException as e:
            REPORT.error(e.format_message())
            raise SystemExit(e.exit_code) from None
        except click.Abort:
            REPORT.error("interrupted")
            raise SystemExit(130) from None
        return rv if isinstance(rv, int) else 0

    def resolve_command(self, ctx: click.Context, args: list[str]):
        """click's lookup, with a better word for a name that is not a command: OCCA's
        name for what okl calls otherwise (``occa compile`` is ``oklc build``), else the
        close matches among this group's commands, as git and pip answer a typo."""
        name = click.utils.make_str(args[0]) if args else ""
        if name and name[:1] != "-" and not ctx.resilient_parsing and \
                self.get_command(ctx, name) is None:
            ctx.fail(unknown_command(name, sorted(self.list_commands(ctx)),
                                     top=ctx.parent is None))
        return super().resolve_command(ctx, args)


#: OCCA's ``occa`` commands whose okl equivalent has another name (``occa translate`` and
#: ``occa info`` are the same here)
OCCA_COMMANDS = {
    "compile": "oklc build FILE KERNEL -m MODE",
    "modes": "oklc info",
    "env": "oklc info -v",
    "clear": "oklc cache clear",
    "version": "oklc --version",
    "autocomplete": "eval \"$(_OKLC_COMPLETE=bash_source oklc)\"",
}


def unknown_command(name: str, commands: list[str], top: bool = True) -> str:
    """The one-line message for a command ``name`` that ``commands`` lacks: OCCA's
    equivalent (at the top level, where OCCA's commands would be typed), else difflib's
    close matches (what click >= 8.2 suggests, here whatever click is installed)."""
    from difflib import get_close_matches

    message = f"No such command '{name}'"
    if top and name.lower() in OCCA_COMMANDS:
        return (f"{message}: OCCA's 'occa {name.lower()}' is "
                f"'{OCCA_COMMANDS[name.lower()]}' in okl")
    close = get_close_matches(name, commands, n=3, cutoff=0.6)
    if close:
        return f"{message}; did you mean {' or '.join(repr(c) for c in close)}?"
    return message


# -- options every command shares ----------------------------------------------------------

def _set_color(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        REPORT.color = value.lower()


def _set_format(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        REPORT.format = value.lower()


def _json_alias(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``check --json``, from before check followed ``--diagnostics-format``: it printed
    each file's diagnostics on stdout, in another shape than the format's; now it is the
    format's own ``json``, so that there is one JSON shape and one stream for each thing."""
    if value:
        REPORT.format = "json"


def report_options(f: Callable) -> Callable:
    """``--color`` and ``--diagnostics-format``, on the group and on every command."""
    f = click.option("--diagnostics-format", type=click.Choice(FORMATS, case_sensitive=False),
                     default=None, expose_value=False, is_eager=True, callback=_set_format,
                     help="Diagnostics on stderr as text (default), one JSON array of "
                          "{file, line, column, severity, message, hint}, or SARIF 2.1.0.")(f)
    return click.option("--color", "--colour", type=click.Choice(COLORS, case_sensitive=False),
                        default=None, expose_value=False, is_eager=True, callback=_set_color,
                        help="Colour diagnostics: auto (default: on a terminal, unless "
                             "NO_COLOR is set), always or never.")(f)


def mode_option(required: bool, help: str) -> Callable:
    """``-m/--mode``: case-insensitive, as OCCA's mode names (``CUDA``, ``OpenMP``)."""
    return click.option("-m", "--mode", type=click.Choice(MODES, case_sensitive=False),
                        required=required, help=help)


def compile_options(f: Callable) -> Callable:
    """``-D``, ``-I`` and ``-o``, the same on check, translate and build."""
    f = click.option("-o", "--output", default=None, metavar="FILE",
                     help="Write what the command prints here instead of stdout ('-': "
                          "stdout); build: write the kernel's ahead-of-time bundle "
                          "there.")(f)
    f = click.option("-I", "--include", "includes", multiple=True, metavar="DIR",
                     help="Add an include directory (repeatable).")(f)
    f = click.option("-D", "--define", "defines", multiple=True, metavar="N[=V]",
                     help="Define a macro (repeatable).")(f)
    return report_options(f)


@click.group(cls=OklcGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name=PROG)  # okl.entry answers the same
@report_options
def main() -> None:
    """okl: compile OKL kernels to serial C, OpenMP, OpenCL, CUDA and HIP."""


@main.command()
@click.argument("paths", nargs=-1, required=True, metavar="FILE|DIR...")
@mode_option(False, "Check this mode only (default: every mode).")
@compile_options
@click.option("-r", "--recursive", is_flag=True, help="Check every *.okl file under DIR.")
@click.option("-j", "--jobs", type=click.IntRange(1), default=1, show_default=True,
              help="Files checked in parallel.")
@click.option("--json", is_flag=True, expose_value=False, is_eager=True, callback=_json_alias,
              help="Deprecated: the same as --diagnostics-format=json.")
def check(paths: tuple[str, ...], mode: str | None, defines: tuple[str, ...],
          includes: tuple[str, ...], output: str | None, recursive: bool, jobs: int) -> None:
    """Report every error and warning that translating FILE for each mode would give; exit 1
    on any error.  With -r, check whole trees and end with a summary by kind of error.
    FILE '-' is standard input.

    With --diagnostics-format json (or sarif) the diagnostics are one document on stderr, as
    for every command, and what check prints on stdout -- each file's result and the
    summary -- is one JSON document: {"files": [{file, ok, kernels, errors, warnings}],
    "summary": {files, ok, with_warnings, with_errors, errors_by_kind}}."""
    from .parser.pycparser_load import load

    load()  # before anything imports pycparser
    from .check import okl_files

    files = okl_files(paths, recursive)
    modes = [mode] if mode else list(MODES)
    out = Output(output)
    # one format, one place for each thing: diagnostics on stderr (REPORT), results on stdout
    machine = REPORT.format != "text"
    results = _check_all(files, modes, _defines(defines), includes, jobs,
                         progress=len(files) > 1 and not machine and sys.stderr.isatty())
    for r in results:
        REPORT.diagnostics(r.diagnostics)
        if machine:
            continue
        if r.errors:
            click.echo(f"{r.file}: {len(r.errors)} error(s)", err=True)
        else:
            names = ", ".join(r.kernels) or "none"
            out.echo(f"{r.file}: ok ({len(r.kernels)} kernel(s): {names})")
    if machine:
        out.echo(json.dumps({"files": [r.to_json() for r in results],
                             "summary": _summary(results)}, indent=1))
    elif len(results) > 1:
        _print_summary(_summary(results), out)
    out.close()
    sys.exit(1 if any(r.errors for r in results) else 0)


def _check_all(files: list[str], modes: list[str], defines: dict, includes, jobs: int,
               progress: bool) -> list:
    from functools import partial

    from .check import check_file, check_source

    kw = {"modes": modes, "defines": defines, "include_dirs": includes}
    if "-" in files:  # standard input is read here, once, whatever the number of jobs
        data, name = read_input("-")
        stdin_result = check_source(data, name, **kw)
        files = [f for f in files if f != "-"]
        before = [stdin_result]
    else:
        before = []
    work = partial(check_file, **kw)
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
                return before + list(bar)
        return before + list(results)
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


def _print_summary(s: dict, out: Output) -> None:
    out.echo(f"\n{s['files']} files: {s['ok']} ok ({s['with_warnings']} with warnings), "
             f"{s['with_errors']} with errors")
    for kind, n in s["errors_by_kind"].items():
        out.echo(f"  {n:5}  {kind}")


@main.command()
@click.argument("file", metavar="FILE")
@mode_option(True, "Backend to translate for.")
@compile_options
@click.option("--launcher", is_flag=True,
              help="Also print the launch plan of every kernel, after the source (device "
                   "kernels, their outer and inner sizes per axis, arguments, host code).")
@click.option("-l", "--launcher-only", is_flag=True,
              help="Print the launch plan alone, instead of the source (OCCA's "
                   "'occa translate -l').")
@click.option("--no-line", is_flag=True, help="Leave out #line directives.")
def translate(file: str, mode: str, defines: tuple[str, ...], includes: tuple[str, ...],
              output: str | None, launcher: bool, launcher_only: bool, no_line: bool) -> None:
    """Translate FILE ('-': standard input) to MODE's source code; exit 1 with diagnostics
    on bad input."""
    from . import console

    console.translate(file, mode, _defines(defines), includes, output, launcher,
                      launcher_only, no_line)


@main.command()
@click.option("-v", "--verbose", is_flag=True,
              help="Print every device property the backend reports, not only the main ones.")
def info(verbose: bool) -> None:
    """Print which modes run here (and why not), the C preprocessor translations use (cpp,
    or pcpp where there is none), every OpenCL device found, then the properties of each
    available mode's device."""
    from .parser.cpp.pcpp import describe
    from .runtime.device import backends

    available = []
    for b in backends():
        click.echo(str(b))
        if b.available:
            available.append(b.name)
    click.echo(f"\npreprocessor: {describe()}")
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


def _print_properties(props: dict, keys, indent: str,
                      echo: Callable[[str], None] = click.echo) -> None:
    for key in keys:
        value = props.get(key)
        if isinstance(value, dict):
            echo(f"{indent}{key}:")
            _print_properties(value, list(value), indent + "  ", echo)
            continue
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            echo(f"{indent}{key}:")  # e.g. loops: one line per @outer loop nest
            for item in value:
                echo(f"{indent}  " + ", ".join(f"{k}={_text(v)}" for k, v in item.items()))
            continue
        echo(f"{indent}{key + ':':24} {_text(value)}")


def _text(value) -> str:
    if isinstance(value, (list, tuple)):
        return "x".join(map(str, value)) if value and all(isinstance(v, int) for v in value) \
            else " ".join(map(str, value))
    return "-" if value is None else str(value)


def _opencl_devices() -> None:
    """Every OpenCL device the ICD loader lists, which one okl uses, and why not the others."""
    from .runtime.drivers import clselect

    try:
        survey = clselect.survey()
    except (ImportError, clselect.SelectionError):
        return  # the backend table already says why opencl is unavailable
    click.echo("\nOpenCL devices (platform:device; OKL_OPENCL_DEVICE=P[:D] picks one):")
    for candidate, status in survey:
        click.echo(f"  {candidate}\n      {status}")


@main.command()
@click.argument("file", metavar="FILE")
@click.argument("kernel", required=False)
@mode_option(True, "Backend to build for.")
@compile_options
@click.option("-v", "--verbose", is_flag=True,
              help="Also print what the compiled kernel uses (registers, shared and local "
                   "memory, work-group sizes: Kernel.properties).")
def build(file: str, kernel: str | None, mode: str, defines: tuple[str, ...],
          includes: tuple[str, ...], output: str | None, verbose: bool) -> None:
    """Build KERNEL of FILE ('-': standard input), or every kernel of it, for MODE into the
    cache and report the time and cache hit/miss.  With -o BUNDLE, also write an
    ahead-of-time bundle there (the translation, the binary for this device and what it was
    built for), which Device.load_kernel / load_program load with no compiler."""
    from .parser.source import decode
    from .runtime.device import Device

    dev = Device(mode)
    defs = _defines(defines)
    if file == "-":
        data, name = read_input(file)
        text, not_utf8 = decode(data, name)
        if not_utf8 is not None:
            REPORT.diagnostic(not_utf8)
        prog = dev.build_program_from_string(text, defines=defs, include_dirs=includes,
                                             filename=name)
    else:
        prog = dev.build_program(file, defines=defs, include_dirs=includes)
    # a name the file lacks is an error that lists the kernels it has
    chosen = [prog[kernel]] if kernel is not None else list(prog.kernels)
    what = kernel or f"{len(prog)} kernel(s) of {prog.origin} ({', '.join(prog.names)})"
    state = "hit" if prog.translation_hit and prog.build_hit is not False else "miss"
    binary = {True: "hit", False: "miss", None: "cached by the backend"}[prog.build_hit]
    report = [f"{what} ({dev.mode}, {dev.name}): {prog.build_seconds * 1e3:.1f} ms, cache "
              f"{state} (translation {'hit' if prog.translation_hit else 'miss'}, binary "
              f"{binary})"]
    if verbose:
        for k in chosen:
            props = k.properties
            if not kernel:
                report.append(f"  {k.name}:")
            _print_properties(props, [key for key in props if key not in ("mode", "name")],
                              "  " if kernel else "    ", report.append)
    if output is not None:
        report.append(_write_bundle(prog, kernel, output))
    out = Output(None)  # -o names the bundle: the report goes to stdout (stderr for -o -)
    for line in report:
        if output == "-":
            echo(line, err=True)
        else:
            out.echo(line)


def _write_bundle(prog, kernel: str | None, output: str) -> str:
    """Write the bundle to ``output`` ('-': standard output, unless a terminal); returns the
    line that reports it."""
    from .runtime.bundle import encode, write_program

    if output == "-":
        if sys.stdout.isatty():
            raise Failure("a bundle is binary: redirect standard output, or give -o a file")
        data = encode(prog, kernel)
        sys.stdout.buffer.write(data)
        return f"wrote a bundle of {len(data)} bytes to standard output"
    try:
        write_program(output, prog, kernel)
        size = Path(output).stat().st_size
    except OSError as e:
        raise Failure(f"cannot write {output}: {e.strerror or e}") from None
    return (f"wrote {output} ({size} bytes): {kernel or ', '.join(prog.names)} for "
            f"{prog.device.mode} on {prog.device.name}; load it with "
            f"okl.Device({prog.device.mode!r}).load_{'kernel' if kernel else 'program'}"
            f"({output!r})")


@main.command()
@click.argument("file", metavar="FILE")
@click.argument("kernel")
@click.option("-a", "--args", "spec", required=True, metavar="SPEC",
              help='The arguments: a JSON file or text, {"args": [64, {"dtype": "float32", '
                   '"shape": 64, "fill": "random"}, ...], "defines": {...}, "seed": 0} '
                   "(okl.compare.arguments_from_spec).")
@click.option("-m", "--mode", "modes", multiple=True,
              type=click.Choice(MODES, case_sensitive=False),
              help="A mode to run on (repeatable; default: every mode that runs here).")
@click.option("--rtol", type=float, default=1e-5, show_default=True,
              help="Relative tolerance for floating-point elements.")
@click.option("--atol", type=float, default=0.0, show_default=True,
              help="Absolute tolerance for floating-point elements.")
@click.option("--races", "races", is_flag=True,
              help="Also run the kernel on serial under the race checker.")
@compile_options
def compare(file: str, kernel: str, spec: str, modes: tuple[str, ...], rtol: float,
            atol: float, races: bool, defines: tuple[str, ...], includes: tuple[str, ...],
            output: str | None) -> None:
    """Run KERNEL of FILE on several modes with the same arguments and compare every array
    afterwards (exit 1 if any differs, or if --races finds a race)."""
    from .comparison import compare as compare_modes
    from .comparison import is_array
    from .errors import RaceError
    from .parser.source import read_source
    from .runtime.device import Device

    read_source(file)  # FILE is a path here: unreadable, it is said as everywhere
    args, defs = _argument_spec(spec, defines)
    out = Output(output)
    failed = False
    if races:
        dev = Device("serial", check_races=True)
        try:
            dev.build_kernel(file, kernel, defines=defs, include_dirs=includes)(
                *[dev.asarray(a.copy()) if is_array(a) else a for a in args])
            out.echo(f"race checker (serial): no race in kernel '{kernel}'")
        except RaceError as e:
            out.echo(f"race checker (serial): {e}")
            failed = True
        dev.finish()
    result = compare_modes(file, kernel, args, [m.lower() for m in modes] or None,
                           rtol=rtol, atol=atol, defines=defs, include_dirs=includes)
    out.echo(str(result))
    out.close()
    if failed or not result.ok:
        sys.exit(1)


def _argument_spec(spec: str, defines: tuple[str, ...]) -> tuple[list, dict]:
    """The arguments and defines of ``--args SPEC`` (JSON text, or a file holding it) for
    compare and tune; ``-D`` defines win over the spec's."""
    from .comparison import arguments_from_spec

    text = spec if spec.lstrip()[:1] in ("{", "[") else _read_text(spec)
    try:
        document = json.loads(text)
    except ValueError as e:
        raise Failure(f"the argument spec is not JSON: {e}") from None
    if isinstance(document, list):
        document = {"args": document}
    args = arguments_from_spec(document)
    from .parser.cpp.defines import define_texts

    defs = {**define_texts(document.get("defines")), **_defines(defines)}
    return args, defs


@main.command()
@click.argument("file", metavar="FILE")
@click.argument("kernel")
@mode_option(True, "Mode to tune for.")
@click.option("-s", "--space", "spaces", multiple=True, required=True, metavar="NAME=V1,V2,...",
              help="A define to tune and the values to try (repeatable; the variants are "
                   "every combination).")
@click.option("-a", "--args", "spec", required=True, metavar="SPEC",
              help="The arguments, as for 'oklc compare': a JSON file or text, "
                   '{"args": [64, {"dtype": "float32", "shape": 64, "fill": "random"}, '
                   '...], "defines": {...}, "seed": 0}.')
@click.option("--rtol", type=float, default=1e-5, show_default=True,
              help="Relative tolerance when comparing each variant's results with the "
                   "first's.")
@click.option("--atol", type=float, default=0.0, show_default=True,
              help="Absolute tolerance for that comparison.")
@click.option("--repeat", type=click.IntRange(1), default=None,
              help="Timed launches per variant (default: as many as fit in about 1 s, at "
                   "most 2000).")
@click.option("-f", "--force", is_flag=True,
              help="Tune again even if the cache holds the answer.")
@compile_options
def tune(file: str, kernel: str, mode: str, spaces: tuple[str, ...], spec: str,
         rtol: float, atol: float, repeat: int | None, force: bool,
         defines: tuple[str, ...], includes: tuple[str, ...], output: str | None) -> None:
    """Build KERNEL of FILE once per combination of the --space values, check that every
    variant computes what the first computes, time each on MODE's device and print the
    table and the fastest (Device.tune).  The winner is kept in okl's cache: the same
    question again is answered without timing (--force tunes again).  With
    --diagnostics-format json the result is one JSON document: {kernel, mode, device, best,
    seconds, from_cache, fixed, key, table: [{point, status, seconds, launches, reason}]}."""
    from .runtime.device import Device

    space = _space(spaces)
    args, defs = _argument_spec(spec, defines)
    k = Device(mode).tune(file, kernel, space, args, defines=defs, include_dirs=includes,
                          rtol=rtol, atol=atol, repeat=repeat, force=force)
    result = k.tuning
    assert result is not None  # Device.tune sets it on the kernel it returns
    out = Output(output)
    out.echo(json.dumps(result.to_json(), indent=1) if REPORT.format != "text" else str(result))
    out.close()


def _space(spaces: tuple[str, ...]) -> dict[str, list]:
    """``--space NAME=V1,V2`` options as a dict; numbers become numbers."""
    space: dict[str, list] = {}
    for item in spaces:
        name, eq, values = item.partition("=")
        name = name.strip()
        texts = [v.strip() for v in values.split(",")]
        if not eq or not name or not all(texts):
            raise Failure(f"--space {item!r}: expected NAME=V1,V2,... (e.g. "
                          "--space p_B=64,128,256)")
        if name in space:
            raise Failure(f"--space {name} is given twice; list every value in one --space")
        space[name] = [_number(t) for t in texts]
    return space


def _number(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _read_text(path: str) -> str:
    from .parser.source import SourceFileError, read_source

    try:  # read_source: a FIFO or device is refused by type, the size is limited
        return read_source(path).decode("utf-8")
    except UnicodeDecodeError as e:
        raise SourceFileError(path, f"not UTF-8 ({e.reason} at byte {e.start})") from None


@main.group()
def cache() -> None:
    """Inspect or clear the on-disk cache (OKL_CACHE_DIR overrides its location) and the
    caches of the backends okl uses (CuPy's, PoCL's, pyopencl's, the NVIDIA driver's)."""


@cache.command("info")
def cache_info() -> None:
    """Where okl's cache is and how much it holds; then each backend cache, its environment
    variable and size."""
    from .runtime.backend_caches import backend_caches
    from .runtime.cache import Cache

    data = Cache().info()
    click.echo(f"root: {data['root']}")
    for level, stats in data["levels"].items():
        click.echo(f"{level}: {stats['entries']} entries, {stats['bytes']} bytes")
    click.echo("\nbackend caches (oklc cache clear --backends clears them too):")
    for c in backend_caches():
        files, size = c.usage()
        state = f"{files} files, {size} bytes" if c.path.is_dir() else "absent"
        click.echo(f"  {c.name:9} {c.path}  ({c.env}; {c.modes}): {state}")


@cache.command("clear")
@click.option("--backends", is_flag=True,
              help="Also empty the backend caches that 'oklc cache info' lists (some are "
                   "shared with other programs: CuPy's, the NVIDIA driver's); only files "
                   "laid out as that backend's cache are removed, anything else is listed.")
def cache_clear(backends: bool) -> None:
    """Remove every entry of okl's cache (and with --backends, of the backend caches)."""
    from .runtime.backend_caches import backend_caches
    from .runtime.cache import Cache

    click.echo(f"removed {Cache().clear()} entries")
    if backends:
        for c in backend_caches():
            done = c.clear()  # only what has the backend's own cache layout
            click.echo(f"{c.name}: removed {done.removed} entries from {c.path}")
            if done.skipped:
                shown = ", ".join(done.skipped[:5]) + (f" and {len(done.skipped) - 5} more"
                                                       if len(done.skipped) > 5 else "")
                click.echo(f"{c.name}: left {len(done.skipped)} entries that are not "
                           f"{c.name}'s cache: {shown} (is {c.env} set to the right folder?)")
