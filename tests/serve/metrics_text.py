"""Reading `/metrics` in the tests: the exposition parsed by prometheus-client's own parser."""

from __future__ import annotations

import httpx2
from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(root: str, **headers: str) -> Samples:
    """Every sample of `root`/metrics, keyed by sample name and labels."""
    response = httpx2.get(f"{root}/metrics", headers=headers, timeout=10)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(response.text) for sample in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sample `name` with exactly these labels (0 when absent: a counter not yet counted)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of the samples `name` whose labels include these."""
    wanted = set(labels.items())
    return sum(v for (n, got), v in samples.items() if n == name and wanted <= got)
