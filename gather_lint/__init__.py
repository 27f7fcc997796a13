"""gather-lint: catch torch gather/scatter-family mistakes statically and at run time."""
__version__ = "0.1.0"
