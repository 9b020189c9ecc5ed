"""pycparser bridge: parse attribute-free C text, turning parse errors into diagnostics.

The text handed to pycparser carries no line markers, so every node's coord is a
(line, column) of the expanded text; :meth:`Expanded.locate` maps it to the original file.
Kernels use the fixed-width and size types (``PRELUDE_TYPES``) and CUDA/OpenCL's vector
types (:mod:`.vectors`) without including a header (device compilers know them): the
parser starts with their names declared as typedef names, which is all it needs of them
(okl.model.types resolves them).  (A prelude of typedefs parsed with every file cost a
tenth of the parse of a small kernel; its nodes were skipped by every pass.)
"""

from __future__ import annotations

import _thread
import functools
import re

from pycparser import c_ast, c_parser

from .. import limits
from ..ctree import clone
from ..errors import Diagnostics, TranslationError, note
from ..recursion import deep_recursion
from .attributes import Token, tokenize
from .clexer import FAST_PATH, FastLexer
from .cpp.preprocess import Expanded
from .vectors import VECTOR_TYPES

TYPE_CHECKING = False
if TYPE_CHECKING:  # okl.parser.parens reads broken code: loaded where a parse fails
    from .parens import StrayGroup

PRELUDE_TYPES = {
    "size_t": "unsigned long", "ptrdiff_t": "long", "intptr_t": "long",
    "uintptr_t": "unsigned long", "int8_t": "signed char", "uint8_t": "unsigned char",
    "int16_t": "short", "uint16_t": "unsigned short", "int32_t": "int",
    "uint32_t": "unsigned int", "int64_t": "long", "uint64_t": "unsigned long",
    "bool": "_Bool", "uint": "unsigned int",
}
#: What a kernel may use undeclared: the fixed-width types and the vector types.
TYPEDEF_NAMES = frozenset(PRELUDE_TYPES) | frozenset(VECTOR_TYPES)

_local = _thread._local()  # threading.local, without importing threading
MAX_RECOVERIES = 20  # missing ';' repaired per file before giving up on further errors


class SyntaxProblem(c_parser.ParseError):
    """A parse error with its position in the parsed text (line 1 = first line of ``text``)."""

    def __init__(self, message: str, line: int, col: int, token: str | None):
        super().__init__(f"{line}:{col}: {message}")
        self.message, self.line, self.col, self.token = message, line, col, token


class _Parser(c_parser.CParser):
    """pycparser with errors that always carry a position (pycparser 3 reports some errors
    with the file name only), an unmatched ``}`` reported instead of an assertion, the
    lexer of :mod:`.clexer` (which :class:`_BufferedParser` reads all at once), and typedef
    names known before the text starts."""

    def __init__(self) -> None:
        super().__init__(lexer=FastLexer)
        self.typedef_names: frozenset[str] = frozenset()
        #: the attribute scan's tokens of the text being parsed, where it has them
        #: (:meth:`FastLexer.tokens`); None otherwise
        self.known_tokens: list[Token] | None = None

    def _parse_translation_unit_or_empty(self):
        # parse() has just made the file scope: it starts with the names as types
        self._scope_stack[0].update(dict.fromkeys(self.typedef_names, True))
        return super()._parse_translation_unit_or_empty()

    def _parse_error(self, msg, coord):
        if isinstance(coord, c_parser.Coord) and coord.line:
            token = msg[8:] if msg.startswith("before: ") else self._token_at(coord)
            raise SyntaxProblem(msg, coord.line, coord.column or 1, token)
        tok = self._current()
        if tok is None:
            raise SyntaxProblem(msg, 0, 0, None)
        raise SyntaxProblem(msg, tok.lineno, tok.column, tok.value)

    def _pop_scope(self):
        if len(self._scope_stack) <= 1:
            lex = self.clex
            line = getattr(lex, "_lineno", 0)
            col = getattr(lex, "_pos", 1) - getattr(lex, "_line_start", 0)
            raise SyntaxProblem("unmatched '}'", line, col, "}")
        super()._pop_scope()

    def _current(self):
        if getattr(self, "_peeking", False):  # a lexer error while looking at the token
            return None
        self._peeking = True
        try:
            return self._tokens.peek(1)
        except c_parser.ParseError:
            return None
        finally:
            self._peeking = False

    def _token_at(self, coord) -> str | None:
        tok = self._current()
        if tok is not None and (tok.lineno, tok.column) == (coord.line, coord.column):
            return tok.value
        return None


