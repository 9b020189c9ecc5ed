"""Device functions and file-scope variables outside the kernels, as each target needs them.

GPU targets put their storage qualifiers on device functions (``__device__``) and file-scope
constants (``__constant__``), and refuse a file-scope variable that is not ``const`` (a GPU
kernel cannot share one with the host); C99 targets make a plain ``inline`` definition
``static`` (C99 and OpenCL C define no symbol for it).  On the CPU modes every definition but
the ``_okl_entry_*`` wrappers gets internal linkage (:func:`internal_linkage`).
"""

from __future__ import annotations

from pycparser import c_ast

from ..errors import Diagnostics
from ..model.kernel import Program
from ..targets.target import Target


def lower_global(ext: c_ast.Node, target: Target, program: Program,
                  diags: Diagnostics) -> c_ast.Node | None:
    """Device functions and file-scope variables outside the kernels; None for a node the
    target's text must not hold (an ``extern`` declaration of a constant defined in the
    file)."""
    decl = ext.decl if isinstance(ext, c_ast.FuncDef) else ext
    if target.c99_inline and isinstance(decl, c_ast.Decl) and \
            isinstance(decl.type, c_ast.FuncDecl) and "inline" in decl.funcspec and \
            not {"static", "extern"} & set(decl.storage):
        # C99 (and OpenCL C): a plain `inline` definition provides no external symbol, so a
        # call the compiler does not inline fails to link
        decl.storage = ["static"] + list(decl.storage)
    if isinstance(ext, c_ast.Decl) and ext.name and "extern" in ext.storage and \
            not isinstance(ext.type, c_ast.FuncDecl):
        return _extern_variable(ext, target, program, diags)
    if not target.gpu:
        return ext
    if isinstance(ext, c_ast.FuncDef):
        ext.decl.storage = list(target.device_function_storage) + list(ext.decl.storage)
        return ext
    if isinstance(ext, c_ast.Decl) and isinstance(ext.type, c_ast.FuncDecl):
        ext.storage = list(target.device_function_storage) + list(ext.storage)
        return ext
    if isinstance(ext, c_ast.Decl) and ext.name and not isinstance(ext.type, c_ast.FuncDecl):
        if not _is_const(ext.type):
            loc = program.expanded.locate(ext.coord.line, ext.coord.column) if ext.coord \
                else None
            diags.error(f"file-scope variable '{ext.name}' must be const to be used by GPU "
                        "kernels", loc, hint=f"declare it as const, or pass '{ext.name}' as a "
                                             "kernel argument")
            return ext
        ext.storage = [target.constant_storage] + [s for s in ext.storage if s != "static"]
    return ext


def _extern_variable(ext: c_ast.Decl, target: Target, program: Program,
                     diags: Diagnostics) -> c_ast.Decl | None:
    """``extern const int tab[];``.  With the definition in the same file the declaration
    says nothing more and is left out on every mode: CPU modes make the definition static
    (:func:`internal_linkage`), which C refuses after an extern declaration, and nvcc refuses
    ``__constant__ extern``.  Without one, a GPU kernel cannot build -- a device program is
    compiled on its own (NVRTC, hiprtc, an OpenCL program), nothing links a definition in,
    ptxas reports it unresolved -- so that is refused here, where okl can say why; a CPU
    kernel keeps it (the loader resolves it or says which symbol is missing)."""
    defined = any(isinstance(n, c_ast.Decl) and n is not ext and n.name == ext.name and
                  "extern" not in n.storage for n in program.ast.ext)
    if defined:
        return None
    if not target.gpu:
        return ext
    loc = program.expanded.locate(ext.coord.line, ext.coord.column) if ext.coord else None
    diags.error(f"'{ext.name}' is declared extern but not defined in this file: a GPU "
                "kernel is compiled on its own, so no definition can be linked in", loc,
                hint=f"define '{ext.name}' with its values in the kernel's source (or "
                     "#include the header that defines it), or pass it as a kernel argument")
    return None


def internal_linkage(nodes: list[c_ast.Node]) -> None:
    """CPU kernels are shared libraries loaded into the Python process: a kernel or helper
    with external linkage is interposed by a same-named symbol loaded earlier (glibc exports
    `step`, and a kernel called `step` then runs glibc's).  Everything the file defines is
    made static; only the `_okl_entry_*` wrappers stay visible."""
    from ..targets.serial import ENTRY_PREFIX  # a CPU target's: GPU translations skip it

    defined = {n.decl.name for n in nodes if isinstance(n, c_ast.FuncDef)}
    for n in nodes:
        decl = n.decl if isinstance(n, c_ast.FuncDef) else n
        if not isinstance(decl, c_ast.Decl) or not decl.name or \
                decl.name.startswith(ENTRY_PREFIX) or {"static", "extern"} & set(decl.storage):
            continue
        if isinstance(decl.type, c_ast.FuncDecl) and decl.name not in defined:
            continue  # a prototype of something defined elsewhere (libc)
        decl.storage = ["static"] + list(decl.storage)


def _is_const(t: c_ast.Node) -> bool:
    while isinstance(t, c_ast.ArrayDecl):
        t = t.type
    return "const" in getattr(t, "quals", [])
