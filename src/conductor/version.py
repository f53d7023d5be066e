"""The package version, in a module of its own: the modules that report it (``tracing``) import it from here,
not from the package that imports them."""

__version__ = "0.1.0"
