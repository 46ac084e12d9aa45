"""A host's template from the index of repeated keys equals the walk over every key."""

from __future__ import annotations

import random

from indexer.extract.template import HostStats, TemplateParams


def _walked(stats: HostStats, params: TemplateParams) -> tuple[frozenset[str], frozenset[str]]:
    floor = max(float(params.min_count), params.share * stats.pages)
    counts = stats.counts.items()
    return (
        frozenset(k for k, c in counts if c >= floor),
        frozenset(k for k, c in counts if 2 <= c < floor),
    )


def test_template_matches_the_walk_through_pruning_and_halving() -> None:
    with_keys = 0
    for seed in range(30):
        rng = random.Random(seed)
        params = TemplateParams(
            share=rng.choice([0.1, 0.3, 0.5]),
            min_count=rng.choice([1, 2, 3]),
            min_pages=2,
            max_keys=rng.choice([20, 200]),
            window=rng.choice([15, 50]),
        )
        stats = HostStats()
        for _ in range(300):
            spread = rng.choice([30, 500])
            shared = [f"t{i}" for i in range(rng.randint(0, 10))]  # a template of sorts
            own = [f"k{rng.randint(0, spread)}" for _ in range(rng.randint(1, 40))]
            stats.observe(shared + own, params)
            template = stats.template(params)
            if stats.pages >= params.min_pages:
                assert (template.keys, template.seen) == _walked(stats, params), seed
        with_keys += bool(template.keys and template.seen)
        assert HostStats.from_json(stats.to_json()).template(params) == template
    assert with_keys >= 10, "the streams must produce templates to compare"
