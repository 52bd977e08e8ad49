"""long_lived(): the collector skips the heap a life starts with and collects young
objects less often, and is left as it was found, however the blocks nest or end."""

from __future__ import annotations

import gc

import pytest

from golem.runtime.collector import YOUNG_THRESHOLD, long_lived


def test_freezes_the_heap_and_raises_the_young_threshold_then_restores() -> None:
    before = gc.get_threshold()
    with long_lived():
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] == max(YOUNG_THRESHOLD, before[0])
        with long_lived():  # a second life in the same process
            assert gc.get_threshold()[0] == max(YOUNG_THRESHOLD, before[0])
        assert gc.get_freeze_count() > 0  # the inner block left the outer's settings
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_restores_when_the_life_raises() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), long_lived():
        raise RuntimeError("the life failed")
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_young_collections_switched_off_stay_off() -> None:
    before = gc.get_threshold()
    gc.set_threshold(0)
    try:
        with long_lived():
            assert gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*before)


def test_cyclic_garbage_made_in_a_life_is_still_collected() -> None:
    class Node:
        def __init__(self) -> None:
            self.me = self

    with long_lived():
        node = Node()
        del node
        assert gc.collect() >= 1
