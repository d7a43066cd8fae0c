from collections import deque
from typing import List


def window_maxima(readings: List[int], k: int) -> List[int]:
    candidates = deque()
    maxima = []
    for i, value in enumerate(readings):
        while candidates and readings[candidates[-1]] <= value:
            candidates.pop()
        candidates.append(i)
        if candidates[0] <= i - k:
            candidates.popleft()
        if i >= k - 1:
            maxima.append(readings[candidates[0]])
    return maxima
