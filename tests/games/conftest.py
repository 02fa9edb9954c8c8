"""Shared by the games' tests: this folder is on ``sys.path`` (pytest's rootdir import mode), so
``rules_digest`` can be imported by the tests of every game."""