class _BufferedParser(_Parser):
    """:class:`_Parser` that lexes the whole text before it parses (:meth:`FastLexer.tokens`)
    and reads its token buffer directly.

    pycparser peeks about four times per token, each time through three calls (``_peek``,
    the buffer's ``peek``, ``_classify_identifier``) and, for a new token, two more to
    lex it: about a third of the parse.  The methods below (``_peek_type`` too, which
    pycparser answers through ``_peek``) read the buffer in one call and classify an
    identifier only where pycparser would: when the token is not the one it classified last
    (``_typedef_checked_token``).  Anything out of the ordinary -- past the
    buffer, which ends early at a lexer error, or at the end of input -- is pycparser's own
    code.  Used only where pycparser's parser has the layout this was written against
    (:func:`_buffer_fits`)."""

    def _parse_translation_unit_or_empty(self):
        self._tokens._buffer = self.clex.tokens(self.known_tokens)
        return super()._parse_translation_unit_or_empty()

    def _peek(self, k: int = 1):
        stream = self._tokens
        buffer, at = stream._buffer, stream._index + k - 1
        if k < 1 or at >= len(buffer):
            return super()._peek(k)
        tok = buffer[at]
        if tok is not self._typedef_checked_token:
            self._classify_identifier(tok)
        return tok

    def _peek_type(self, k: int = 1):
        # pycparser's calls _peek (and that the buffer's peek): ~1300 times per kernel
        stream = self._tokens
        buffer, at = stream._buffer, stream._index + k - 1
        if k < 1 or at >= len(buffer):
            return super()._peek_type(k)
        tok = buffer[at]
        if tok is not self._typedef_checked_token:
            self._classify_identifier(tok)
        return None if tok is None else tok.type

    def _advance(self):
        stream = self._tokens
        buffer, at = stream._buffer, stream._index
        if at >= len(buffer) or buffer[at] is None:
            return super()._advance()
        tok = buffer[at]
        stream._index = at + 1
        if tok is not self._typedef_checked_token:
            self._classify_identifier(tok)
        return tok

    def _accept(self, token_type: str):
        stream = self._tokens
        buffer, at = stream._buffer, stream._index
        if at >= len(buffer):
            return super()._accept(token_type)
        tok = buffer[at]
        if tok is not self._typedef_checked_token:
            self._classify_identifier(tok)
        if tok is None or tok.type != token_type:
            return None
        stream._index = at + 1
        return tok

    # An operand that is one identifier or constant (most operands of a kernel) goes down
    # pycparser's chain cast -> unary -> postfix -> primary -> identifier, two tries at a
    # parenthesised type name and five peeks on the way: a third of the parse.  Where the
    # token after it shows that no rule of that chain (nor, at an assignment expression's
    # level, any operator) takes more, the node is made here, as pycparser makes it.
    def _parse_cast_expression(self):
        leaf = self._leaf(_NOT_POSTFIX, True)
        return super()._parse_cast_expression() if leaf is None else leaf

    def _parse_assignment_expression(self):
        leaf = self._leaf(_ENDS_EXPRESSION, False)
        return super()._parse_assignment_expression() if leaf is None else leaf

    def _leaf(self, ends: frozenset[str], exclude: bool):
        """The next token as an ID or Constant node, consumed, where the token after it
        is (``exclude`` False) or is not (True) in ``ends``; else None, nothing consumed."""
        stream = self._tokens
        buffer, at = stream._buffer, stream._index
        if at + 1 >= len(buffer):
            return None
        tok, after = buffer[at], buffer[at + 1]
        if tok is None or after is None or (after.type in ends) is exclude:
            return None
        if tok is not self._typedef_checked_token:
            self._classify_identifier(tok)
        kind = tok.type
        if kind == "ID":
            stream._index = at + 1
            return c_ast.ID(tok.value, self._tok_coord(tok))
        if kind in _PLAIN_CONSTANTS:
            return self._parse_constant()
        return None


#: Token types after an operand that no postfix rule reads (a subscript, call, member,
#: ``++``/``--`` suffix would); and that end an assignment expression after one operand.
_NOT_POSTFIX = frozenset({"LBRACKET", "LPAREN", "PERIOD", "ARROW", "PLUSPLUS", "MINUSMINUS"})
_ENDS_EXPRESSION = frozenset({"COMMA", "SEMI", "RPAREN", "RBRACKET", "RBRACE", "COLON"})
#: Constants that ``_parse_constant`` reads as one token.
_PLAIN_CONSTANTS = frozenset({"INT_CONST_DEC", "INT_CONST_OCT", "INT_CONST_HEX",
                              "INT_CONST_BIN", "FLOAT_CONST", "HEX_FLOAT_CONST"})


