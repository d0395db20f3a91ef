"""Integrations with other libraries, one module per library.

Each module imports its library at the top, so importing one needs that library installed (its
optional extra in pyproject.toml); the core package never imports this folder.
"""
