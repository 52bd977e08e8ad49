"""The world the golem watches: market observation sources (a seeded simulation, CSV
replay, real candles in virtual time, a live exchange through ccxt), the rolling window
the heartbeat probes, the paper portfolio and the episode log.

Pure and deterministic but for the live exchange (exchange.py, the network edge); imports
nothing else of golem.
"""

from golem.world.candles import (
    CANDLE_COLUMNS,
    CandleReplay,
    Candles,
    Gap,
    market_data_dirs,
    read_candles,
    resolve_candles,
    write_candles,
)
from golem.world.costs import CostModel
from golem.world.csv_market import (
    COLUMNS,
    EXAMPLE_CSV,
    REQUIRED_COLUMNS,
    CSVReplay,
    read_observations,
)
from golem.world.episodes import DecisionSummary, Episode, EpisodeLog, EpisodeOutcome, features
from golem.world.errors import (
    BadExchangeResponse,
    DataProblem,
    ExchangeError,
    ExchangeTimeout,
    ExchangeUnavailable,
    MarketStale,
    RateLimited,
    WorldDataError,
    WorldError,
)
from golem.world.exchange import LiveMarket, Poll, Quote, exchange_client, set_market
from golem.world.lookahead import Lookahead
from golem.world.market import SimulatedMarket
from golem.world.observation import (
    ForeseeableSource,
    MarketSource,
    Observation,
    RecordedSource,
    Regime,
    ResumableSource,
)
from golem.world.portfolio import (
    Fill,
    PaperPortfolio,
    PortfolioConfig,
    Position,
    Side,
    TradeAction,
)
from golem.world.scenario import (
    DEFAULT_REGIMES,
    LendingParams,
    MarketParams,
    RandomShocks,
    RegimeParams,
    ScheduledShock,
)
from golem.world.truth import Moment, MoveSize, Truth
from golem.world.window import MarketSummary, MarketWindow, PriceBand, Pushed

__all__ = [
    "CANDLE_COLUMNS",
    "COLUMNS",
    "DEFAULT_REGIMES",
    "EXAMPLE_CSV",
    "REQUIRED_COLUMNS",
    "BadExchangeResponse",
    "CSVReplay",
    "CandleReplay",
    "Candles",
    "CostModel",
    "DataProblem",
    "DecisionSummary",
    "Episode",
    "EpisodeLog",
    "EpisodeOutcome",
    "ExchangeError",
    "ExchangeTimeout",
    "ExchangeUnavailable",
    "Fill",
    "ForeseeableSource",
    "Gap",
    "LendingParams",
    "LiveMarket",
    "Lookahead",
    "MarketParams",
    "MarketSource",
    "MarketStale",
    "MarketSummary",
    "MarketWindow",
    "Moment",
    "MoveSize",
    "Observation",
    "PaperPortfolio",
    "Poll",
    "PortfolioConfig",
    "Position",
    "PriceBand",
    "Pushed",
    "Quote",
    "RandomShocks",
    "RateLimited",
    "RecordedSource",
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
    "exchange_client",
    "features",
    "market_data_dirs",
    "read_candles",
    "read_observations",
    "resolve_candles",
    "set_market",
    "write_candles",
]
