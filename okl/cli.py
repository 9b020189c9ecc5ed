"""``oklc``: check and translate OKL files from the command line."""

from __future__ import annotations

import sys

import click

from .errors import OKLError
from .frontend import MODES, analyze


def _defines(items: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        out[name] = value if _ else "1"
    return out


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise click.ClickException(f"cannot read {path}: {e}") from e


@click.group()
@click.version_option(package_name="okl")
def main() -> None:
    """okl: compile OKL kernels to serial C, OpenMP, OpenCL, CUDA and HIP."""


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-D", "--define", "defines", multiple=True, metavar="N=V",
              help="Define a macro (repeatable).")
@click.option("-I", "--include", "includes", multiple=True, metavar="DIR",
              help="Add an include directory (repeatable).")
@click.option("--mode", type=click.Choice(MODES), default="serial", show_default=True,
              help="Backend whose OKL_MODE the preprocessor sees.")
def check(file: str, defines, includes, mode: str) -> None:
    """Report every error and warning in FILE; exit 1 on any error."""
    source = _read(file)
    try:
        program = analyze(source, file, mode=mode, defines=_defines(defines),
                          include_dirs=includes)
    except OKLError as e:
        _print_diagnostics(e)
        sys.exit(1)
    for w in program.warnings:
        click.echo(w.render(), err=True)
    names = ", ".join(k.name for k in program.kernels)
    click.echo(f"{file}: ok ({len(program.kernels)} kernel(s): {names})")


def _print_diagnostics(e: OKLError) -> None:
    if e.diagnostics:
        for d in e.diagnostics:
            click.echo(d.render(), err=True)
        n = sum(1 for d in e.diagnostics if d.severity == "error")
        click.echo(f"{n} error(s)", err=True)
    else:
        click.echo(f"error: {e}", err=True)
