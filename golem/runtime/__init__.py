"""The runtime: config, clocks, scheduling, state, logging, the daemon and the simulator."""
