"""Death (Thanatopsis): acceptance, settling the positions to cash, the life review that
becomes the testament, and its legacy written to the state directory."""

from golem.subsystems.death.decision import ArcClass, CausalLink, DeathTestament
from golem.subsystems.death.inheritance import inherited_lessons
from golem.subsystems.death.records import DeathConfig, arc_class, records_testament
from golem.subsystems.death.subsystem import Thanatopsis

__all__ = [
    "ArcClass",
    "CausalLink",
    "DeathConfig",
    "DeathTestament",
    "Thanatopsis",
    "arc_class",
    "inherited_lessons",
    "records_testament",
]
