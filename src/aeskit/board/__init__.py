"""The FPGA boards (issue 52): the bitstreams and the UART demo's host side.

:mod:`aeskit.board.boards` lists the boards with their pins and clocks (from
amaranth-boards); :mod:`aeskit.board.build` is ``aeskit board``, the demo's bitstream
with the timing check against the board clock (:mod:`aeskit.board.board_cli` its
command line; docs/boards.md).

:mod:`aeskit.board.protocol` is the demo's frame protocol without I/O (frames, an
incremental decoder, each operation as a generator of request frames);
:mod:`aeskit.board.transport` runs an operation over a serial port (pyserial);
:mod:`aeskit.board.uart_cli` is ``aeskit uart``. See docs/uart_demo.md.
"""
