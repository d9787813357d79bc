"""The package's version, in a module of its own: parts of the package that record it import it from here."""

__version__ = "0.2.0"
