"""A stated duration applied to the treaty's threshold for it: a building or installation site is a
permanent establishment only when it lasts longer than the figure in rules/data (PT-BR 5(3): nine months,
BR-ES 5(2)(g): six months); a stated number of days against the short-stay limit (183 days). The number
comes from the data, the comparison from here, the words from the catalogue (the card)."""
from __future__ import annotations

from dataclasses import dataclass

from rules.conditions import describe
from rules.coverage import figures
from rules.employment import stay_exceeds_short_stay
from rules.lookup import treaty_or_not_covered
from rules.results import Citation, Condition, Figure, NotCovered, RulesInputError, Serialisable

SITE_FIGURE = ".pe.construction-site"        # id suffix of the site-duration figure in every treaty file
# id suffix of the figure that says whether an activity is a PE, by the pe_activity it applies to
ACTIVITY_FIGURES = {"auxiliary": ".pe.auxiliary", "independent_agent": ".pe.independent-agent",
                    "place_of_business": ".pe.places", "subsidiary": ".pe.subsidiary"}
NOT_A_PE = ("auxiliary", "independent_agent", "subsidiary")


@dataclass(frozen=True)
class SiteTest(Serialisable):
    """A site lasting `months` against the treaty's figure: a PE exactly when it lasts longer."""
    treaty: str
    months: float
    figure: Figure
    permanent_establishment: bool

    @property
    def citations(self) -> list[Citation]:
        return list(self.figure.citations)


def construction_site(treaty: str, months: float) -> SiteTest | None:
    """Whether a building, construction or installation site of `months` is a PE under `treaty`; None when
    the corpus sets no site duration for that treaty (the PT-JP summary)."""
    if months < 0:
        raise RulesInputError("negative_value", name="months", value=months)
    found = figures(treaty, "permanent_establishment")
    if isinstance(found, NotCovered):
        return None
    site = next((f for f in found if f.id.endswith(SITE_FIGURE)), None)
    if site is None or site.unit != "months" or not isinstance(site.value, (int, float)):
        return None
    return SiteTest(treaty=site.treaty, months=float(months), figure=site,
                    permanent_establishment=float(months) > float(site.value))


@dataclass(frozen=True)
class ActivityTest(Serialisable):
    """What the enterprise does in the other State, against the treaty's words on it: a branch, an office, a
    factory is a PE; a storage-only warehouse or an independent agent is not."""
    treaty: str
    activity: str
    figure: Figure

    @property
    def permanent_establishment(self) -> bool:
        return self.activity not in NOT_A_PE

    @property
    def citations(self) -> list[Citation]:
        return list(self.figure.citations)


def pe_activity_rule(treaty: str, activity: str) -> ActivityTest | None:
    """The treaty's paragraph on `activity` (one of PE_ACTIVITIES); None when the corpus holds none for that
    treaty (the PT-JP summary)."""
    suffix = ACTIVITY_FIGURES.get(activity)
    if suffix is None:
        raise RulesInputError("unknown_value", name="pe_activity", value=repr(activity),
                              known=", ".join(ACTIVITY_FIGURES))
    found = figures(treaty, "permanent_establishment")
    if isinstance(found, NotCovered):
        return None
    figure = next((f for f in found if f.id.endswith(suffix)), None)
    return None if figure is None else ActivityTest(treaty=figure.treaty, activity=activity, figure=figure)


def stated_days(treaty: str, days: float, one_year: bool = False) -> Condition | None:
    """The short-stay day condition (art. 15(2)(a)) for a stated number of days with no dates: met when they do
    not exceed the treaty's limit, not met when they exceed it in any counting window whatever the dates, else
    unknown (a calendar-year window: the stay may straddle two years, unless `one_year`: the days are said to
    fall in one year); None for a treaty without the rule."""
    if days < 0:
        raise RulesInputError("negative_value", name="days", value=days)
    data = treaty_or_not_covered(treaty)
    if isinstance(data, NotCovered) or data.employment is None:
        return None
    exceeds = stay_exceeds_short_stay(treaty, days) or (one_year and days > data.employment.max_days)
    status = "met" if days <= data.employment.max_days else "not_met" if exceeds else "unknown"
    shown = int(days) if float(days).is_integer() else days
    return describe("days_within_limit", {"max_days": data.employment.max_days, "days": shown}, status)