def _buffer_fits() -> bool:
    """Whether pycparser's parser keeps the token buffer, its position and the last
    classified token where :class:`_BufferedParser` reads them, and the lexer's fast path
    is on; elsewhere okl parses with :class:`_Parser` -- slower, never different."""
    if not FAST_PATH:
        return False
    probe = c_parser.CParser()
    stream = getattr(probe, "_tokens", None)
    return isinstance(getattr(stream, "_buffer", None), list) and \
        getattr(stream, "_index", None) == 0 and \
        hasattr(probe, "_typedef_checked_token") and \
        all(callable(getattr(probe, name, None)) for name in _BUFFER_METHODS)


#: pycparser's methods that :class:`_BufferedParser` overrides or calls
_BUFFER_METHODS = ("_parse_translation_unit_or_empty", "_peek", "_peek_type", "_advance",
                   "_accept", "_classify_identifier", "_parse_cast_expression",
                   "_parse_assignment_expression", "_parse_constant", "_tok_coord")
#: The parser class okl uses (see :func:`_buffer_fits`).
PARSER = _BufferedParser if _buffer_fits() else _Parser


def parser() -> c_parser.CParser:
    """The parser of this thread (a parser keeps state while it parses)."""
    p = getattr(_local, "parser", None)
    if p is None:
        p = _local.parser = PARSER()
    return p


NESTS_TOO_DEEPLY = "more levels than the parser's recursion has room for"


def _parse_text(text: str, known: list[Token] | None = None) -> c_ast.FileAST:
    """The tree of ``text``; ``known``: its tokens from the attribute scan, if any (see
    :func:`parse`)."""
    p = parser()
    p.typedef_names = TYPEDEF_NAMES
    p.known_tokens = known
    try:
        with deep_recursion():  # pycparser recurses per nested construct (okl.recursion)
            return p.parse(text, filename="okl")
    except RecursionError:
        line, col = _deepest(text)
        raise SyntaxProblem(NESTS_TOO_DEEPLY, line, col, None) from None
    finally:
        p.known_tokens = None


def _deepest(text: str) -> tuple[int, int]:
    """(line, column) of the first bracket at the text's deepest nesting: where a parse that
    ran out of recursion was (okl.parser.text_limits bounds the nesting before this)."""
    depth = best = where = 0
    for m in re.finditer(r"[(\[{]|[)\]}]", text):
        depth += 1 if m.group() in "([{" else -1
        if depth > best:
            best, where = depth, m.start()
    line = text.count("\n", 0, where) + 1
    return line, where - text.rfind("\n", 0, where)


def parse(text: str, expanded: Expanded, diags: Diagnostics,
          known: list[Token] | None = None) -> c_ast.FileAST:
    """Parse attribute-free C; on errors record all of them (a missing ';' is repaired so
    that the errors after it are found too) and raise TranslationError.  ``known``: the
    tokens okl.parser.attributes found in the text before it blanked the attributes
    (offsets unchanged), which the lexer takes instead of reading most of them again."""
    errors = len(diags.errors)
    # each repair parses the whole file again: a large file gets fewer (time ~ tokens)
    budget = 2 * int(limits.TOKENS)
    first = text
    for _ in range(MAX_RECOVERIES):
        try:
            ast = _parse_text(text, known if text is first else None)
        except SyntaxProblem as e:
            tokens = tokenize(text)
            budget -= len(tokens)
            if budget < 0:
                _report(e, tokens, expanded, diags)
                break
            stray = _stray_semicolons(tokens, e)
            if stray is not None:
                text = _ignore_semicolons(text, stray, expanded, diags)
                continue
            backslash = _stray_backslash(text, e)
            if backslash is not None:
                diags.warning("stray '\\' at the end of a line outside a macro: read as a "
                              "line continuation", expanded.locate(e.line, e.col),
                              hint="remove it: statements may span lines without '\\'")
                text = text[:backslash] + " " + text[backslash + 1:]
                continue
            repaired = _missing_semicolon(text, tokens, e)
            if repaired is None:
                _report(e, tokens, expanded, diags)
                break
            before, text = repaired
            where = expanded.locate(before.line, before.col + len(before.text))
            if before.line < e.line and _ends_bare_call(tokens, before):
                # a call statement at the end of its line (a macro that the application
                # defines as a block, say): the ';' has one evident place
                diags.warning(f"expected ';' after '{before.text}' at the end of the line; "
                              "okl reads one there", where, hint="end the statement with ';'")
            else:
                diags.error(f"syntax error: expected ';' before '{e.token}'", where,
                            hint="end the statement with ';'")
            continue
        if len(diags.errors) == errors:
            return ast
        break
    diags.raise_if_errors()
    raise TranslationError("parse failed")  # unreachable: every failure records an error


