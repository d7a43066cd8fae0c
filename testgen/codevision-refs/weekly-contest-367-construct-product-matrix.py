from typing import List


class Solution:
    def constructProductMatrix(self, grid: List[List[int]]) -> List[List[int]]:
        MOD = 12345
        n, m = len(grid), len(grid[0])
        flat = [v % MOD for row in grid for v in row]
        total = len(flat)
        # 12345 is not prime: use prefix and suffix products instead of inverses
        res = [1] * total
        acc = 1
        for i in range(total):
            res[i] = acc
            acc = acc * flat[i] % MOD
        acc = 1
        for i in range(total - 1, -1, -1):
            res[i] = res[i] * acc % MOD
            acc = acc * flat[i] % MOD
        return [res[r * m:(r + 1) * m] for r in range(n)]


def valid(grid):
    """The statement's constraints: an n x m matrix, 2 <= n * m <= 10^5,
    1 <= grid[i][j] <= 10^9."""
    if not isinstance(grid, list) or not grid or not isinstance(grid[0], list):
        return False
    m = len(grid[0])
    return (
        m >= 1 and 2 <= len(grid) * m <= 10 ** 5
        and all(isinstance(row, list) and len(row) == m for row in grid)
        and all(type(v) is int and 1 <= v <= 10 ** 9 for row in grid for v in row)
    )
