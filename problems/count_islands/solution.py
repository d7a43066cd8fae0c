from collections import deque
from typing import List


class Solution:
    def count_islands(self, grid: List[List[int]]) -> int:
        land = [row[:] for row in grid]
        rows = len(land)
        islands = 0
        for r in range(rows):
            for c in range(len(land[r])):
                if land[r][c] != 1:
                    continue
                islands += 1
                land[r][c] = 0
                queue = deque([(r, c)])
                while queue:
                    y, x = queue.popleft()
                    for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                        if 0 <= ny < rows and 0 <= nx < len(land[ny]) and land[ny][nx] == 1:
                            land[ny][nx] = 0
                            queue.append((ny, nx))
        return islands
