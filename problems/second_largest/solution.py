from typing import List, Optional


def second_largest(scores: List[int]) -> Optional[int]:
    best = None
    runner_up = None
    for score in scores:
        if best is None or score > best:
            runner_up = best
            best = score
        elif score < best and (runner_up is None or score > runner_up):
            runner_up = score
    return runner_up
