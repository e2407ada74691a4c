"""Installed copies of the top-level cards/ and maps/ data directories (see solo/resources.py)."""
