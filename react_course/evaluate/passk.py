"""pass^k and pass@k of one task, from c successes in n runs, as their authors published them.

Two questions about the same counts: will k runs *all* succeed (pass^k, what a
user who asks k times meets: tau-bench), and will *at least one* of k succeed
(pass@k, what a picker of the best of k gets: the Codex paper). Each is
estimated without bias by drawing k of the n runs without replacement: the
plug-in ``(c / n) ** k`` is biased when n is small.

What it leaves out: averaging over tasks and intervals (``metrics.py``, ``compare.py``).
"""

from __future__ import annotations

import math


def pass_hat_k_of(c: int, n: int, k: int) -> float:
    """pass^k of one task from c successes in n runs: C(c, k) / C(n, k) (tau-bench, arXiv 2406.12045).

    The chance that k runs drawn without replacement from the n all succeeded:
    an unbiased estimate of p**k, for every k from 1 to n.

    >>> pass_hat_k_of(2, 3, 1), pass_hat_k_of(2, 3, 2), pass_hat_k_of(2, 3, 3)
    (0.666..., 0.333..., 0.0)
    """
    _check_counts(c, n, k)
    return math.comb(c, k) / math.comb(n, k)


def pass_at_k_of(c: int, n: int, k: int) -> float:
    """pass@k of one task: 1 - C(n - c, k) / C(n, k) (Chen et al. 2021, arXiv 2107.03374).

    The chance that at least one of k runs drawn from the n succeeded.

    >>> pass_at_k_of(1, 3, 1), pass_at_k_of(1, 3, 2), pass_at_k_of(0, 3, 3)
    (0.333..., 0.666..., 0.0)
    """
    _check_counts(c, n, k)
    return 1 - math.comb(n - c, k) / math.comb(n, k)


def _check_counts(c: int, n: int, k: int) -> None:
    if not 0 <= c <= n:
        raise ValueError(f"successes c={c} must be between 0 and the runs n={n}")
    if not 1 <= k <= n:
        raise ValueError(f"k={k} must be between 1 and the runs n={n}: C(n, k) is 0 for k > n")
