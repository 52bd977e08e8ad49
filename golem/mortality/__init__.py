"""Mortality: clocks, vitality, budgets, profiles, reasoning depth and the allocator."""
