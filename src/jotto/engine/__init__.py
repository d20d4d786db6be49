"""The engine's Python face: the compiled core (``core``, the only importer of ``jotto._core``),
the kernel variant and threads it runs with (``runtime``), and the integer weights it takes
(``weights``)."""
