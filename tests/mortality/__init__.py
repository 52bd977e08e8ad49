"""Tests of golem.mortality (and the ledger contract other ledgers reuse)."""
