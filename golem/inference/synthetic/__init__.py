"""The synthetic provider: a documented, keyless provider that emulates a real one (its
wire format, codec, capabilities and prices) with seeded, market-aware decisions and
configurable faults; pick it in a config as `synthetic` to try golem without a key."""

from golem.inference.synthetic.config import FaultRates, SyntheticConfig, TokenModel
from golem.inference.synthetic.provider import SyntheticProvider

__all__ = ["FaultRates", "SyntheticConfig", "SyntheticProvider", "TokenModel"]
