"""Whether two versions of an HDL source differ only in comments and blank space:
the lexical proof :mod:`aeskit.store.rekey` asks of a file that a key reads directly
(a simulation bench's key that folds RTL bytes, a rendered top's template).

Comments (``// ...`` to the end of the line, ``/* ... */``) are dropped outside string
literals, then trailing blanks of every line and blank lines. Line breaks are kept
otherwise (a ``define`` ends at one), so two texts equal after this are the same
token stream to any SystemVerilog tool, whatever it builds from them, except for
``__LINE__`` (which the check refuses to ignore: a file using it must be equal
byte for byte).
"""

from __future__ import annotations

__all__ = ["LEXICAL_SUFFIXES", "code_of", "comment_equivalent"]

#: the files the check understands (HDL sources, includes and templates of them)
LEXICAL_SUFFIXES = (".sv", ".svh", ".v", ".vh", ".tpl")


def code_of(text: str) -> str:
    """``text`` without comments, trailing blanks and blank lines."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            end = n if j < 0 else j + 2
            # a block comment over several lines still separates tokens
            out.append(" ")
            i = end
        else:
            out.append(c)
            i += 1
    lines = ("".join(out)).split("\n")
    return "\n".join(line.rstrip() for line in lines if line.strip())


def comment_equivalent(old: bytes, new: bytes, name: str) -> bool:
    """True when ``old`` and ``new`` (a file named ``name``) are the same code."""
    if old == new:
        return True
    if not name.endswith(LEXICAL_SUFFIXES):
        return False
    try:
        a, b = old.decode(), new.decode()
    except UnicodeDecodeError:
        return False
    if "__LINE__" in a or "__LINE__" in b:
        return False
    return code_of(a) == code_of(b)
