"""Meja: a multiplayer card-table server. See README.md."""

__version__ = "0.1.0"
