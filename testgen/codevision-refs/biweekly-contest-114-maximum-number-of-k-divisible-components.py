from typing import List


class Solution:
    def maxKDivisibleComponents(self, n: int, edges: List[List[int]], values: List[int], k: int) -> int:
        # Root the tree at 0; an edge to a child can be cut exactly when the
        # child's subtree sum is divisible by k (the total is).  Every such cut
        # is compatible with the others, so the answer is the number of nodes
        # whose subtree sum is divisible by k (the root's always is).
        adj = [[] for _ in range(n)]
        for a, b in edges:
            adj[a].append(b)
            adj[b].append(a)
        parent = [-1] * n
        order = []
        seen = [False] * n
        seen[0] = True
        stack = [0]
        while stack:
            u = stack.pop()
            order.append(u)
            for v in adj[u]:
                if not seen[v]:
                    seen[v] = True
                    parent[v] = u
                    stack.append(v)
        subtotal = list(values)
        components = 0
        for u in reversed(order):
            if subtotal[u] % k == 0:
                components += 1
            if parent[u] >= 0:
                subtotal[parent[u]] += subtotal[u]
        return components


def valid(n, edges, values, k):
    """The statement's domain: a tree on n >= 1 nodes, len(values) == n,
    values >= 0, k >= 1 and the total divisible by k."""
    if n < 1 or len(values) != n or len(edges) != n - 1 or k < 1:
        return False
    if any(v < 0 for v in values) or sum(values) % k != 0:
        return False
    root = list(range(n))

    def find(x):
        while root[x] != x:
            root[x] = root[root[x]]
            x = root[x]
        return x

    for e in edges:
        if len(e) != 2 or not all(0 <= x < n for x in e):
            return False
        a, b = find(e[0]), find(e[1])
        if a == b:
            return False
        root[a] = b
    return True
