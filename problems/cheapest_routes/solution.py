import heapq
from typing import List


class Solution:
    def cheapest_routes(self, n: int, roads: List[List[int]], source: int, goal: int) -> List[int]:
        MOD = 1_000_000_007
        adjacent = [[] for _ in range(n)]
        for a, b, cost in roads:
            adjacent[a].append((b, cost))
            adjacent[b].append((a, cost))
        best = [None] * n
        routes = [0] * n
        best[source], routes[source] = 0, 1
        heap = [(0, source)]
        while heap:
            dist, town = heapq.heappop(heap)
            if dist > best[town]:
                continue
            for nxt, cost in adjacent[town]:
                candidate = dist + cost
                if best[nxt] is None or candidate < best[nxt]:
                    best[nxt], routes[nxt] = candidate, routes[town]
                    heapq.heappush(heap, (candidate, nxt))
                elif candidate == best[nxt]:
                    routes[nxt] = (routes[nxt] + routes[town]) % MOD
        if best[goal] is None:
            return [-1, 0]
        return [best[goal], routes[goal]]


def valid(n, roads, source, goal):
    return 0 <= source < n and 0 <= goal < n and all(
        0 <= a < n and 0 <= b < n and a != b and cost >= 1 for a, b, cost in roads)
