"""Linear algebra over GF(2) on bit vectors: the isomorphisms and merged linear maps.

A matrix is a tuple of row masks: ``m[i]`` has bit ``j`` set when output bit ``i``
depends on input bit ``j`` (output bit i = parity(m[i] & x)). Bit 0 is the least
significant bit of the byte (the coefficient of x^0 in FIPS-197 notation).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Matrix = tuple[int, ...]

__all__ = ["Matrix", "apply", "compose", "from_function", "identity", "inverse",
           "xor_count", "to_rows", "block_diag"]


def parity(x: int) -> int:
    return bin(x).count("1") & 1


def apply(m: Matrix, x: int) -> int:
    """m * x."""
    return sum(parity(row & x) << i for i, row in enumerate(m))


def from_function(f: Callable[[int], int], n_in: int, n_out: int | None = None) -> Matrix:
    """The matrix of the GF(2)-linear map ``f`` on ``n_in``-bit inputs (f(0) must be 0)."""
    n_out = n_in if n_out is None else n_out
    if f(0) != 0:
        raise ValueError("not a linear map: f(0) != 0")
    cols = [f(1 << j) for j in range(n_in)]
    m = tuple(sum(((cols[j] >> i) & 1) << j for j in range(n_in)) for i in range(n_out))
    return m


def identity(n: int) -> Matrix:
    return tuple(1 << i for i in range(n))


def compose(*ms: Matrix) -> Matrix:
    """compose(A, B, C) = A * B * C (C applied first)."""
    out = ms[-1]
    for m in reversed(ms[:-1]):
        # (m * out) row i = XOR of the rows of out selected by m[i]
        out = tuple(_xor_rows(out, row) for row in m)
    return out


def _xor_rows(rows: Sequence[int], sel: int) -> int:
    acc = 0
    for j, r in enumerate(rows):
        if (sel >> j) & 1:
            acc ^= r
    return acc


def inverse(m: Matrix) -> Matrix:
    """Inverse of a square matrix (Gauss-Jordan); raises ValueError if singular."""
    n = len(m)
    # augmented rows: [m | I] as (row, ident)
    rows = [[m[i], 1 << i] for i in range(n)]
    for col in range(n):
        piv = next((r for r in range(col, n) if (rows[r][0] >> col) & 1), None)
        if piv is None:
            raise ValueError("singular matrix")
        rows[col], rows[piv] = rows[piv], rows[col]
        for r in range(n):
            if r != col and (rows[r][0] >> col) & 1:
                rows[r][0] ^= rows[col][0]
                rows[r][1] ^= rows[col][1]
    # the row operations E turned m into I (E * m = I): E is the inverse
    return tuple(r[1] for r in rows)


def xor_count(m: Matrix) -> int:
    """Two-input XOR gates of a naive row-by-row implementation."""
    return sum(max(bin(r).count("1") - 1, 0) for r in m)


def to_rows(m: Matrix, n_in: int) -> list[str]:
    """Rows as bit strings, most significant input bit first (for docs)."""
    return [format(r, f"0{n_in}b") for r in m]


def block_diag(*ms: tuple[Matrix, int]) -> Matrix:
    """Block-diagonal matrix of (matrix, n_in) blocks; the first block is the lowest bits."""
    rows: list[int] = []
    shift = 0
    for m, n_in in ms:
        rows += [r << shift for r in m]
        shift += n_in
    return tuple(rows)
