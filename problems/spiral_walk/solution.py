from typing import List


def spiral_walk(grid: List[List[int]]) -> List[int]:
    result = []
    if not grid:
        return result
    top, bottom = 0, len(grid) - 1
    left, right = 0, len(grid[0]) - 1
    while top <= bottom and left <= right:
        result.extend(grid[top][left:right + 1])
        top += 1
        result.extend(grid[r][right] for r in range(top, bottom + 1))
        right -= 1
        if top <= bottom:
            result.extend(reversed(grid[bottom][left:right + 1]))
            bottom -= 1
        if left <= right:
            result.extend(grid[r][left] for r in range(bottom, top - 1, -1))
            left += 1
    return result
