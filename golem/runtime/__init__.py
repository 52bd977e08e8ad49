"""The runtime: config, clocks, scheduling, state, logging and the daemon. The simulator
(golem.simulation) drives it; nothing here imports the simulator."""
