"""Death (Thanatopsis): acceptance, settling the positions to cash, the life review that
becomes the testament, and its legacy written to the state directory."""

from golem.subsystems.death.decision import ArcClass, CausalLink, DeathTestament

__all__ = ["ArcClass", "CausalLink", "DeathTestament"]
