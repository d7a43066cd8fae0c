from typing import List


class Solution:
    def minimumTime(self, nums1: List[int], nums2: List[int], x: int) -> int:
        n = len(nums1)
        # Resetting an index more than once never helps, and in t seconds the
        # best plan resets t distinct indices, the one reset at second j
        # (1-based) saving nums1[i] + j * nums2[i]; slower-growing indices go
        # first.  best[j]: the largest saving with j resets among the items
        # seen so far (taken in increasing nums2 order).
        pairs = sorted(zip(nums2, nums1))
        best = [0] + [-1] * n
        for count, (b, a) in enumerate(pairs, start=1):
            for j in range(count, 0, -1):
                if best[j - 1] >= 0:
                    cand = best[j - 1] + a + b * j
                    if cand > best[j]:
                        best[j] = cand
        total1 = sum(nums1)
        total2 = sum(nums2)
        for t in range(n + 1):
            if total1 + total2 * t - best[t] <= x:
                return t
        return -1
