"""What a build did: counts, diagnostics and the time each stage took."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.diagnostics import Diagnostic


@dataclass(slots=True)
class BuildReport:
    records: int = 0
    games: int = 0
    pages: int = 0  # output files produced by this build
    written: int = 0  # of which written (bytes changed)
    unchanged: int = 0
    removed: int = 0
    reparsed: int = 0  # records decoded, parsed and replayed (not taken from the cache)
    quick: bool = False  # only the edited records' game pages were rewritten (generator.build.quick)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    seconds: float = 0.0
    published: bool = True  # False when --strict refused to write
    timings: dict[str, float] = field(default_factory=dict)  # seconds per stage, for --verbose and benchmarks

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "warning")
