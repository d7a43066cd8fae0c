from typing import List


def rotate_right(items: List[int], k: int) -> List[int]:
    n = len(items)
    if n == 0:
        return []
    k = k % n
    result = [0] * n
    for i in range(n):
        target = (i + k) % n
        result[target] = items[i]
    return result
