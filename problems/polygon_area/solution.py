from typing import List


def polygon_area(points: List[List[float]]) -> float:
    n = len(points)
    if n < 3:
        return 0.0
    twice_area = 0.0
    for i in range(n):
        x1, y1 = points[i]
        x2, y2 = points[(i + 1) % n]
        cross = x1 * y2 - x2 * y1
        twice_area += cross
    return abs(twice_area) / 2
