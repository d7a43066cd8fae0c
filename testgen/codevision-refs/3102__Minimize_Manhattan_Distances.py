from typing import List


def minimumDistance(points0: List[List[int]]) -> int:
    # Manhattan distance = max(|du|, |dv|) with u = x + y, v = x - y, so the
    # largest distance in a set is max(max u - min u, max v - min v).  Only a
    # point attaining one of the four extremes can lower it when removed.
    pts = points0
    n = len(pts)
    us = [x + y for x, y in pts]
    vs = [x - y for x, y in pts]

    def spread_without(skip):
        umax = vmax = float('-inf')
        umin = vmin = float('inf')
        for i in range(n):
            if i == skip:
                continue
            u = us[i]
            v = vs[i]
            if u > umax:
                umax = u
            if u < umin:
                umin = u
            if v > vmax:
                vmax = v
            if v < vmin:
                vmin = v
        if umax == float('-inf'):
            return 0
        return max(umax - umin, vmax - vmin)

    cands = {
        max(range(n), key=us.__getitem__),
        min(range(n), key=us.__getitem__),
        max(range(n), key=vs.__getitem__),
        min(range(n), key=vs.__getitem__),
    }
    return min(spread_without(c) for c in cands)


def valid(points0):
    """The statement's domain: 3 <= len(points) <= 10^5, each point a pair of
    integers in [1, 10^8]."""
    return 3 <= len(points0) <= 10 ** 5 and all(
        isinstance(p, list) and len(p) == 2
        and all(isinstance(c, int) and not isinstance(c, bool) and 1 <= c <= 10 ** 8 for c in p)
        for p in points0)
