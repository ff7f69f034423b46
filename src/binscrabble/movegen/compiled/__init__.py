"""The compiled build of the move generator: scripts/build_compiled.py compiles the modules of
:mod:`binscrabble.movegen` here with mypyc, under the same module names in this package.
Empty until then; :mod:`binscrabble.movegen` imports from here only when the build is
current (docs/movegen.md, "Compiled or source")."""
