"""PaperPortfolio: fee and slippage arithmetic, sizing caps, exit and settle, and the
invariants (cash never negative; equity = initial cash + realised + unrealised)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golem.world import CostModel, PaperPortfolio, PortfolioConfig, Side, TradeAction

NO_SLIP = CostModel(fee_bps=30, base_slippage_bps=0, impact_bps=0, volatility_factor=0)


def portfolio(cash: float = 10_000.0, **config: object) -> PaperPortfolio:
    return PaperPortfolio(cash, PortfolioConfig.model_validate(config))


def test_buy_charges_fee_and_slippage() -> None:
    costs = CostModel(fee_bps=30, base_slippage_bps=5, impact_bps=10, volatility_factor=0.5)
    book = portfolio(costs=costs)
    fill = book.apply("buy", 2000.0, 1000.0, volatility=0.001)
    # slippage = 5 + 10 × 1000/100000 + 0.5 × 0.001 × 10000 = 10.1 bps
    assert fill.slippage_bps == pytest.approx(10.1)
    assert fill.execution_price == pytest.approx(2000.0 * 1.00101)
    assert fill.quantity == pytest.approx(1000.0 / (2000.0 * 1.00101))
    assert fill.fee_usd == pytest.approx(3.0)
    assert fill.slippage_usd == pytest.approx(fill.quantity * 2000.0 * 0.00101)
    assert fill.side is Side.BUY
    assert book.cash == pytest.approx(10_000.0 - 1003.0)
    assert book.positions["ETH"].average_price == pytest.approx(fill.execution_price)
    assert book.realised_pnl == pytest.approx(-3.0)
    assert fill.realised_pnl_usd == pytest.approx(-3.0)


def test_sell_realises_pnl_net_of_fee() -> None:
    book = portfolio(costs=NO_SLIP)
    book.apply(TradeAction.BUY, 100.0, 1000.0)  # 10 units
    fill = book.apply(TradeAction.SELL, 120.0, 600.0)  # 5 units
    assert fill.quantity == pytest.approx(5.0)
    assert fill.notional_usd == pytest.approx(600.0)
    assert fill.fee_usd == pytest.approx(1.8)
    assert fill.realised_pnl_usd == pytest.approx(5 * 20 - 1.8)
    assert book.quantity() == pytest.approx(5.0)
    assert book.realised_pnl == pytest.approx(-3.0 + 100 - 1.8)
    assert book.unrealised_pnl() == pytest.approx(5 * 20)
    assert book.equity() == pytest.approx(10_000 + book.realised_pnl + book.unrealised_pnl())


def test_slippage_grows_with_size_and_volatility_and_is_capped() -> None:
    costs = CostModel()
    assert costs.slippage_bps(1_000_000) > costs.slippage_bps(1_000)
    assert costs.slippage_bps(1_000, volatility=0.01) > costs.slippage_bps(1_000)
    assert costs.slippage_bps(1e12) == costs.max_slippage_bps


def test_observe_and_hold_are_reported_no_ops() -> None:
    book = portfolio()
    for action in ("observe", "hold"):
        fill = book.apply(action, 2000.0)
        assert fill.side is Side.NONE
        assert fill.quantity == 0.0
        assert fill.cash_after == 10_000.0
    assert book.marks["ETH"] == 2000.0


def test_buy_is_capped_by_cash_size_and_max_order() -> None:
    book = portfolio(1000.0, costs=NO_SLIP, max_order_usd=300.0)
    fill = book.apply("buy", 10.0, 5000.0)
    assert fill.notional_usd == pytest.approx(300.0)
    assert fill.note == "capped by max_order_usd"
    book = portfolio(1000.0, costs=NO_SLIP)
    fill = book.apply("buy", 10.0)  # as much as the cash allows
    assert fill.note == "capped by cash"
    assert fill.notional_usd + fill.fee_usd == pytest.approx(1000.0)
    assert book.cash == 0.0
    assert book.apply("buy", 10.0, 50.0).side is Side.NONE  # nothing left to spend


def test_exit_and_settle_close_everything_to_cash() -> None:
    book = portfolio(costs=NO_SLIP, max_order_usd=100.0)
    book.apply("buy", 50.0, 100.0)
    book.apply("buy", 50.0, 100.0, asset="BTC")
    exit_fill = book.apply("exit", 60.0)
    assert exit_fill.position_after == 0.0
    assert exit_fill.notional_usd > 100.0  # an exit is never capped by max_order_usd
    assert "ETH" not in book.positions
    fills = book.settle({"BTC": 40.0})
    assert [f.asset for f in fills] == ["BTC"]
    assert book.positions == {}
    assert book.equity() == pytest.approx(book.cash)
    assert book.cash == pytest.approx(10_000 + book.realised_pnl)
    assert book.settle() == []
    assert book.apply("exit", 60.0).note == "no position"


def test_hedge_sells_a_fraction() -> None:
    book = portfolio(costs=NO_SLIP, hedge_fraction=0.25)
    book.apply("buy", 100.0, 1000.0)
    held = book.quantity()
    fill = book.apply("hedge", 100.0)
    assert fill.quantity == pytest.approx(0.25 * held)
    fill = book.apply("hedge", 100.0, fraction=1.0)
    assert book.quantity() == 0.0
    with pytest.raises(ValueError, match="fraction"):
        book.apply("hedge", 100.0, fraction=0.0)


def test_rebalance_moves_toward_the_target_weight() -> None:
    book = portfolio(costs=CostModel(fee_bps=0, base_slippage_bps=0, impact_bps=0))
    book.apply("rebalance", 100.0)
    assert book.weight() == pytest.approx(0.5)
    book.apply("rebalance", 200.0, target_weight=0.2)
    assert book.weight() == pytest.approx(0.2)
    fill = book.apply("rebalance", 200.0, 10.0, target_weight=1.0)
    assert fill.notional_usd == pytest.approx(10.0)
    assert fill.note == "capped by size_usd"


def test_initial_weight_is_the_share_held_in_the_asset_from_the_first_mark() -> None:
    cash_born = portfolio()
    cash_born.mark(2000.0)
    assert cash_born.positions == {} and cash_born.cash == 10_000.0
    assert cash_born.apply("hedge", 2000.0).note == "no position"

    book = portfolio(initial_weight=0.5)
    assert book.positions == {}  # born at its first mark, not before
    book.mark(2000.0)
    assert book.quantity() == pytest.approx(2.5)  # half of $10,000 at $2,000
    assert book.cash == pytest.approx(5_000.0)
    assert book.weight() == pytest.approx(0.5)
    assert book.equity() == pytest.approx(10_000.0)  # an endowment, not a trade: no fee
    assert book.fees_paid_usd == 0.0
    book.mark(2200.0)  # later marks move its value, and buy nothing
    assert book.quantity() == pytest.approx(2.5)
    assert book.equity() == pytest.approx(10_500.0)
    assert book.apply("hedge", 2200.0).quantity == pytest.approx(1.25)

    heavier = portfolio(initial_weight=0.8)
    heavier.mark(2000.0)
    assert heavier.quantity() == pytest.approx(4.0)  # more weight, more held: 4 > 2.5
    assert heavier.weight() == pytest.approx(0.8) and heavier.cash == pytest.approx(2_000.0)

    resumed = PaperPortfolio.from_dict(book.to_dict())
    resumed.mark(2100.0)  # a restored portfolio was born already
    assert resumed.quantity() == pytest.approx(book.quantity())


def test_bad_inputs_are_refused() -> None:
    book = portfolio()
    with pytest.raises(ValueError, match="price"):
        book.apply("buy", 0.0, 10.0)
    with pytest.raises(ValueError, match="size_usd"):
        book.apply("buy", 10.0, -1.0)
    with pytest.raises(ValueError):
        book.apply("moon", 10.0)
    with pytest.raises(ValueError, match="cash"):
        PaperPortfolio(-1.0)
    fill = book.apply("buy", 10.0, 100.0)
    assert fill.to_dict()["side"] == "buy"


actions = st.sampled_from(list(TradeAction))
steps = st.lists(
    st.tuples(
        actions,
        st.floats(min_value=0.5, max_value=5000.0),
        st.none() | st.floats(min_value=0.0, max_value=50_000.0),
        st.floats(min_value=0.0, max_value=0.05),
        st.sampled_from(["ETH", "BTC"]),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(steps=steps, cash=st.floats(min_value=0.0, max_value=100_000.0))
def test_cash_never_negative_and_pnl_identity_holds(
    steps: list[tuple[TradeAction, float, float | None, float, str]], cash: float
) -> None:
    book = PaperPortfolio(cash, PortfolioConfig(max_order_usd=20_000.0))
    for action, price, size, volatility, asset in steps:
        fill = book.apply(action, price, size, asset=asset, volatility=volatility)
        assert book.cash >= 0.0
        assert fill.cash_after == book.cash
        assert all(p.quantity > 0 for p in book.positions.values())
        expected = book.cash + sum(p.quantity * book.marks[a] for a, p in book.positions.items())
        assert book.equity() == pytest.approx(expected)
        assert book.equity() == pytest.approx(
            cash + book.realised_pnl + book.unrealised_pnl(), rel=1e-9, abs=1e-6
        )
    book.settle()
    assert book.positions == {}
    assert book.cash == pytest.approx(cash + book.realised_pnl, rel=1e-9, abs=1e-6)
    assert book.fees_paid_usd >= 0.0
