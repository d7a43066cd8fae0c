from collections import deque
from typing import List


def tree_diameter(n: int, edges: List[List[int]]) -> int:
    neighbours = [[] for _ in range(n)]
    for a, b in edges:
        neighbours[a].append(b)
        neighbours[b].append(a)

    def farthest(start):
        dist = [-1] * n
        dist[start] = 0
        queue = deque([start])
        far = start
        while queue:
            node = queue.popleft()
            if dist[node] > dist[far]:
                far = node
            for nxt in neighbours[node]:
                if dist[nxt] == -1:
                    dist[nxt] = dist[node] + 1
                    queue.append(nxt)
        return far, dist[far]

    if n <= 1:
        return 0
    end, _ = farthest(0)
    _, length = farthest(end)
    return length


def valid(n, edges):
    """The edges form a tree over points 0 … n-1 (or n <= 1 and no edges)."""
    if n < 0 or len(edges) != max(n - 1, 0):
        return False
    root = list(range(n))

    def find(x):
        while root[x] != x:
            root[x] = root[root[x]]
            x = root[x]
        return x

    for a, b in edges:
        if not (0 <= a < n and 0 <= b < n) or find(a) == find(b):
            return False
        root[find(a)] = find(b)
    return True
