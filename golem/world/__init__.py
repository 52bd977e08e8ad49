"""The world the golem watches: market observation sources (a seeded simulation and CSV
replay), the rolling window the heartbeat probes, the paper portfolio and the episode log.

Pure and deterministic; imports nothing else of golem.
"""

from golem.world.costs import CostModel
from golem.world.episodes import DecisionSummary, Episode, EpisodeLog, EpisodeOutcome, features
from golem.world.errors import DataProblem, WorldDataError, WorldError
from golem.world.market import SimulatedMarket
from golem.world.observation import MarketSource, Observation, Regime, ResumableSource
from golem.world.portfolio import (
    Fill,
    PaperPortfolio,
    PortfolioConfig,
    Position,
    Side,
    TradeAction,
)
from golem.world.replay import (
    COLUMNS,
    EXAMPLE_CSV,
    REQUIRED_COLUMNS,
    CSVReplay,
    read_observations,
)
from golem.world.scenario import (
    DEFAULT_REGIMES,
    LendingParams,
    MarketParams,
    RandomShocks,
    RegimeParams,
    ScheduledShock,
)
from golem.world.truth import MoveSize, Truth
from golem.world.window import MarketSummary, MarketWindow, PriceBand

__all__ = [
    "COLUMNS",
    "DEFAULT_REGIMES",
    "EXAMPLE_CSV",
    "REQUIRED_COLUMNS",
    "CSVReplay",
    "CostModel",
    "DataProblem",
    "DecisionSummary",
    "Episode",
    "EpisodeLog",
    "EpisodeOutcome",
    "Fill",
    "LendingParams",
    "MarketParams",
    "MarketSource",
    "MarketSummary",
    "MarketWindow",
    "MoveSize",
    "Observation",
    "PaperPortfolio",
    "PortfolioConfig",
    "Position",
    "PriceBand",
    "RandomShocks",
    "Regime",
    "RegimeParams",
    "ResumableSource",
    "ScheduledShock",
    "Side",
    "SimulatedMarket",
    "TradeAction",
    "Truth",
    "WorldDataError",
    "WorldError",
    "features",
    "read_observations",
]