def _ends_bare_call(tokens: list[Token], last: Token) -> bool:
    """Whether ``last`` is the ')' of a statement that is only a call: ``name(...)``."""
    k = next((k for k, t in enumerate(tokens) if t is last), None)
    if k is None or last.text != ")":
        return False
    depth = 0
    for j in range(k, -1, -1):
        depth += {")": 1, "(": -1}.get(tokens[j].text, 0)
        if depth == 0:
            return j >= 1 and tokens[j - 1].kind == "id" and (
                j == 1 or tokens[j - 2].text in (";", "{", "}"))
    return False


def _stray_backslash(text: str, e: SyntaxProblem) -> int | None:
    """Offset of a lone '\\' that ends a line (the lexer's 'Illegal character'), else None."""
    if "Illegal character" not in e.message or not e.line:
        return None
    start = 0
    for _ in range(e.line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    at = start + e.col - 1
    end = text.find("\n", at)
    rest = text[at + 1:end if end >= 0 else len(text)]
    return at if text[at:at + 1] == "\\" and not rest.strip() else None


def _stray_semicolons(tokens: list[Token], e: SyntaxProblem) -> StrayGroup | None:
    from .parens import stray_semicolons

    k = next((k for k, t in enumerate(tokens) if (t.line, t.col) == (e.line, e.col)), None)
    return stray_semicolons(tokens, k) if k is not None else None


def _ignore_semicolons(text: str, group: StrayGroup, expanded: Expanded,
                       diags: Diagnostics) -> str:
    """Blank the ';' of ``group`` (columns stay put) and say so."""
    first, *others = group.semicolons
    more = f" and {len(others)} more" if others else ""
    notes = [note("the '(' opens here", expanded.locate(group.open.line, group.open.col)),
             note("and closes here", expanded.locate(group.close.line, group.close.col))]
    notes += [note("also ignored", expanded.locate(t.line, t.col)) for t in others]
    diags.warning(f"';' inside parentheses: okl ignores it{more} and reads one expression up "
                  "to the ')' that closes the '(' (OCCA does the same without a word)",
                  expanded.locate(first.line, first.col), notes=notes,
                  hint="delete the ';' inside the parentheses")
    for t in group.semicolons:
        text = text[:t.start] + " " + text[t.end:]
    return text


def _missing_semicolon(text: str, tokens: list[Token], e: SyntaxProblem):
    """If inserting ';' after the token before the error lets the parser get past the error,
    return (that token, repaired text)."""
    if not e.line or e.token is None or e.token == "}" and e.message == "unmatched '}'":
        return None
    k = next((k for k, t in enumerate(tokens) if (t.line, t.col) >= (e.line, e.col)), None)
    if not k or tokens[k - 1].text in (";", "{") or tokens[k - 1].kind == "pragma":
        return None
    before = tokens[k - 1]
    repaired = text[:before.end] + ";" + text[before.end:]
    after = (e.line, e.col + (1 if e.line == before.line else 0))
    try:
        _parse_text(repaired)
    except SyntaxProblem as again:
        if not again.line or (again.line, again.col) <= after:
            return None
    return before, repaired


def _report(e: SyntaxProblem, tokens: list[Token], expanded: Expanded,
            diags: Diagnostics) -> None:
    braces, by_indent = _unbalanced_brace(tokens)
    why = " (its '}' is indented differently)" if by_indent else ""
    if not e.line:  # end of input
        last = tokens[-1] if tokens else None
        loc = expanded.locate(last.line, last.col) if last else expanded.locate(1, 1)
        if braces is not None and braces.text == "{":
            diags.error("syntax error: expected '}' at end of input", loc,
                        notes=[note(f"this '{{' is probably the one left open{why}",
                                    expanded.locate(braces.line, braces.col))],
                        hint="close every '{' with a '}'")
        else:
            diags.error(f"syntax error: unexpected end of input ({e.message})", loc,
                        hint="the file ends in the middle of a declaration or statement")
        return
    loc = expanded.locate(e.line, e.col)
    extra = _first_unmatched(tokens) if e.token == "}" and e.message != "unmatched '}'" and \
        braces is not None and braces.text == "}" else None
    if extra is not None:
        # pycparser releases differ in how they fail on an extra '}' (an internal scope
        # error in 3.0, "before: }" later): report it the same way whatever the version
        e = SyntaxProblem("unmatched '}'", extra.line, extra.col, "}")
        loc = expanded.locate(e.line, e.col)
    if e.message == "unmatched '}'":
        notes = []
        if by_indent and braces is not None and braces.text == "}" and braces.line != e.line:
            notes.append(note("this '}' is probably the extra one (it is indented "
                              "differently from its '{')",
                              expanded.locate(braces.line, braces.col)))
        diags.error("syntax error: unmatched '}'", loc, notes=notes,
                    hint="remove it, or add the '{' it should close")
    elif e.message.startswith("before: ") and (opened := _unclosed(tokens, e)) is not None:
        diags.error("syntax error: expected ')' before ';'", loc,
                    notes=[note("to match this '('", expanded.locate(opened.line, opened.col))],
                    hint="close the '(' where the expression ends (okl does not guess where; "
                         "OCCA rejects it too)")
    elif e.message.startswith("before: "):
        diags.error(f"syntax error before '{e.token or e.message[8:]}'", loc,
                    hint="check for a missing ';', ')' or '}' just before this point")
    elif e.token is not None:
        what = e.message[:1].lower() + e.message[1:]
        diags.error(f"syntax error: {what} at '{e.token}'", loc,
                    hint="check the expression or declaration that ends here")
    elif e.message == NESTS_TOO_DEEPLY:
        diags.error(f"the code nests too deeply: {e.message}", loc,
                    hint="split the expression or statement into several with temporary "
                         "variables or helper functions")
    else:
        diags.error(f"syntax error: {e.message}", loc)


def _unclosed(tokens: list[Token], e: SyntaxProblem) -> Token | None:
    from .parens import unclosed_paren

    k = next((k for k, t in enumerate(tokens) if (t.line, t.col) == (e.line, e.col)), None)
    return unclosed_paren(tokens, k) if k is not None else None


def _first_unmatched(tokens: list[Token]) -> Token | None:
    depth = 0
    for t in tokens:
        if t.text == "{":
            depth += 1
        elif t.text == "}":
            depth -= 1
            if depth < 0:
                return t
    return None


def _unbalanced_brace(tokens: list[Token]) -> tuple[Token | None, bool]:
    """The brace most likely at fault when braces do not balance, and whether indentation
    picked it: of the first pair whose '}' is indented differently from the line of its '{',
    the '{' (when one is left open) or the '}' (when one is extra); else the last '{' left
    open or the unmatched '}'."""
    stack: list[Token] = []
    suspect: tuple[Token, Token] | None = None
    unmatched: Token | None = None
    first_on_line: dict[int, Token] = {}
    for t in tokens:
        first_on_line.setdefault(t.line, t)
    for t in tokens:
        if t.text == "{":
            stack.append(t)
        elif t.text == "}":
            if not stack:
                unmatched = unmatched or t
                continue
            opened = stack.pop()
            if suspect is None and first_on_line[t.line] is t and \
                    t.col != first_on_line[opened.line].col:
                suspect = (opened, t)
    if unmatched is not None:
        return (suspect[1], True) if suspect else (unmatched, False)
    if stack:
        return (suspect[0], True) if suspect else (stack[-1], False)
    return None, False


def parse_expression(text: str, typedefs=()) -> c_ast.Node:
    """Parse a standalone C expression (an attribute argument such as a @dim size); a fresh
    tree every call, so callers may graft it into the AST."""
    return clone(_parse_expression(text, tuple(typedefs)))


@functools.lru_cache(maxsize=4096)
def _parse_expression(text: str, typedefs: tuple[str, ...]) -> c_ast.Node:
    decls = "".join(f"typedef int {t};" for t in typedefs)
    p = parser()
    p.typedef_names = frozenset()  # only the typedefs given
    ast = p.parse(f"{decls} void __okl_expr(void) {{ ({text}); }}")
    return ast.ext[-1].body.block_items[0]
