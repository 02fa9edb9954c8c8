"""``python -m kingmaker.web [--host] [--port] [--db URL]``: the same as ``kingmaker serve``."""

from .cli import serve

if __name__ == "__main__":
    serve()
