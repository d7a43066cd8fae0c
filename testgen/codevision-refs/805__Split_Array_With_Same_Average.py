from typing import List


def splitArraySameAverage(nums: List[int]) -> bool:
    # A works iff sum(A) / |A| == total / n, i.e. sum(A) = total * |A| / n.
    # reach[s] is a bitmask of the sums of s-element subsets (|A| <= n / 2
    # suffices: the complement of a good A is good too).
    n = len(nums)
    if n < 2:
        return False
    total = sum(nums)
    half = n // 2
    reach = [0] * (half + 1)
    reach[0] = 1
    for x in nums:
        for s in range(half - 1, -1, -1):
            if reach[s]:
                reach[s + 1] |= reach[s] << x
    for s in range(1, half + 1):
        if total * s % n == 0 and (reach[s] >> (total * s // n)) & 1:
            return True
    return False
