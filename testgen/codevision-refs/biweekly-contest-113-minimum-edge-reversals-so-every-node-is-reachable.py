from typing import List


class Solution:
    def minEdgeReversals(self, n: int, edges: List[List[int]]) -> List[int]:
        # From node r every edge must point away from r; the cost is the number
        # of edges pointing towards r.  Compute it for node 0, then re-root:
        # crossing an edge u -> v from u to v adds one reversal, the other way
        # removes one.
        adj = [[] for _ in range(n)]
        for u, v in edges:
            adj[u].append((v, 1))  # following the edge's direction: moving root u -> v costs +1
            adj[v].append((u, -1))
        answer = [0] * n
        seen = [False] * n
        seen[0] = True
        order = [0]
        parent_delta = [0] * n
        parent = [-1] * n
        stack = [0]
        base = 0
        while stack:
            u = stack.pop()
            for v, d in adj[u]:
                if not seen[v]:
                    seen[v] = True
                    parent[v] = u
                    parent_delta[v] = d
                    if d == -1:
                        base += 1  # edge v -> u points towards root 0
                    order.append(v)
                    stack.append(v)
        answer[0] = base
        for v in order[1:]:
            answer[v] = answer[parent[v]] + parent_delta[v]
        return answer


def valid(n, edges):
    """The statement's domain: n >= 2 nodes and n - 1 directed edges that
    form a tree when taken undirected."""
    if n < 2 or len(edges) != n - 1:
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
