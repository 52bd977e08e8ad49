"""golem: a runtime for mortal autonomous agents.

A golem watches a market, asks language models for typed decisions through six
subsystems, pays for each call out of a finite wallet, and declines as the money runs out.
"""

__version__ = "0.1.0"
