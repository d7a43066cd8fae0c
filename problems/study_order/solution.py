import heapq
from typing import List


def study_order(n: int, prerequisites: List[List[int]]) -> List[int]:
    unlocks = [[] for _ in range(n)]
    missing = [0] * n
    for before, after in prerequisites:
        unlocks[before].append(after)
        missing[after] += 1
    ready = [course for course in range(n) if missing[course] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        course = heapq.heappop(ready)
        order.append(course)
        for nxt in unlocks[course]:
            missing[nxt] -= 1
            if missing[nxt] == 0:
                heapq.heappush(ready, nxt)
    if len(order) < n:
        return []
    return order


def valid(n, prerequisites):
    return n >= 0 and all(0 <= a < n and 0 <= b < n and a != b for a, b in prerequisites)
