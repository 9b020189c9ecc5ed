"""C++ habits in OKL files, lowered to the C that pycparser parses (or refused clearly).

OKL is C, but kernels written next to C++ host code pick up C++ habits that OCCA's parser
lets through:

* ``static_cast<T>(e)``, ``const_cast<T>(e)`` and ``reinterpret_cast<T *>(e)`` become the C
  cast ``(T)(e)``, which means the same for scalars and pointers;
* a struct tag used as a type name (``struct P {...}; ... P p;``) gets the ``typedef struct P
  P;`` that C needs, added after the struct's definition;
* templates and classes have no C meaning: one located error says so, instead of a parse
  error somewhere after them.

Every rewrite keeps the line and column of everything else (the cast is padded with spaces,
the typedef is appended after the definition's ';' on its line), so later diagnostics point
at the right place, and each one is reported with a warning that names the C spelling.
"""

from __future__ import annotations

import re

from ..errors import Diagnostics
from .attributes import Token, tokenize
from .cpp.preprocess import Expanded

#: Text that the token passes below may act on (a superset: also inside string literals):
#: tokens ``template <``, ``class <name>``, ``struct|union <tag> {``.
#: (Pattern texts, compiled by ``re`` where a file holds one of the words: most hold none.)
_MAYBE_CXX = (r"\btemplate\s*<|\bclass\s+[A-Za-z_]"
              r"|\b(?:struct|union)\s+[A-Za-z_]\w*\s*\{")
_CAST = r"\b(static_cast|const_cast|reinterpret_cast)\s*<([^<>;{}]*)>\s*\("


def lower_cxx(text: str, expanded: Expanded, diags: Diagnostics) -> str:
    if not any(word in text for word in ("_cast", "struct", "template", "class")):
        return text  # nothing to do: the common case costs one scan
    text = _casts(text, expanded, diags)
    if not re.search(_MAYBE_CXX, text):
        return text  # no `template <`, `class X` or `struct T {`: nothing for the token passes
    tokens = tokenize(text)
    _refuse_templates_and_classes(tokens, expanded, diags)
    return _struct_tags(text, tokens, expanded, diags)


def _casts(text: str, expanded: Expanded, diags: Diagnostics) -> str:
    """``static_cast<T>(e)`` -> ``((T)(e))``: the outer parentheses keep C++'s reading of
    ``static_cast<T *>(p)[1]`` (a C cast binds looser than ``[]``).  The prefix is padded to
    its old width and the added ')' takes the place of a following space where there is one,
    so positions stay exact up to the cast's end."""
    found = []
    cast = re.compile(_CAST)
    for start in reversed([m.start() for m in cast.finditer(text)]):  # inner casts first
        m = cast.match(text, start)
        if m is None:  # (found there; only the text after it has changed since)
            continue
        kind, target = m.group(1), " ".join(m.group(2).split())
        line = text.count("\n", 0, start) + 1
        where = expanded.locate(line, start - (text.rfind("\n", 0, start) + 1) + 1)
        close = _matching_paren(text, m.end() - 1)
        if kind == "reinterpret_cast" and not target.endswith("*"):
            found.append(("error", f"reinterpret_cast<{target}> of a value has no C meaning",
                          where, "to reinterpret bits use a union or the backend's function "
                                 "(as_float, __int_as_float); to convert, write (T)(e)"))
            continue
        if close is None:
            continue  # unbalanced: the parser reports it
        found.append(("warning", f"C++ {kind}<{target}>(...) read as the C cast "
                      f"({target})(...)", where, f"write ({target})(...): OKL is C"))
        prefix = f"(({target})("
        width = m.end() - start
        after = close + 2 if text[close + 1:close + 2] == " " else close + 1
        text = (text[:start] + (prefix.rjust(width) if len(prefix) <= width else prefix)
                + text[m.end():close + 1] + ")" + text[after:])
    for severity, message, where, hint in reversed(found):
        (diags.error if severity == "error" else diags.warning)(message, where, hint=hint)
    return text


def _matching_paren(text: str, open_at: int) -> int | None:
    depth = 0
    for k in range(open_at, len(text)):
        if text[k] == "(":
            depth += 1
        elif text[k] == ")":
            depth -= 1
            if depth == 0:
                return k
        elif text[k] in ";{}":
            return None
    return None


def _refuse_templates_and_classes(tokens: list[Token], expanded: Expanded,
                                  diags: Diagnostics) -> None:
    for k, tok in enumerate(tokens):
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        if tok.text == "template" and nxt is not None and nxt.text == "<":
            diags.error("C++ templates are not supported: okl's front end is C (OKL is C99 "
                        "plus attributes)", expanded.locate(tok.line, tok.col),
                        hint="write one function per type, or select the type with a macro "
                             "(-D T=double)")
        elif tok.text == "class" and nxt is not None and nxt.kind == "id":
            diags.error("C++ classes are not supported: okl's front end is C (OKL is C99 "
                        "plus attributes)", expanded.locate(tok.line, tok.col),
                        hint="use a struct of data and plain functions")


def _struct_tags(text: str, tokens: list[Token], expanded: Expanded,
                 diags: Diagnostics) -> str:
    """Add ``typedef struct T T;`` after each file-scope ``struct T {...};`` whose tag is
    also used without ``struct``."""
    texts = [t.text for t in tokens]
    inserts: list[tuple[int, str]] = []
    # tags the file already names with `typedef struct T T;` (C's own idiom, before or after
    # the definition): used bare, they are C, and another typedef would be a duplicate
    named = {texts[k + 2] for k in range(len(texts) - 4)
             if texts[k] == "typedef" and texts[k + 1] in ("struct", "union") and
             texts[k + 2] == texts[k + 3] and texts[k + 4] == ";"}
    depth = 0
    for k, tok in enumerate(tokens):
        if tok.text == "{":
            depth += 1
        elif tok.text == "}":
            depth -= 1
        if depth or tok.text not in ("struct", "union") or k + 2 >= len(tokens) or \
                tokens[k + 1].kind != "id" or texts[k + 2] != "{" or \
                (k and texts[k - 1] == "typedef"):
            continue
        tag = tokens[k + 1].text
        end = _definition_end(texts, k + 2)
        if end is None or tag in named or not _used_bare(tokens, tag):
            continue
        diags.warning(f"'{tag}' is a struct tag used as a type name (C++); okl adds "
                      f"'typedef {tok.text} {tag} {tag};'",
                      expanded.locate(tokens[k + 1].line, tokens[k + 1].col),
                      hint=f"write 'typedef {tok.text} {tag} {{ ... }} {tag};' or use "
                           f"'{tok.text} {tag}' where it is a type")
        inserts.append((tokens[end].end, f" typedef {tok.text} {tag} {tag};"))
    for offset, extra in reversed(inserts):
        text = text[:offset] + extra + text[offset:]
    return text


def _definition_end(texts: list[str], brace: int) -> int | None:
    """Index of the ';' that ends ``struct T { ... };`` (no declarators), else None."""
    depth = 0
    for k in range(brace, len(texts)):
        if texts[k] == "{":
            depth += 1
        elif texts[k] == "}":
            depth -= 1
            if depth == 0:
                return k + 1 if k + 1 < len(texts) and texts[k + 1] == ";" else None
    return None


def _used_bare(tokens: list[Token], tag: str) -> bool:
    return any(t.text == tag and (k == 0 or tokens[k - 1].text not in ("struct", "union"))
               for k, t in enumerate(tokens))
