"""The six subsystems: heartbeat, daimon, risk, curator, dream, death."""
