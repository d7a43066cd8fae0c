from typing import List


class Solution:
    def countOfPairs(self, n: int, x: int, y: int) -> List[int]:
        res = [0] * n
        for i in range(1, n + 1):
            for j in range(i + 1, n + 1):
                d = min(j - i, abs(i - x) + 1 + abs(y - j), abs(i - y) + 1 + abs(x - j))
                res[d - 1] += 2  # (i, j) and (j, i)
        return res


def valid(n, x, y):
    """The statement's constraints: 2 <= n <= 100, 1 <= x, y <= n."""
    return all(type(v) is int for v in (n, x, y)) and 2 <= n <= 100 and 1 <= x <= n and 1 <= y <= n
