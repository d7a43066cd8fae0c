from operator import add
from typing import List


class Solution:
    def maximumPoints(self, edges: List[List[int]], coins: List[int], k: int) -> int:
        n = len(coins)
        H = max(coins).bit_length() + 1  # after H-1 halvings every coin is 0
        adj = [[] for _ in range(n)]
        for a, b in edges:
            adj[a].append(b)
            adj[b].append(a)
        parent = [-1] * n
        order = [0]
        seen = [False] * n
        seen[0] = True
        for v in order:  # BFS from the root
            for w in adj[v]:
                if not seen[w]:
                    seen[w] = True
                    parent[w] = v
                    order.append(w)
        # dp[v][h]: best total of v's subtree when v's coins were halved h times before;
        # acc[v][h]: sum of dp[c][h] over the children c of v.
        # Once h >= H - 1 all coins are 0, so index H - 1 stands for every larger h.
        first = {}   # coin value -> [(c >> h) - k for h]
        second = {}  # coin value -> [c >> (h + 1) for h]
        leaf = {}    # coin value -> dp of a leaf
        zeros = [0] * H
        acc = [None] * n
        hs = range(H)
        for v in reversed(order):
            c = coins[v]
            f = first.get(c)
            if f is None:
                f = first[c] = [(c >> h) - k for h in hs]
                second[c] = [c >> (h + 1) for h in hs]
            s = acc[v]
            if s is None:
                dp = leaf.get(c)
                if dp is None:
                    dp = leaf[c] = list(map(max, f, second[c]))
            else:
                shifted = s[1:]
                shifted.append(s[-1])
                dp = list(map(max, map(add, f, s), map(add, second[c], shifted)))
            p = parent[v]
            if p < 0:
                return dp[0]
            ap = acc[p]
            acc[p] = dp if ap is None else list(map(add, ap, dp))
        return 0


def valid(edges, coins, k):
    """The statement's constraints: 2 <= n <= 10^5 coins in [0, 10^4],
    0 <= k <= 10^4, and edges form a tree on the nodes 0..n-1."""
    if not isinstance(coins, list) or not 2 <= len(coins) <= 10 ** 5:
        return False
    if not all(type(c) is int and 0 <= c <= 10 ** 4 for c in coins):
        return False
    if type(k) is not int or not 0 <= k <= 10 ** 4:
        return False
    n = len(coins)
    if not isinstance(edges, list) or len(edges) != n - 1:
        return False
    root = list(range(n))

    def find(v):
        while root[v] != v:
            root[v] = root[root[v]]
            v = root[v]
        return v

    for e in edges:
        if not (isinstance(e, list) and len(e) == 2 and all(type(v) is int and 0 <= v < n for v in e)):
            return False
        a, b = find(e[0]), find(e[1])
        if a == b:
            return False  # a cycle: n - 1 edges without a cycle form a tree
        root[a] = b
    return True
